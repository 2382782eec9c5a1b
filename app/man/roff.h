#pragma once

// Roff for the man pages both programs print from their own option tables
// (tokenscope --help-man, tokenscope-cli --help-man), so the pages and --help
// never drift apart. Header-only: the CLI and the GUI share it without a library.
#include <string>
#include <string_view>

namespace tokenscope::man {

// Text for a roff line: backslashes doubled as \e, and a leading dot or quote,
// which roff would read as a request, guarded by \&.
inline std::string roff_text(std::string_view text) {
    std::string out;
    if (!text.empty() && (text.front() == '.' || text.front() == '\'')) out += "\\&";
    for (char c : text) {
        if (c == '\\')
            out += "\\e";
        else
            out += c;
    }
    return out;
}

// A macro argument in double quotes (.TH, .SS): quotes inside become \(dq.
inline std::string roff_quoted(std::string_view text) {
    std::string out = "\"";
    for (char c : roff_text(text)) {
        if (c == '"')
            out += "\\(dq";
        else
            out += c;
    }
    return out + '"';
}

// A name as typed (an option, a program): hyphens as \- so they stay ASCII
// minus signs when copied from the rendered page.
inline std::string roff_literal(std::string_view name) {
    std::string out;
    for (char c : roff_text(name)) {
        if (c == '-')
            out += "\\-";
        else
            out += c;
    }
    return out;
}

// The tag line of an option's .TP paragraph: "\fB\-\-name\fR \fIVALUE\fR".
// tests/packaging/man_help_test.sh reads option names back from exactly this form.
inline std::string roff_option_tag(std::string_view dashed_name, std::string_view value_name) {
    std::string out = "\\fB" + roff_literal(dashed_name) + "\\fR";
    if (!value_name.empty()) out += " \\fI" + roff_text(value_name) + "\\fR";
    return out;
}

}  // namespace tokenscope::man
