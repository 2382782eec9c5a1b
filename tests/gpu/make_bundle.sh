#!/usr/bin/env bash
# Packs a built tree for a GPU machine that has a driver and CUDA but none of the build
# dependencies (Qt, SQLite, ...): the device-side programs, the GPU test executables and
# every shared library they load except glibc's and the compiler runtime's. On the GPU
# machine, tests/gpu/unpack_bundle.sh BUNDLE DIR keeps only the libraries that system
# lacks (its own, newer ones win) and prints the LD_LIBRARY_PATH to use; then
#   SKIP_DEPS=1 SKIP_BUILD=1 BUILD_DIR=DIR/build tests/gpu/run.sh
# Usage: make_bundle.sh BUILD_DIR OUTPUT.tar.xz
set -euo pipefail
build=$(cd "$1" && pwd)
out=$2
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/build" "$stage/lib"

programs=(app/cli/tokenscope-cli profiler/capture/inject/libtokenscope_inject.so
          kernels/cuda/tokenscope-gpu-check kernels/cuda/tokenscope-gpu-decode
          profiler/capture/cupti/tokenscope-gpu-overhead)
while IFS= read -r t; do programs+=("${t#"$build"/}"); done < <(
    find "$build/tests" -type f -executable \
        \( -name 'kernels_cuda_*' -o -name 'capture_*_test' -o -name 'cupti_*_test' \) | sort)
for p in "${programs[@]}"; do
    [ -e "$build/$p" ] || { echo "skipping $p (not built)"; continue; }
    mkdir -p "$stage/build/$(dirname "$p")"
    cp "$build/$p" "$stage/build/$p"
    strip --strip-debug "$stage/build/$p"
done

# The libraries the programs resolve here, less the C and C++ runtimes and libcuda
# (the driver's own, which must come from the GPU machine).
keep='^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|libpthread\.|librt\.|libutil\.|libresolv\.|libstdc\+\+|libgcc_s|libcuda\.)'
find "$stage/build" -type f -executable -print0 | xargs -0 ldd 2>/dev/null |
    awk '/=> \// {print $1, $3}' | sort -u | while read -r name path; do
        [[ $name =~ $keep ]] && continue
        cp -L "$path" "$stage/lib/$name"
    done
# Nsight Compute's bare nsys (the only one on the lent H200s) converts its .qdstrm with
# QdstrmImporter, which needs elfutils' libdw there and found none (2026-12-04):
# carried, they made run.sh's nsys comparison possible.
for name in libdw.so.1 libelf.so.1 libbz2.so.1.0 liblzma.so.5 libz.so.1; do
    path=$(ldconfig -p | awk -v n="$name" '$1 == n && /x86-64/ {print $NF; exit}')
    [ -n "$path" ] && [ ! -e "$stage/lib/$name" ] && cp -L "$path" "$stage/lib/$name"
done
XZ_OPT=${XZ_OPT:--T0 -6} tar -C "$stage" -cJf "$out" build lib
echo "$out: $(du -h "$out" | cut -f1), $(ls "$stage/lib" | wc -l) libraries, ${#programs[@]} programs"
