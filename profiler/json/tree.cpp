#include "tree.h"

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace tokenscope::json {
namespace {

using Kind = Node::Kind;

Node string_node(std::string_view s) {
    return Node{Kind::String, static_cast<std::uint32_t>(s.size()),
                static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(s.data()))};
}

std::string_view raw_token(od::value& v) {
    return v.raw_json_token();
}
std::string_view raw_token(od::document& d) {
    std::string_view token;
    return d.raw_json_token().get(token) == simdjson::SUCCESS ? token : std::string_view();
}

// A document's root string: simdjson's copy (its buffer lives until the next parse);
// a value's: the Reader's, a view of the text where it holds no escape.
std::string_view string_of(Reader& reader, od::value& v) {
    return reader.string(v);
}
std::string_view string_of(Reader& reader, od::document& d) {
    return reader.get(d.get_string());
}

// An integer past 64 bits, which simdjson refuses, as the nearest double (as Python
// and nlohmann read it); nullopt for anything else, or past a double's range.
std::optional<double> big_integer(std::string_view token) {
    while (!token.empty() && is_space(token.back())) token.remove_suffix(1);
    const std::size_t digits = token.starts_with('-') ? 1 : 0;
    if (token.size() <= digits + 18 || !is_number_text(token) ||
        token.find_first_not_of("0123456789", digits) != std::string_view::npos)
        return std::nullopt;
    const double d = std::strtod(std::string(token).c_str(), nullptr);
    return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
}

}  // namespace

double Value::number() const {
    switch (kind()) {
        case Kind::Int:
            return static_cast<double>(int64());
        case Kind::Uint:
            return static_cast<double>(uint64());
        case Kind::Double:
            return std::bit_cast<double>(node_->bits);
        default:
            return 0;
    }
}

std::int64_t Value::int64() const {
    return kind() == Kind::Int ? std::bit_cast<std::int64_t>(node_->bits) : 0;
}

std::uint64_t Value::uint64() const {
    return kind() == Kind::Uint ? node_->bits : 0;
}

std::string_view Value::string() const {
    if (!is_string()) return {};
    return {reinterpret_cast<const char*>(static_cast<std::uintptr_t>(node_->bits)), node_->size};
}

Value Value::find(std::string_view key) const {
    if (!is_object()) return {};
    for (std::size_t i = node_->size; i-- > 0;) {
        const Node* k = child(2 * i);
        if (k->size == key.size() &&
            std::memcmp(reinterpret_cast<const char*>(static_cast<std::uintptr_t>(k->bits)),
                        key.data(), key.size()) == 0)
            return Value(nodes_, k + 1);
    }
    return {};
}

Value Tree::parse(std::string text, Options options, std::uint64_t base) {
    text_ = std::move(text);
    has_root_ = false;
    return build(reader_.open(text_, base), options);
}

Value Tree::parse_copy(std::string_view text, Options options, std::uint64_t base) {
    has_root_ = false;
    return build(reader_.open_copy(text, base), options);
}

Value Tree::root() const {
    return has_root_ ? Value(nodes_.data(), &nodes_.back()) : Value();
}

Value Tree::build(od::document& doc, Options options) {
    options_ = options;
    nodes_.clear();
    pending_.clear();
    od::json_type type{};
    if (const auto error = doc.type().get(type)) {
        if (!non_finite(raw_token(doc))) reader_.fail(error);
        pending_.push_back(Node{});
    } else if (type == od::json_type::object || type == od::json_type::array) {
        od::value v = reader_.get(doc.get_value());
        container(v, type == od::json_type::object, 1);
    } else {
        scalar(doc, type);
    }
    reader_.expect_end();
    nodes_.push_back(pending_.back());
    has_root_ = true;
    return root();
}

bool Tree::non_finite(std::string_view token) {
    if (!options_.python_non_finite) return false;
    while (!token.empty() && is_space(token.back())) token.remove_suffix(1);
    return token == "NaN" || token == "Infinity" || token == "-Infinity";
}

template <typename V>
void Tree::scalar(V& v, od::json_type type) {
    Node n;
    switch (type) {
        case od::json_type::null:
            if (!reader_.get(v.is_null())) reader_.fail(simdjson::N_ATOM_ERROR);
            break;
        case od::json_type::boolean:
            n.kind = reader_.get(v.get_bool()) ? Kind::True : Kind::False;
            break;
        case od::json_type::string:
            n = string_node(string_of(reader_, v));
            break;
        default: {
            od::number number;
            if (const auto error = v.get_number().get(number)) {
                if (const auto big = big_integer(raw_token(v))) {
                    n = {Kind::Double, 0, std::bit_cast<std::uint64_t>(*big)};
                } else if (!non_finite(raw_token(v))) {
                    reader_.fail(error);
                }
                break;
            }
            switch (number.get_number_type()) {
                case od::number_type::signed_integer:
                    n = {Kind::Int, 0, std::bit_cast<std::uint64_t>(number.get_int64())};
                    break;
                case od::number_type::unsigned_integer:
                    n = {Kind::Uint, 0, number.get_uint64()};
                    break;
                default:
                    n = {Kind::Double, 0, std::bit_cast<std::uint64_t>(number.get_double())};
            }
        }
    }
    pending_.push_back(n);
}

void Tree::value(od::value& v, int depth) {
    od::json_type type{};
    if (const auto error = v.type().get(type)) {
        if (!non_finite(raw_token(v))) reader_.fail(error);
        pending_.push_back(Node{});
    } else if (type == od::json_type::object || type == od::json_type::array) {
        container(v, type == od::json_type::object, depth + 1);
    } else {
        scalar(v, type);
    }
}

// The children go to pending_ as they are read, then move to nodes_ as one block
// when the container closes: its node then knows where they start.
void Tree::container(od::value& v, bool object, int depth) {
    if (depth > kMaxDepth)
        throw SyntaxError(reader_.offset(), "nesting deeper than " + std::to_string(kMaxDepth),
                          false);
    const std::size_t mark = pending_.size();
    if (object) {
        od::object members = reader_.get(v.get_object());
        for (auto member : members) {
            od::field field = reader_.get(std::move(member));
            pending_.push_back(string_node(reader_.key(field)));
            value(field.value(), depth);
        }
    } else {
        od::array elements = reader_.get(v.get_array());
        for (auto element : elements) {
            od::value e = reader_.get(std::move(element));
            value(e, depth);
        }
    }
    const std::size_t count = pending_.size() - mark;
    const Node n{object ? Kind::Object : Kind::Array,
                 static_cast<std::uint32_t>(object ? count / 2 : count), nodes_.size()};
    nodes_.insert(nodes_.end(), pending_.begin() + static_cast<std::ptrdiff_t>(mark),
                  pending_.end());
    pending_.resize(mark);
    pending_.push_back(n);
}

}  // namespace tokenscope::json
