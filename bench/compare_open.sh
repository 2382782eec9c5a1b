#!/usr/bin/env bash
# Issue 15's open target, before against after in one run: opens the benchmark run
# (bench/decode_run.h) to a fully analysed window with ui_open_bench built from
# OLD_COMMIT and from the current tree, alternately, and prints the medians of both
# and their ratio.
#
#   bench/compare_open.sh OLD_COMMIT [activities (default 10000000)] [rounds (default 3)]
#
# OLD_COMMIT is checked out as a git worktree under $TOKENSCOPE_COMPARE_DIR (default
# /tmp/tokenscope-compare-open) and built there in Release, with only what
# ui_open_bench needs (no tests). Where ui_open_bench did not exist yet, today's
# bench/ui_open_bench.cpp and the bench headers it includes are copied into that
# worktree and added to its bench/CMakeLists.txt: the bench uses public API only, so
# both sides measure the same program. The current tree is built in Release in a
# directory of its own. Builds run under nice -n 10 with -j$JOBS (default 2); both
# build directories are kept, so a second call only rebuilds what changed.
# Each round runs the old program once, then the new one, each opening a file it
# writes in its own temporary directory; the figures are medians over the rounds.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 3 ]]; then
    echo "usage: $0 OLD_COMMIT [activities] [rounds]" >&2
    exit 2
fi
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
sha=$(git -C "$repo" rev-parse --verify --quiet "$1^{commit}") || {
    echo "$0: '$1' is not a commit of $repo" >&2
    exit 2
}
activities=${2:-10000000}
rounds=${3:-3}
jobs=${JOBS:-2}
work=${TOKENSCOPE_COMPARE_DIR:-/tmp/tokenscope-compare-open}
old_src=$work/src-${sha:0:12}
old_build=$work/build-old-${sha:0:12}
new_build=$work/build-new
mkdir -p "$work"

# The old tree: a detached worktree, reused by later calls.
if [[ ! -e $old_src/.git ]]; then
    git -C "$repo" worktree add --detach "$old_src" "$sha" >/dev/null
fi
if ! git -C "$old_src" cat-file -e "HEAD:bench/ui_open_bench.cpp" 2>/dev/null; then
    echo "ui_open_bench is not in ${sha:0:12}: today's source is copied into its bench/"
    cp "$repo/bench/ui_open_bench.cpp" "$old_src/bench/"
    # Local headers the bench includes ("decode_run.h"), taken from today's bench/.
    for header in $(sed -n 's/^#include "\([^/"]*\.h\)"$/\1/p' "$repo/bench/ui_open_bench.cpp"); do
        [[ -f $repo/bench/$header ]] && cp "$repo/bench/$header" "$old_src/bench/"
    done
    if ! grep -q 'ui_open_bench' "$old_src/bench/CMakeLists.txt"; then
        printf '%s\n' '# Added by bench/compare_open.sh: the bench of the newer tree.' \
            'if(TARGET tokenscope_ui)' \
            '    tokenscope_add_bench(ui_open_bench LIBS tokenscope_ui tokenscope_store)' \
            'endif()' >>"$old_src/bench/CMakeLists.txt"
    fi
fi

build() {  # build SOURCE_DIR BUILD_DIR
    local started=$SECONDS
    if [[ ! -f $2/CMakeCache.txt ]]; then
        nice -n 10 cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release \
            -DTOKENSCOPE_BUILD_TESTS=OFF -DTOKENSCOPE_BUILD_FUZZ=OFF >"$2.configure.log" 2>&1 || {
            echo "configure of $1 failed; see $2.configure.log" >&2
            exit 1
        }
    fi
    nice -n 10 cmake --build "$2" --target ui_open_bench -j"$jobs" >"$2.build.log" 2>&1 || {
        tail -30 "$2.build.log" >&2
        echo "build of $1 failed; see $2.build.log" >&2
        exit 1
    }
    echo "built $2/bench/ui_open_bench in $((SECONDS - started)) s"
}
mkdir -p "$old_build" "$new_build"
build "$old_src" "$old_build"
build "$repo" "$new_build"

# One open of one side; prints "analysed_ms bytes_per_activity" from its medians.
run_side() {  # run_side BUILD_DIR LABEL ROUND
    local tmp=$work/tmp-$2
    mkdir -p "$tmp"
    local out
    out=$(TMPDIR=$tmp QT_QPA_PLATFORM=offscreen "$1/bench/ui_open_bench" "$activities" 1 2>&1) || {
        echo "$out" >&2
        echo "$2 ui_open_bench failed (round $3)" >&2
        exit 1
    }
    echo "$out" | sed -n "s/^open 1: /  $2 round $3: /p" >&2
    local ms bytes
    ms=$(echo "$out" | sed -n 's/^fully analysed window *\([0-9.]*\) ms$/\1/p')
    bytes=$(echo "$out" | sed -n 's/^resident memory per activity, analysed *\([0-9.-]*\) B$/\1/p')
    [[ -n $ms && -n $bytes ]] || {
        echo "$out" >&2
        echo "$2: no figures in ui_open_bench's output" >&2
        exit 1
    }
    echo "$ms $bytes"
}

median() { tr ' ' '\n' | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

old_ms=() old_b=() new_ms=() new_b=()
echo "opening $activities activities, $rounds rounds, old ${sha:0:12} and the current tree"
for ((r = 1; r <= rounds; ++r)); do
    res=$(run_side "$old_build" old "$r")
    old_ms+=("${res% *}") old_b+=("${res#* }")
    res=$(run_side "$new_build" new "$r")
    new_ms+=("${res% *}") new_b+=("${res#* }")
done

om=$(echo "${old_ms[*]}" | median) nm=$(echo "${new_ms[*]}" | median)
ob=$(echo "${old_b[*]}" | median) nb=$(echo "${new_b[*]}" | median)
echo
echo "medians over $rounds rounds of $activities activities"
printf '%-44s %12s %12s %10s\n' "" "old ${sha:0:12}" "new" "old/new"
awk -v om="$om" -v nm="$nm" -v ob="$ob" -v nb="$nb" 'BEGIN {
    rt = (nm > 0) ? om / nm : 0
    rb = (nb > 0) ? ob / nb : 0
    printf "%-44s %9.0f ms %9.0f ms %9.2fx\n", "fully analysed window", om, nm, rt
    printf "%-44s %10.1f B %10.1f B %9.2fx\n", "resident memory per activity, analysed", ob, nb, rb
}'
