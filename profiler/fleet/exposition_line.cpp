#include "exposition_line.h"

#include <stdexcept>

#include "sample_value.h"

namespace tokenscope::fleet {
namespace {

// {a="x",b="y\"z"}: the label set, with the text after the closing brace left in `s`.
Labels parse_label_set(std::string_view& s, std::size_t line) {
    Labels labels;
    s.remove_prefix(1);
    while (true) {
        while (!s.empty() && (s.front() == ' ' || s.front() == ',')) s.remove_prefix(1);
        if (s.empty()) throw_line_error(line, "unterminated label set");
        if (s.front() == '}') {
            s.remove_prefix(1);
            return labels;
        }
        const std::size_t eq = s.find('=');
        if (eq == std::string_view::npos || eq + 1 >= s.size() || s[eq + 1] != '"')
            throw_line_error(line, "expected name=\"value\" in the label set");
        std::string name(s.substr(0, eq));
        while (!name.empty() && name.back() == ' ') name.pop_back();
        s.remove_prefix(eq + 2);
        std::string value;
        while (!s.empty() && s.front() != '"') {
            if (s.front() == '\\' && s.size() > 1) {
                s.remove_prefix(1);
                value += s.front() == 'n' ? '\n' : s.front();
            } else {
                value += s.front();
            }
            s.remove_prefix(1);
        }
        if (s.empty()) throw_line_error(line, "unterminated label value");
        s.remove_prefix(1);
        labels.emplace_back(std::move(name), std::move(value));
    }
}

std::string_view next_field(std::string_view& s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    const std::size_t end = std::min(s.find_first_of(" \t"), s.size());
    std::string_view field = s.substr(0, end);
    s.remove_prefix(end);
    return field;
}

}  // namespace

void throw_line_error(std::size_t line, const std::string& problem) {
    throw std::invalid_argument("line " + std::to_string(line) + ": " + problem);
}

double parse_exposition_number(std::string_view text, std::size_t line) {
    if (auto v = parse_sample_value(text)) return *v;
    throw_line_error(line, "'" + std::string(text.substr(0, 40)) + "' is not a number");
}

std::optional<SampleLine> parse_sample_line(std::string_view line, std::size_t line_no) {
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.empty() || line.front() == '#') return std::nullopt;
    SampleLine out;
    const std::size_t name_end = std::min(line.find_first_of("{ \t"), line.size());
    out.name = line.substr(0, name_end);
    line.remove_prefix(name_end);
    if (!line.empty() && line.front() == '{') out.labels = parse_label_set(line, line_no);
    const std::string_view value = next_field(line);
    if (value.empty()) throw_line_error(line_no, std::string(out.name) + " without a value");
    out.value = parse_exposition_number(value, line_no);
    const std::string_view ts = next_field(line);
    if (!ts.empty() && ts != "#") out.timestamp = parse_exposition_number(ts, line_no);
    return out;
}

}  // namespace tokenscope::fleet
