#include "kernel_name.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <vector>

namespace tokenscope::analysis {
namespace {

bool ident_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

char closer_of(char open) {
    switch (open) {
        case '<':
            return '>';
        case '(':
            return ')';
        case '[':
            return ']';
        default:
            return '}';
    }
}

// The name with everything inside brackets removed, and the first top-level
// template argument list (without its brackets); `signature` says whether a
// template or parameter list followed a name at the top level.
struct TopLevel {
    std::string text;
    std::string first_template;
    bool signature = false;
};

TopLevel top_level(std::string_view s) {
    TopLevel out;
    std::vector<char> stack;
    bool capturing = false, captured = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const char prev = i > 0 ? s[i - 1] : ' ';
        const bool opens = c == '<' || c == '(' || c == '[' || c == '{';
        if (!stack.empty()) {
            // "->" inside a parameter list closes nothing.
            const bool closes = c == closer_of(stack.back()) && !(c == '>' && prev == '-');
            if (capturing && stack.size() == 1 && (closes || c == ',')) {
                capturing = false;
                captured = true;
            } else if (capturing) {
                out.first_template += c;
            }
            if (closes)
                stack.pop_back();
            else if (opens)
                stack.push_back(c);
            continue;
        }
        // A template or parameter list right after a name; "Memcpy (Device -> Device)"
        // has a space before its bracket and stays plain text.
        if ((c == '<' || c == '(') && (ident_char(prev) || prev == '>' || prev == ']')) {
            out.signature = true;
            capturing = c == '<' && !captured;
            stack.push_back(c);
            continue;
        }
        if (opens && c != '(' && c != '<') {
            stack.push_back(c);
            continue;
        }
        out.text += c;
    }
    return out;
}

std::string trim(std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    std::size_t b = 0;
    while (b < s.size() && s[b] == ' ') ++b;
    return s.substr(b);
}

// "void at::native::foo" -> "foo"; qualifiers after the name (" const") are dropped.
std::string bare_name(std::string text) {
    text = trim(std::move(text));
    for (std::string_view q : {" const", " volatile"})
        while (text.size() > q.size() && text.ends_with(q))
            text = trim(text.substr(0, text.size() - q.size()));
    if (auto sp = text.rfind(' '); sp != std::string::npos) text = text.substr(sp + 1);
    if (auto ns = text.rfind("::"); ns != std::string::npos) text = text.substr(ns + 2);
    return text;
}

constexpr std::array<std::string_view, 3> kWrappers = {"Kernel", "Kernel2", "device_kernel"};

std::string shorten(std::string_view full, int depth) {
    std::string s(full);
    // An anonymous namespace is a namespace like any other: it goes with the rest.
    for (std::size_t at; (at = s.find("(anonymous namespace)")) != std::string::npos;)
        s.replace(at, 21, "anonymous_namespace");
    TopLevel top = top_level(s);
    if (!top.signature) return std::string(full);
    std::string name = bare_name(top.text);
    if (name.empty()) return std::string(full);
    for (std::string_view w : kWrappers)
        if (name == w && depth == 0 && !top.first_template.empty()) {
            std::string inner = shorten(trim(top.first_template), depth + 1);
            if (!inner.empty()) return bare_name(inner);
        }
    return name;
}

}  // namespace

std::string short_kernel_name(std::string_view full) {
    return shorten(full, 0);
}

std::vector<std::string> distinct_short_kernel_names(const std::vector<std::string>& full) {
    std::vector<std::string> out;
    out.reserve(full.size());
    for (const auto& f : full) out.push_back(short_kernel_name(f));
    // The distinct full names behind each short one, in first-seen order.
    std::map<std::string, std::vector<std::string>> owners;
    for (std::size_t i = 0; i < full.size(); ++i) {
        auto& o = owners[out[i]];
        if (std::find(o.begin(), o.end(), full[i]) == o.end()) o.push_back(full[i]);
    }
    for (std::size_t i = 0; i < full.size(); ++i) {
        const auto& o = owners[out[i]];
        if (o.size() < 2) continue;
        const auto k = std::find(o.begin(), o.end(), full[i]) - o.begin() + 1;
        out[i] += " #" + std::to_string(k);
    }
    return out;
}

}  // namespace tokenscope::analysis
