#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tokenscope::json {

// Cuts one JSON object, fed in chunks, into parts the Reader can parse alone, so a
// document larger than memory allows is read with bounded memory: each member as
// `{"key": value}`, and the elements of the array member named `array_key` in
// slices of whole elements `[e1,e2,...]` of about `slice_bytes`. The cuts come from
// a structural scan (strings, escapes and nesting depth; no value is read) that
// keeps its state across chunks, so each byte is scanned once. What the scan meets
// where a member, a separator or an element must be (a missing ':', a stray byte
// after a value) throws SyntaxError in the wording of diagnose(); what is wrong
// inside a value is found when its part is parsed. Part texts are padded for the
// Reader; `base` is the offset in the document of the part's first byte (the
// opening bracket added to it sits one before the data it wraps).
class ObjectSlicer {
  public:
    enum class Kind {
        NeedData,  // feed() the next chunk, or finish() at the end of the data
        Member,    // text is `{"key": value}`
        Elements,  // text is `[e1,...]`, part of the array member
        ArrayEnd,  // the array member ended (after its last Elements)
        Broken,    // the data ended inside the document: text is what is left, to diagnose
        End,       // the object ended; nothing but white space followed
    };
    struct Part {
        Kind kind = Kind::NeedData;
        std::string* text = nullptr;  // valid until the next call of next()
        std::uint64_t base = 0;
    };

    ObjectSlicer(std::string array_key, std::size_t slice_bytes);

    // The document's data must start with '{' (after white space): callers check it.
    void feed(std::string_view chunk);
    void finish() { finished_ = true; }
    Part next();

    // Bytes held: the unparsed data and the last part's text.
    std::size_t buffered() const { return buf_.size() + part_.size(); }

  private:
    enum class State {
        Start,         // before '{'
        Key,           // at a member's key (or the object's '}' when first_)
        Colon,         // after the key
        Value,         // at the start of a member's value
        MemberValue,   // inside a member's value
        AfterMember,   // after a member's value: ',' or '}'
        Elements,      // at an element of the array (or its ']' when first_)
        ElementValue,  // inside an element
        AfterElement,  // after an element: ',' or ']'
        ArrayClosing,  // the array's ']' was read, its end not yet reported
        AfterArray,    // after the array member: ',' or '}'
        Trailing,      // after the object
    };
    // Scans a value from p_: false when the data ends first (the state is kept).
    bool scan_value();
    bool skip_space();  // false at the end of the data
    std::uint64_t at(std::size_t i) const { return base_ + i; }
    [[noreturn]] void error(std::size_t i, const std::string& problem) const;
    Part emit(Kind kind, char open, std::size_t from, std::size_t to, char close);
    void drop_consumed();

    std::string key_;
    std::size_t slice_bytes_;
    std::string buf_;         // data from the current part's start
    std::uint64_t base_ = 0;  // document offset of buf_[0]
    std::size_t p_ = 0;       // scan position in buf_
    std::size_t start_ = 0;   // start of the current member or slice in buf_
    State state_ = State::Start;
    bool first_ = true;  // no member/element yet in the current object/array
    bool finished_ = false;
    bool is_array_key_ = false;
    // The value scan: nesting depth and string state, kept across chunks.
    int depth_ = 0;
    bool in_string_ = false;
    bool escaped_ = false;
    bool scalar_ = false;
    std::string part_;
};

}  // namespace tokenscope::json
