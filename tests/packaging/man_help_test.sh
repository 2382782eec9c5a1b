#!/usr/bin/env bash
# The man pages list the same commands and options as --help, both programs
# answer --help and --version without a display, and groff reads the pages
# without a warning.
# Usage: man_help_test.sh TOKENSCOPE_CLI TOKENSCOPE CLI_MAN_PAGE GUI_MAN_PAGE
set -uo pipefail
cli=$1 gui=$2 cli_man=$3 gui_man=$4
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
no_display=(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM)

# Option names of a man page's tag lines (the line after .TP), in section SH
# and, when given, subsection SS (the first word of its title).
man_options() {  # FILE SH [SS]
    awk -v sh="$2" -v ss="${3:-}" '
        /^\.SH / { cur_sh = substr($0, 5); cur_ss = ""; tp = 0; next }
        /^\.SS / { t = substr($0, 5); gsub(/"/, "", t); split(t, w, " "); cur_ss = w[1]; tp = 0; next }
        tp && cur_sh == sh && cur_ss == ss { print }
        { tp = ($0 == ".TP") }' "$1" |
        sed 's/\\-/-/g' | grep -oE '\\fB-{1,2}[a-z0-9-]+' | sed 's/^\\fB//' | sort
}
help_options() {  # the "  --name" and "  -x, --name" rows of a help text on stdin
    grep -oE '^  -{1,2}[a-z0-9-]+(, -{1,2}[a-z0-9-]+)?' | tr ',' '\n' | tr -d ' ' | sort
}
same() {  # WHAT EXPECTED ACTUAL
    if [[ "$2" != "$3" ]]; then
        fail "$1 differ: --help has [$(echo $2)], the man page has [$(echo $3)]"
    fi
}

for program in "$cli" "$gui"; do
    name=$(basename "$program")
    version=$("${no_display[@]}" "$program" --version) || fail "$name --version failed"
    [[ $version =~ ^$name\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "$name --version printed '$version'"
    "${no_display[@]}" "$program" --help >/dev/null || fail "$name --help failed without a display"
done
for page in "$cli_man" "$gui_man"; do
    warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
    [[ -z $warnings ]] || fail "groff warns on $page: $warnings"
done

cli_help=$("$cli" --help)
commands=$(sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p' <<<"$cli_help" | sort)
[[ -n $commands ]] || fail "tokenscope-cli --help lists no commands"
man_commands=$(sed -n 's/^\.SS "\?\([a-z][a-z0-9-]*\).*/\1/p' "$cli_man" | sort)
same "tokenscope-cli commands" "$commands" "$man_commands"
same "tokenscope-cli options" "$(help_options <<<"$cli_help")" "$(man_options "$cli_man" OPTIONS)"
for command in $commands; do
    if ! text=$("$cli" "$command" --help); then
        fail "tokenscope-cli $command --help failed"
        continue
    fi
    same "tokenscope-cli $command options" "$(help_options <<<"$text")" \
        "$(man_options "$cli_man" COMMANDS "$command")"
done

gui_help=$("${no_display[@]}" "$gui" --help)
same "tokenscope options" "$(sed -n '/^options:/,/^$/p' <<<"$gui_help" | help_options)" \
    "$(man_options "$gui_man" OPTIONS)"

if ((failures)); then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "man pages and --help agree: $(wc -w <<<"$commands") commands"
