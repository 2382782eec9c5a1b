#!/usr/bin/env bash
# Saves the four tabs of the bundled sample run as docs/screenshots/*.png.
# Usage: docs/make_screenshots.sh [path/to/tokenscope]   (default: build/release/app/gui/tokenscope)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
binary="${1:-$root/build/release/app/gui/tokenscope}"
out="$root/docs/screenshots"

if [[ ! -x "$binary" ]]; then
    echo "make_screenshots.sh: $binary is not an executable; build the tokenscope target first" >&2
    exit 1
fi
mkdir -p "$out"
# Offscreen needs no display; xvfb-run is the fallback where the plugin is missing.
if QT_QPA_PLATFORM=offscreen "$binary" --screenshots "$out"; then
    :
elif command -v xvfb-run >/dev/null; then
    xvfb-run -a "$binary" --screenshots "$out"
else
    exit 1
fi
for name in timeline heatmap breakdown compare; do
    [[ -s "$out/$name.png" ]] || { echo "make_screenshots.sh: $out/$name.png missing" >&2; exit 1; }
    echo "$out/$name.png: $(stat -c %s "$out/$name.png") bytes"
done
