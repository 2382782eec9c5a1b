#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tokenscope::json {

// Malformed JSON, in the one wording every reader uses: the byte offset in the
// document (as decompressed) and what was expected there. what() is
// "at byte 23: expected ':', found '\"'"; readers put the file (or URL) before it.
class SyntaxError : public std::runtime_error {
  public:
    SyntaxError(std::uint64_t offset, std::string problem, bool at_end)
        : std::runtime_error("at byte " + std::to_string(offset) + ": " + problem),
          offset_(offset),
          problem_(std::move(problem)),
          at_end_(at_end) {}
    std::uint64_t offset() const { return offset_; }
    const std::string& problem() const { return problem_; }  // "expected ':', found '\"'"
    bool at_end() const { return at_end_; }                  // the data ended inside a value

  private:
    std::uint64_t offset_;
    std::string problem_;
    bool at_end_;
};

// JSON's white space (RFC 8259): what may stand between tokens.
inline bool is_space(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// The first syntax error in `text`, a whole JSON document (one value, white space
// around it), with its offset from text's start plus `base`; nullopt when the text
// is valid JSON. Only called once simdjson has refused a document: simdjson says
// that it is malformed, this says where and how, the same for every reader. Strings
// are not checked for UTF-8 (readers decide about that), nesting has no limit and
// the scan is iterative, so hostile input costs linear time and no stack.
std::optional<SyntaxError> diagnose(std::string_view text, std::uint64_t base = 0);

// Whether `text` is exactly one JSON number (RFC 8259's grammar).
bool is_number_text(std::string_view text);

}  // namespace tokenscope::json
