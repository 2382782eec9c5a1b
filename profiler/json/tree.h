#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reader.h"

namespace tokenscope::json {

// One value of a Tree, 16 bytes. A container's children are one block of nodes
// (an object's as key, value, key, value...), so an element is found by its index.
struct Node {
    enum class Kind : std::uint8_t { Null, False, True, Int, Uint, Double, String, Array, Object };
    Kind kind = Kind::Null;
    std::uint32_t size = 0;  // a string's bytes, an array's elements, an object's members
    // Int: the int64; Uint: the uint64 (>= 2^63); Double: its bits; String: its first
    // byte's address; Array, Object: the index of the first child node.
    std::uint64_t bits = 0;
};

// A value of a Tree, or none (a member that is missing): operator bool says which.
// A view: it lives as long as the Tree's document does.
class Value {
  public:
    Value() = default;
    Value(const Node* nodes, const Node* node) : nodes_(nodes), node_(node) {}

    explicit operator bool() const { return node_ != nullptr; }
    Node::Kind kind() const { return node_ ? node_->kind : Node::Kind::Null; }
    bool is_null() const { return node_ && node_->kind == Node::Kind::Null; }
    bool is_bool() const {
        return node_ && (kind() == Node::Kind::True || kind() == Node::Kind::False);
    }
    bool is_number() const {
        return node_ && (kind() == Node::Kind::Int || kind() == Node::Kind::Uint ||
                         kind() == Node::Kind::Double);
    }
    bool is_string() const { return node_ && node_->kind == Node::Kind::String; }
    bool is_array() const { return node_ && node_->kind == Node::Kind::Array; }
    bool is_object() const { return node_ && node_->kind == Node::Kind::Object; }

    bool boolean() const { return kind() == Node::Kind::True; }
    // The number as a double (an integer converted); 0 for what is not a number.
    double number() const;
    std::int64_t int64() const;    // Kind::Int
    std::uint64_t uint64() const;  // Kind::Uint
    // The string (unescaped); empty for what is not a string.
    std::string_view string() const;

    // An array's elements or an object's members; 0 for a scalar.
    std::size_t size() const { return is_array() || is_object() ? node_->size : 0; }
    // The i-th element of an array; none past its end or for what is not an array.
    Value operator[](std::size_t i) const {
        return is_array() && i < node_->size ? Value(nodes_, child(i)) : Value();
    }
    // An object's member `key` (the last one where a key repeats, as Python keeps it);
    // none when missing or for what is not an object.
    Value find(std::string_view key) const;

    // The i-th member of an object (i < size()): its key and value.
    std::string_view key_at(std::size_t i) const { return Value(nodes_, child(2 * i)).string(); }
    Value value_at(std::size_t i) const { return Value(nodes_, child(2 * i + 1)); }

    const Node* node() const { return node_; }

  private:
    const Node* child(std::size_t i) const { return nodes_ + node_->bits + i; }

    const Node* nodes_ = nullptr;
    const Node* node_ = nullptr;
};

// A document read whole into a compact tree, for readers that look values up by
// key and index in any order (the results of load generators and serving
// benchmarks): simdjson On-Demand walks the document once, strings and numbers
// are taken from the text as they are (escaped strings unescaped by the Reader).
// Errors are the Reader's: SyntaxError with the byte offset and what was expected.
// Not movable: values point into the text, the Reader's strings and the nodes.
class Tree {
  public:
    struct Options {
        // Python's json.dump writes NaN, Infinity and -Infinity (a mean over no
        // request): read as null outside strings.
        bool python_non_finite = false;
    };
    // Nesting deeper than this is refused (the tree is built by recursion).
    static constexpr int kMaxDepth = 1024;

    Tree() = default;
    Tree(const Tree&) = delete;
    Tree& operator=(const Tree&) = delete;

    // Reads `text` (taken; its offset in the file `base`, for errors) as one document.
    Value parse(std::string text, Options options, std::uint64_t base = 0);
    // The same over a copy of `text` (a line of a larger buffer); the copy's storage
    // is reused by the next parse_copy.
    Value parse_copy(std::string_view text, Options options, std::uint64_t base = 0);

    Value root() const;
    // The text last given to parse() (NaN as written), for a reader that tries
    // another reading when the whole is not one document.
    std::string& text() { return text_; }

  private:
    Value build(od::document& doc, Options options);
    template <typename V>
    void scalar(V& v, od::json_type type);
    void value(od::value& v, int depth);
    void container(od::value& v, bool object, int depth);
    bool non_finite(std::string_view token);

    Reader reader_;
    std::string text_;
    Options options_;
    std::vector<Node> nodes_;
    std::vector<Node> pending_;  // the children of the containers being read
    bool has_root_ = false;
};

}  // namespace tokenscope::json
