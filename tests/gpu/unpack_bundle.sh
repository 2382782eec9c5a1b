#!/usr/bin/env bash
# Unpacks a bundle made by make_bundle.sh into DIR and drops every library the system
# already provides (by soname, from the loader cache), so our older copies never
# shadow the system's for other programs. Prints DIR/lib, for LD_LIBRARY_PATH.
# Usage: unpack_bundle.sh BUNDLE.tar.xz DIR
set -euo pipefail
bundle=$1
dir=$2
mkdir -p "$dir"
tar -xJf "$bundle" -C "$dir"
have=$(ldconfig -p | awk '{print $1}' | sort -u)
kept=()
for lib in "$dir"/lib/*; do
    name=$(basename "$lib")
    if grep -qxF "$name" <<<"$have"; then rm -f "$lib"; else kept+=("$name"); fi
done
echo "bundle libraries used (the system lacks them): ${kept[*]:-none}" >&2
echo "$dir/lib"
