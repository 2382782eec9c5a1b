#!/usr/bin/env bash
# Builds the fuzz preset and runs each libFuzzer target for SECONDS, one
# process each (no -jobs), two targets at a time (TOKENSCOPE_FUZZ_PARALLEL,
# default 2: CI has two cores), on seeds made by seeds/make_seeds.sh. First every
# input of regressions/<target>/ is replayed. Fails when any target crashes,
# leaks, trips ASan or UBSan, runs one input longer than -timeout, or takes
# more memory than -rss_limit_mb / -malloc_limit_mb. Prints executions per
# second per target; TOKENSCOPE_FUZZ_STATS=FILE also writes them there.
# Usage: tests/fuzz/run.sh SECONDS [TARGET...]
#   (targets: nsys nsys_sql kineto kineto_gzip serving store aiperf genai_perf guidellm llmperf
#    prometheus)
# Findings land in $TOKENSCOPE_FUZZ_OUT (default build/fuzz/findings).
set -euo pipefail

# Everything in one function: bash then parses the whole script before running
# any of it, so editing run.sh while it fuzzes cannot break the running copy.
main() {
    cd "$(dirname "$0")/../.."
    seconds=${1:?usage: tests/fuzz/run.sh SECONDS [TARGET...]}
    shift
    targets=("$@")
    [ ${#targets[@]} -gt 0 ] ||
        targets=(nsys nsys_sql kineto kineto_gzip serving store aiperf genai_perf guidellm llmperf
            prometheus)
    parallel=${TOKENSCOPE_FUZZ_PARALLEL:-2}
    fixtures=${TOKENSCOPE_FIXTURES_DIR:-$PWD/../shared/fixtures}
    build=build/fuzz
    findings=${TOKENSCOPE_FUZZ_OUT:-$build/findings}

    [ -f $build/CMakeCache.txt ] || cmake --preset fuzz >/dev/null
    # Niced: on a shared machine the developers' own builds go first.
    nice -n 15 cmake --build $build --target tokenscope_fuzz -j2

    work=$(mktemp -d "${TMPDIR:-/tmp}/tokenscope-fuzz.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    tests/fuzz/seeds/make_seeds.sh "$work/corpus" "$fixtures"
    mkdir -p "$findings"

    # SQLite files need room for a schema and a few pages; JSON inputs stay small
    # so each execution is fast.
    declare -A max_len=([nsys]=65536 [nsys_sql]=32768 [store]=65536 [kineto]=65536 [kineto_gzip]=32768
        [serving]=16384 [aiperf]=16384 [genai_perf]=16384 [guidellm]=16384 [llmperf]=16384
        [prometheus]=16384)
    declare -A dict=([nsys]=nsys [nsys_sql]=nsys [store]=store [kineto]=kineto [kineto_gzip]=kineto
        [serving]=serving [aiperf]=aiperf [genai_perf]=genai_perf [guidellm]=guidellm [llmperf]=llmperf
        [prometheus]=prometheus)
    limits=(-rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10)
    export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0:abort_on_error=0
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

    failed=()
    # Targets run in batches of $parallel; each writes its verdict to $work/$t.failed.
    for ((i = 0; i < ${#targets[@]}; i += parallel)); do
        for t in "${targets[@]:i:parallel}"; do
            fuzz_one "$t" &
        done
        wait
    done
    summary="target        exec/s   executions  new_units  peak_rss_mb"
    for t in "${targets[@]}"; do
        [ ! -s "$work/$t.failed" ] || failed+=("$(cat "$work/$t.failed")")
        log=$findings/$t.log
        stat() { sed -n "s/^stat::$1: *//p" "$log"; }
        summary+=$(printf '\n%-12s %7s %12s %10s %12s' "$t" "$(stat average_exec_per_sec)" \
            "$(stat number_of_executed_units)" "$(stat new_units_added)" "$(stat peak_rss_mb)")
    done
    echo "$summary"
    [ -z "${TOKENSCOPE_FUZZ_STATS:-}" ] || echo "$summary" >"$TOKENSCOPE_FUZZ_STATS"
    if [ ${#failed[@]} -gt 0 ]; then
        echo "fuzz: FAILED: ${failed[*]} (inputs in $findings)" >&2
        exit 1
    fi
    echo "fuzz: all ${#targets[@]} targets clean for ${seconds}s each"
}

# Replays target $1's regression inputs, then fuzzes it; a failure is written
# to $work/$1.failed (a background job cannot append to the caller's array).
fuzz_one() {
    local t=$1 bin=$build/tests/fuzz/fuzz_$1 log=$findings/$1.log regressions
    regressions=(tests/fuzz/regressions/$t/*)
    if [ -e "${regressions[0]}" ]; then
        echo "== $t: replaying ${#regressions[@]} regression inputs"
        "$bin" "${limits[@]}" "${regressions[@]}" >"$work/$t.replay.log" 2>&1 ||
            { tail -40 "$work/$t.replay.log"; echo "$t (regression)" >"$work/$t.failed"; }
    fi
    echo "== $t: fuzzing ${seconds}s"
    if ! "$bin" "${limits[@]}" -max_len="${max_len[$t]}" -dict="tests/fuzz/${dict[$t]}.dict" \
        -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$findings/$t-" \
        "$work/corpus/$t" >"$log" 2>&1; then
        grep -E -A30 '==ERROR|runtime error|Sanitizer|deadly signal|uncaught exception' "$log" |
            head -60 || tail -40 "$log"
        echo "$t" >>"$work/$t.failed"
    fi
}

main "$@"
exit
