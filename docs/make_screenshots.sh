#!/usr/bin/env bash
# Saves the four tabs of the bundled sample run as docs/screenshots/*.png, and the
# real H200 capture's timeline, heatmap and breakdown as docs/screenshots/h200/*.png,
# and the V100 Kineto fixture's as docs/screenshots/kineto/*.png where ../shared has it.
# Usage: docs/make_screenshots.sh [path/to/tokenscope]   (default: build/release/app/gui/tokenscope)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
binary="${1:-$root/build/release/app/gui/tokenscope}"
out="$root/docs/screenshots"

if [[ ! -x "$binary" ]]; then
    echo "make_screenshots.sh: $binary is not an executable; build the tokenscope target first" >&2
    exit 1
fi
shoot() {  # shoot DIR [FILE]
    mkdir -p "$1"
    # Offscreen needs no display; xvfb-run is the fallback where the plugin is missing.
    if QT_QPA_PLATFORM=offscreen "$binary" --screenshots "$@"; then
        :
    elif command -v xvfb-run >/dev/null; then
        xvfb-run -a "$binary" --screenshots "$@"
    else
        exit 1
    fi
}
check() {  # check DIR NAME...
    local dir=$1
    shift
    for name in "$@"; do
        [[ -s "$dir/$name.png" ]] || { echo "make_screenshots.sh: $dir/$name.png missing" >&2; exit 1; }
        echo "$dir/$name.png: $(stat -c %s "$dir/$name.png") bytes"
    done
}
shoot "$out"
check "$out" timeline heatmap breakdown compare
shoot "$out/h200" "$root/resources/h200-llama-1b.tokenscope"
check "$out/h200" timeline heatmap breakdown
# A foreign trace (PyTorch profiler, V100 training step) where ../shared/fixtures is.
kineto="$root/../shared/fixtures/kineto/hta_v100_ns_resolution_rank0.json.gz"
if [[ -f $kineto ]]; then
    shoot "$out/kineto" "$kineto"
    check "$out/kineto" timeline heatmap breakdown
fi
