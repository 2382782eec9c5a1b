#include "syntax_error.h"

#include <vector>

namespace tokenscope::json {
namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_hex(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Where a number that starts at text[p] ends; npos when it is malformed, with
// `at_end` set when the text ended inside it.
std::size_t number_end(std::string_view t, std::size_t p, bool& at_end) {
    const std::size_t n = t.size();
    auto digits = [&](std::size_t& q) {
        const std::size_t from = q;
        while (q < n && is_digit(t[q])) ++q;
        if (q == n && q == from) at_end = true;
        return q > from;
    };
    if (p < n && t[p] == '-') ++p;
    if (p < n && t[p] == '0') {
        ++p;
    } else if (!digits(p)) {
        return std::string_view::npos;
    }
    if (p < n && t[p] == '.') {
        ++p;
        if (!digits(p)) return std::string_view::npos;
    }
    if (p < n && (t[p] == 'e' || t[p] == 'E')) {
        ++p;
        if (p < n && (t[p] == '+' || t[p] == '-')) ++p;
        if (!digits(p)) return std::string_view::npos;
    }
    return p;
}

class Validator {
  public:
    Validator(std::string_view text, std::uint64_t base) : t_(text), base_(base) {}

    std::optional<SyntaxError> run() {
        enum class State { Value, Key, After } state = State::Value;
        while (true) {
            skip_space();
            if (state == State::After && stack_.empty()) {
                if (p_ < t_.size()) return error("unexpected data after the document");
                return std::nullopt;
            }
            if (p_ == t_.size()) return end_of_data();
            const char c = t_[p_];
            if (state == State::Key) {
                if (c != '"') return error("expected a member name");
                if (!string()) return error_;
                skip_space();
                if (p_ == t_.size()) return end_of_data();
                if (t_[p_] != ':')
                    return error(std::string("expected ':', found '") + t_[p_] + "'");
                ++p_;
                state = State::Value;
            } else if (state == State::Value) {
                state = State::After;
                if (c == '{' || c == '[') {
                    stack_.push_back(c);
                    ++p_;
                    skip_space();
                    if (p_ == t_.size()) return end_of_data();
                    if (t_[p_] == (c == '{' ? '}' : ']')) {
                        ++p_;
                        stack_.pop_back();
                    } else {
                        state = c == '{' ? State::Key : State::Value;
                    }
                } else if (c == '"') {
                    if (!string()) return error_;
                } else if (c == 't' || c == 'f' || c == 'n') {
                    if (!literal(c == 't' ? "true" : c == 'f' ? "false" : "null")) return error_;
                } else if (c == '-' || is_digit(c)) {
                    bool at_end = false;
                    const std::size_t end = number_end(t_, p_, at_end);
                    if (at_end) return end_of_data();
                    if (end == std::string_view::npos) return error("malformed number");
                    p_ = end;
                } else {
                    return error(std::string("unexpected character '") + c + "'");
                }
            } else {
                const char close = stack_.back() == '{' ? '}' : ']';
                if (c == ',') {
                    ++p_;
                    state = close == '}' ? State::Key : State::Value;
                } else if (c == close) {
                    ++p_;
                    stack_.pop_back();
                } else {
                    return error(std::string("expected ',' or '") + close + "', found '" + c + "'");
                }
            }
        }
    }

  private:
    void skip_space() {
        while (p_ < t_.size() && is_space(t_[p_])) ++p_;
    }
    std::optional<SyntaxError> error(std::string problem) {
        error_ = SyntaxError(base_ + p_, std::move(problem), false);
        return error_;
    }
    std::optional<SyntaxError> end_of_data() {
        error_ = SyntaxError(base_ + t_.size(), "unexpected end of data", true);
        return error_;
    }
    bool string() {
        ++p_;  // the opening quote
        while (true) {
            if (p_ == t_.size()) return end_of_data(), false;
            const char c = t_[p_];
            if (c == '"') {
                ++p_;
                return true;
            }
            if (static_cast<unsigned char>(c) < 0x20)
                return error("control character inside a string"), false;
            ++p_;
            if (c != '\\') continue;
            if (p_ == t_.size()) return end_of_data(), false;
            const char e = t_[p_];
            if (e == 'u') {
                for (int i = 1; i <= 4; ++i) {
                    if (p_ + i >= t_.size()) return end_of_data(), false;
                    if (!is_hex(t_[p_ + i])) return error("bad \\u escape"), false;
                }
                p_ += 5;
            } else if (std::string_view("\"\\/bfnrt").find(e) != std::string_view::npos) {
                ++p_;
            } else {
                return error(std::string("bad escape '\\") + e + "'"), false;
            }
        }
    }
    bool literal(std::string_view word) {
        const std::string_view rest = t_.substr(p_, word.size());
        if (rest == word) {
            p_ += word.size();
            return true;
        }
        if (rest.size() < word.size() && word.starts_with(rest)) return end_of_data(), false;
        return error("expected '" + std::string(word) + "'"), false;
    }

    std::string_view t_;
    std::uint64_t base_;
    std::size_t p_ = 0;
    std::vector<char> stack_;
    std::optional<SyntaxError> error_;
};

}  // namespace

std::optional<SyntaxError> diagnose(std::string_view text, std::uint64_t base) {
    return Validator(text, base).run();
}

bool is_number_text(std::string_view text) {
    bool at_end = false;
    return !text.empty() && number_end(text, 0, at_end) == text.size();
}

}  // namespace tokenscope::json
