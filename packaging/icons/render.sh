#!/usr/bin/env bash
# Renders tokenscope.svg to the PNG sizes the package installs (hicolor theme).
# The PNGs are committed, so building the package needs no SVG renderer; run this
# after changing the SVG (needs rsvg-convert from librsvg2-bin).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
for size in 16 22 24 32 48 64 128 256 512; do
    mkdir -p "$size"
    rsvg-convert -w "$size" -h "$size" tokenscope.svg -o "$size/tokenscope.png"
done
