#!/usr/bin/env bash
# Saves the four tabs of the bundled sample run as docs/screenshots/*.png (a 1920x1080
# desktop) and docs/screenshots/1366x768/*.png (a laptop), the real H200 capture's
# timeline, heatmap and breakdown as docs/screenshots/h200/*.png, and the V100 Kineto
# fixture's as docs/screenshots/kineto/*.png where ../shared has it.
# Each picture is the window at the screen's size, on a screen of that size.
# Usage: docs/make_screenshots.sh [path/to/tokenscope]   (default: build/release/app/gui/tokenscope)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
binary="${1:-$root/build/release/app/gui/tokenscope}"
out="$root/docs/screenshots"

if [[ ! -x "$binary" ]]; then
    echo "make_screenshots.sh: $binary is not an executable; build the tokenscope target first" >&2
    exit 1
fi
screens="$(mktemp -d)"
trap 'rm -rf "$screens"' EXIT
shoot() {  # shoot WxH DIR [FILE]
    local size=$1 w=${1%x*} h=${1#*x}
    shift
    mkdir -p "$1"
    # The offscreen platform on a screen of that size (its default is 800x800), so the
    # window's defaults, tooltips and dialogs see what a user's screen would give them.
    local config="$screens/$size.json"
    printf '{"screens":[{"name":"screen","x":0,"y":0,"width":%d,"height":%d,"logicalDpi":96,"logicalBaseDpi":96,"dpr":1}]}\n' \
        "$w" "$h" >"$config"
    if QT_QPA_PLATFORM="offscreen:configfile=$config" "$binary" --screenshots "$1" --size "$size" \
        "${@:2}"; then
        :
    elif command -v xvfb-run >/dev/null; then
        xvfb-run -a -s "-screen 0 ${size}x24" "$binary" --screenshots "$1" --size "$size" "${@:2}"
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
shoot 1920x1080 "$out"
check "$out" timeline heatmap breakdown compare
shoot 1366x768 "$out/1366x768"
check "$out/1366x768" timeline heatmap breakdown compare
shoot 1920x1080 "$out/h200" "$root/resources/h200-llama-1b.tokenscope"
check "$out/h200" timeline heatmap breakdown
# A foreign trace (PyTorch profiler, V100 training step) where ../shared/fixtures is.
kineto="$root/../shared/fixtures/kineto/hta_v100_ns_resolution_rank0.json.gz"
if [[ -f $kineto ]]; then
    shoot 1920x1080 "$out/kineto" "$kineto"
    check "$out/kineto" timeline heatmap breakdown
fi
