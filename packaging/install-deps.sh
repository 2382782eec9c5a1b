#!/usr/bin/env bash
# Installs everything Tokenscope needs to build and test on Debian 12, from
# Debian's own packages only. Safe to run again. CUDA (for the cuda and inject
# backends) is optional and not installed here.
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config git
    # The presets link with lld (CMakePresets.json).
    lld
    # .ci/lint: the formatting check, the clang-tidy checks and clazy's Qt checks of ui/.
    clang-format clang-tidy clazy
    libsqlite3-dev sqlite3 zlib1g-dev nlohmann-json3-dev libgsl-dev
    # Whole-buffer gzip inflate for traces that fit memory (import/file_source.cpp);
    # the JSON reader of profiler/json (simdjson On-Demand).
    libdeflate-dev libsimdjson-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    qt6-base-dev qt6-svg-dev libqt6sql6-sqlite libqt6svg6 libqcustomplot-dev
    libgl-dev xvfb xauth
    # The fuzz preset (tests/fuzz/run.sh): clang with libFuzzer and the sanitizer runtimes.
    clang-14 libfuzzer-14-dev libclang-rt-14-dev
    libcurl4-openssl-dev prometheus openssl
    # The GUI's Fleet view keeps Prometheus secrets in the desktop keyring.
    qtkeychain-qt6-dev
    # The .deb and its test (packaging/test-package.sh): CPack's dpkg-shlibdeps and
    # file, lintian, the validators, and the MIME/desktop tools a desktop brings.
    dpkg-dev file lintian appstream desktop-file-utils shared-mime-info xdg-utils
    libfile-mimeinfo-perl bash-completion man-db
)

as_root=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then as_root=(sudo); else
        echo "install-deps.sh: run as root or install sudo" >&2
        exit 1
    fi
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps.sh: all ${#packages[@]} packages already installed"
    exit 0
fi
echo "install-deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
