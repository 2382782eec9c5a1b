#!/usr/bin/env bash
# Makes the fuzz seed corpora in DIR/<target>/ (tests/fuzz/run.sh calls it):
# the real traces of ../shared/fixtures read in place, small SQLite copies of
# the fixture and of the sample runs (only rows a fuzzer can afford), the
# committed seeds of tests/fuzz/seeds/ and every regression input.
# Usage: make_seeds.sh DIR FIXTURES_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
dir=$1
fixtures=$2
targets=(nsys nsys_sql kineto kineto_gzip serving store aiperf genai_perf guidellm llmperf prometheus)
for t in "${targets[@]}"; do mkdir -p "$dir/$t"; done

# Copies src to dst keeping `rows` rows of each table matching the regex
# `keep`, every row of those matching `whole`, dropping the other tables; runs
# `post` (SQL) and rewrites the file with 512-byte pages.
shrink_sqlite() {
    local src=$1 dst=$2 keep=$3 whole=$4 rows=$5 post=${6:-} t
    cp "$src" "$dst"
    chmod u+w "$dst"
    # WITHOUT ROWID tables have no rowid to cut by: they stay whole.
    sqlite3 "$dst" "SELECT name, sql LIKE '%WITHOUT ROWID%' FROM sqlite_master WHERE type = 'table'" |
        while IFS='|' read -r t no_rowid; do
        if [[ $t =~ $whole || $no_rowid == 1 ]]; then
            continue
        elif [[ $t =~ $keep ]]; then
            echo "DELETE FROM \"$t\" WHERE rowid NOT IN (SELECT rowid FROM \"$t\" LIMIT $rows);"
        else
            echo "DROP TABLE \"$t\";"
        fi
    done | sqlite3 "$dst" || echo "make_seeds.sh: could not shrink every table of $src" >&2
    sqlite3 "$dst" "$post PRAGMA journal_mode = DELETE; PRAGMA page_size = 512; VACUUM;" >/dev/null ||
        echo "make_seeds.sh: could not trim $dst" >&2
}

nsys_fixture=$fixtures/nsys/pipit_a100x4_cloverleaf.sqlite
if [ -f "$nsys_fixture" ]; then
    nsys_tables='^(ThreadNames|TARGET_INFO_(GPU|SESSION_START_TIME|SYSTEM_ENV)|CUPTI_ACTIVITY_KIND_.*|NVTX_EVENTS|META_DATA_.*|ENUM_CUDA_MEMCPY_OPER|ENUM_CUPTI_SYNC_TYPE)$'
    # Only the names the kept rows refer to, not the first few of 2,000 strings.
    used="DELETE FROM StringIds WHERE id NOT IN (SELECT nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME
        UNION SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL
        UNION SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL UNION SELECT nameId FROM ThreadNames);"
    for rows in 2 8; do
        shrink_sqlite "$nsys_fixture" "$dir/nsys/cloverleaf-$rows.sqlite" "$nsys_tables" \
            '^StringIds$' $rows "$used"
        # The same as SQL for nsys_sql, without comments, padding and PRAGMAs.
        sqlite3 "$dir/nsys/cloverleaf-$rows.sqlite" .dump | grep -v '^PRAGMA' |
            sed -e 's/ *--.*$//' -e 's/  */ /g' >"$dir/nsys_sql/cloverleaf-$rows.sql"
    done
fi
for f in "$root"/resources/*.tokenscope; do
    [ -f "$f" ] || continue
    seed=$dir/store/$(basename "$f")
    # Launch chunks cut to their first 16 launches (8 bytes each), count to match.
    shrink_sqlite "$f" "$seed" '.' '^(lane|string|kernel_launch)$' 4 \
        "DELETE FROM activity_chunk WHERE length(data) > 4096; DELETE FROM kernel_launch WHERE
         correlation NOT IN (SELECT correlation FROM kernel_launch ORDER BY 1 LIMIT 16);
         UPDATE launch_chunk SET data = substr(data, 1, 128), count = min(count, 16);"
done
for f in "$fixtures"/kineto/*.json.gz; do
    [ -f "$f" ] || continue
    cp "$f" "$dir/kineto/"
    # Plain JSON for the gzip target (it compresses each input itself): the
    # metadata and first 40 events of each trace.
    if command -v jq >/dev/null; then
        zcat "$f" | jq -c '.traceEvents |= .[:40]' >"$dir/kineto_gzip/$(basename "$f" .gz)"
    fi
done
cp "$here"/kineto/* "$dir/kineto/" 2>/dev/null || true
cp "$here"/kineto/* "$dir/kineto_gzip/" 2>/dev/null || true
# The client targets' seeds are the files tests/app/client_*_test write
# (kept with TOKENSCOPE_KEEP_TEST_FILES=1).
for t in serving nsys_sql aiperf genai_perf guidellm llmperf prometheus; do
    cp "$here/$t"/* "$dir/$t/" 2>/dev/null || true
done
for t in "${targets[@]}"; do
    cp "$here/../regressions/$t"/* "$dir/$t/" 2>/dev/null || true
done
