#!/usr/bin/env bash
# The docs' file lists lint's own test (issue 27): on a copy of docs/ beside the source
# tree, .ci/check-doc-files passes as the tree is, and fails naming the doc and line once
# a file a doc lists or names (or docs/architecture.md's map) is gone, or a doc has no
# "## Files" section.
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/docs" "$work/docs"
for entry in "$src"/* "$src"/.ci; do
    [ "$(basename "$entry")" = docs ] || ln -s "$entry" "$work/$(basename "$entry")"
done
"$src/.ci/check-doc-files" "$work" >/dev/null || { echo "FAIL: the tree's docs do not pass"; exit 1; }

expect_failure() {  # expect_failure WHAT PATTERN: the lint must fail and print PATTERN
    if "$src/.ci/check-doc-files" "$work" 2>"$work/out.txt" >/dev/null; then
        echo "FAIL: $1 passed the lint"; exit 1
    fi
    grep -q "$2" "$work/out.txt" || { echo "FAIL: $1 not named:"; cat "$work/out.txt"; exit 1; }
}
cp "$work/docs/heatmap.md" "$work/heatmap.md.orig"
echo '- `ui/heatmap/gone_tab.cpp`: a file since removed' >>"$work/docs/heatmap.md"
expect_failure "a listed file that is gone" '^docs/heatmap.md:[0-9]*: names `ui/heatmap/gone_tab.cpp`'
cp "$work/heatmap.md.orig" "$work/docs/heatmap.md"
echo '- `profiler/analysis/gone_heatmap.*`: a glob matching nothing' >>"$work/docs/heatmap.md"
expect_failure "a glob matching nothing" 'names `profiler/analysis/gone_heatmap.\*`'
cp "$work/heatmap.md.orig" "$work/docs/heatmap.md"
# A path in a doc's text, outside its list, is held to the tree too.
sed -i '3s/$/ (`ui\/window\/gone_view.cpp`)/' "$work/docs/heatmap.md"
expect_failure "a gone file named in the text" '^docs/heatmap.md:3: names `ui/window/gone_view.cpp`'
cp "$work/heatmap.md.orig" "$work/docs/heatmap.md"
# The map of docs/architecture.md, whose paths are relative to their column's layer.
cp "$work/docs/architecture.md" "$work/architecture.md.orig"
sed -i 's#`import/open_any\.\*`#`import/gone_test.*`#' "$work/docs/architecture.md"
expect_failure "a gone file in the map" '^docs/architecture.md:[0-9]*: its map names `import/gone_test.\*` (profiler/'
cp "$work/architecture.md.orig" "$work/docs/architecture.md"
printf '# A new feature\n\nNo list of files.\n' >"$work/docs/new-feature.md"
expect_failure "a doc without its files" '^docs/new-feature.md: no "## Files" section'
rm "$work/docs/new-feature.md"
"$src/.ci/check-doc-files" "$work" >/dev/null || { echo "FAIL: the restored docs do not pass"; exit 1; }
echo "check-doc-files: gone files, listed or named, and a doc without its list refused"
