#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tokenscope::fleet {

// Malformed JSON, worded with the byte offset ("at byte 1234: expected ':'").
class JsonSyntaxError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A pull scanner over one JSON text, for the query_range response whose size is
// unbounded (a fleet's 24 h answer runs to tens of MB). nlohmann_json's DOM parsed
// such a response at about 37 MB/s and its SAX interface at about 73 MB/s on the
// workstation; this cursor reads values in place (string_view into the text when
// there are no escapes) and reaches several times that. Every read is bounds-checked
// and nesting is limited, so hostile input throws JsonSyntaxError, never overruns.
class JsonCursor {
  public:
    explicit JsonCursor(std::string_view text) : text_(text) {}

    // The next significant character without consuming it; '\0' at the end.
    char peek();
    void expect(char c);
    bool consume(char c);  // skips white space; true and consumed when next is c

    // Object and array iteration: call begin_*(), then next_*() before each member
    // or element; next_* returns false at the closing bracket (consumed).
    void begin_object() { expect('{'), first_ = true; }
    bool next_key(std::string& key);  // reads "key" and the ':'
    void begin_array() { expect('['), first_ = true; }
    bool next_element();

    // A string value; `scratch` holds it when it had escapes, else the view is into
    // the text.
    std::string_view read_string(std::string& scratch);
    double read_number();
    // A Prometheus sample value: a JSON string holding a float, "NaN", "+Inf" or "-Inf"
    // (or, leniently, a bare number).
    double read_sample_value();
    void skip_value();

    std::size_t offset() const { return pos_; }
    bool at_end();

  private:
    [[noreturn]] void fail(const std::string& what) const;
    void skip_ws();
    void read_escape(std::string& out);
    void skip_value_at(int depth);

    std::string_view text_;
    std::size_t pos_ = 0;
    bool first_ = true;
};

}  // namespace tokenscope::fleet
