#!/usr/bin/env bash
# The package as a user gets it (issue 13): lintian, the desktop entry and the
# AppStream data of the built .deb; then apt installs it and only the installed
# programs are used: --version, a model run, a heatmap PNG, the MIME type of a
# run (by name and by content), the default application for it, man pages, bash
# completion and the GUI on the installed sample under Xvfb. Last, apt purges it
# and nothing it installed may be left.
# Usage: packaging/test-package.sh [BUILD_DIR]   (default build/release; run as root or with sudo)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/release}"
debs=("$build"/tokenscope_*.deb)
if [[ ${#debs[@]} -ne 1 || ! -f ${debs[0]} ]]; then
    echo "test-package.sh: expected one tokenscope_*.deb in $build, found: ${debs[*]}" >&2
    exit 1
fi
deb="$(cd "$(dirname "${debs[0]}")" && pwd)/$(basename "${debs[0]}")"
as_root=()
[[ $(id -u) -eq 0 ]] || as_root=(sudo)
app_id=org.tokenscope.Tokenscope
mime=application/x-tokenscope
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
step() { echo "== test-package: $*"; }
die() { echo "test-package.sh: $*" >&2; exit 1; }

step "lintian $(basename "$deb")"
lintian --fail-on error --tag-display-limit 0 "$deb"
step "desktop entry and AppStream data of the package"
dpkg-deb -x "$deb" "$work/contents"
desktop-file-validate "$work/contents/usr/share/applications/$app_id.desktop"
appstreamcli validate --no-net "$work/contents/usr/share/metainfo/$app_id.metainfo.xml"
dpkg-deb -f "$deb" Depends

step "apt-get install $deb"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb"
installed=$(dpkg-query -L tokenscope)

# From here on only what the package installed: a clean environment, no build tree.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
unset XDG_CURRENT_DESKTOP DESKTOP_SESSION XDG_DATA_DIRS XDG_CONFIG_DIRS QT_QPA_PLATFORM DISPLAY
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mkdir -p "$HOME" && cd "$work"
[[ $(command -v tokenscope-cli) == /usr/bin/tokenscope-cli ]] || die "tokenscope-cli is not /usr/bin's"

step "tokenscope-cli --version, a model run, a heatmap PNG"
tokenscope-cli --version | grep -qE '^tokenscope-cli [0-9]+\.[0-9]+\.[0-9]+$' || die "bad --version"
tokenscope --version | grep -qE '^tokenscope [0-9]+\.[0-9]+\.[0-9]+$' || die "bad GUI --version"
tokenscope-cli run --backend model --preset tiny --batch 2 --tokens 16 --out run.tokenscope >/dev/null
tokenscope-cli stats run.tokenscope >/dev/null
tokenscope-cli heatmap run.tokenscope --rows kernel --png heat.png --size 800x450 >/dev/null
[[ $(head -c 8 heat.png | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || die "heat.png is no PNG"

step "MIME type and default application"
cp run.tokenscope run-without-extension
for f in run.tokenscope run-without-extension; do
    type=$(xdg-mime query filetype "$f")
    [[ $type == "$mime" ]] || die "xdg-mime query filetype $f: '$type', not $mime"
    echo "xdg-mime query filetype $f: $type"
done
default=$(xdg-mime query default "$mime")
[[ $default == "$app_id.desktop" ]] || die "xdg-mime query default $mime: '$default'"
echo "xdg-mime query default $mime: $default"

step "man pages and bash completion"
for program in tokenscope-cli tokenscope; do
    page=/usr/share/man/man1/$program.1.gz
    grep -qx "$page" <<<"$installed" || die "the package has no $page"
    # A dpkg path-exclude for man pages (some container images) leaves them off the disk.
    [[ ! -f $page ]] || zcat "$page" | grep -q '^\.SH OPTIONS' || die "$page has no OPTIONS"
done
completion=/usr/share/bash-completion/completions/tokenscope-cli
if [[ -f /usr/share/bash-completion/bash_completion ]]; then
    complete_words() {  # WORD... : what TAB offers for the last one
        bash -c 'source /usr/share/bash-completion/bash_completion; source "$0"
                 COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
                 _tokenscope_cli; echo "${COMPREPLY[*]}"' "$completion" "$@"
    }
    [[ $(complete_words tokenscope-cli sta) == stats ]] || die "completion of 'sta'"
    [[ $(complete_words tokenscope-cli stats --warmup-r) == --warmup-requests ]] ||
        die "completion of 'stats --warmup-r'"
fi

step "the GUI on the installed sample under Xvfb"
sample=/usr/share/tokenscope/sample.tokenscope
xvfb-run -a timeout 180 tokenscope --screenshots shots "$sample" || die "tokenscope --screenshots failed"
for tab in timeline heatmap breakdown; do [[ -s shots/$tab.png ]] || die "no $tab.png"; done
status=0
xvfb-run -a timeout 10 tokenscope || status=$?
[[ $status -eq 124 ]] || die "tokenscope on the sample exited with $status before 10 s"

step "apt-get purge tokenscope"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq tokenscope
! dpkg-query -W tokenscope 2>/dev/null | grep -q . || die "tokenscope still known to dpkg"
left=()
while read -r path; do
    if [[ -d $path ]]; then
        case $path in */tokenscope) left+=("$path") ;; esac  # its own folders must go
    elif [[ -e $path || -L $path ]]; then
        left+=("$path")
    fi
done <<<"$installed"
((${#left[@]} == 0)) || die "left behind: ${left[*]}"
type=$(xdg-mime query filetype run-without-extension)
[[ $type != "$mime" ]] || die "the MIME database still knows $mime"
! grep -rqs "$app_id" /usr/share/applications/mimeinfo.cache || die "mimeinfo.cache still names $app_id"
step "ok"
