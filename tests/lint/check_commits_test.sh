#!/usr/bin/env bash
# The commit lint's own test (issue 27): in a scratch repository, .ci/check-commits passes
# commits in CONTRIBUTING.md's style and refuses, naming the fault, a subject over 72
# characters, one ending in a period, one in the past tense and a body without the blank
# line; only the commits of the range are looked at.
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
git init -q .
git config user.name test && git config user.email test@example.invalid
commit() { git commit -q --allow-empty -m "$1"; }
commit "An old subject of the kind history holds, longer than seventy-two characters."
base=$(git rev-parse HEAD)
commit "Add the first thing"
commit "$(printf 'docs: say why in the body\n\nBecause 3 of 5 readers asked.')"
"$src/.ci/check-commits" "$base..HEAD" >/dev/null || { echo "FAIL: good commits refused"; exit 1; }

refused() {  # refused MESSAGE PATTERN: the newest commit, made with MESSAGE, must fail
    git commit -q --allow-empty -m "$1"
    if "$src/.ci/check-commits" HEAD~1..HEAD 2>"$work/out.txt" >/dev/null; then
        echo "FAIL: \"$1\" passed the lint"; exit 1
    fi
    grep -q "$2" "$work/out.txt" || { echo "FAIL: \"$1\": fault not named:"; cat "$work/out.txt"; exit 1; }
}
refused "$(printf 'x%.0s' {1..73})" 'subject of 73 characters'
refused "Add a thing." 'ends with a period'
refused "Added a thing" 'not in the imperative'
refused "ui: fixes a thing" 'not in the imperative'
refused "$(printf 'Add a thing\nwith its body on the second line')" 'no blank line'
echo "check-commits: good commits passed, long, dotted, past-tense and bodies without a blank line refused"
