#include "client_json.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include <nlohmann/json.hpp>

#include "import/json_file.h"

namespace tokenscope::import::client {

Value read_document(const std::string& path, json::Tree& tree, const trace::ProgressFn& progress) {
    return read_python_json(path, tree, progress, kMaxDocumentBytes);
}

nlohmann::json to_nlohmann(Value v) {
    using Kind = json::Node::Kind;
    switch (v.kind()) {
        case Kind::False:
        case Kind::True:
            return v.boolean();
        case Kind::Int:
            return v.int64();
        case Kind::Uint:
            return v.uint64();
        case Kind::Double:
            return v.number();
        case Kind::String:
            return std::string(v.string());
        case Kind::Array: {
            nlohmann::json a = nlohmann::json::array();
            for (std::size_t i = 0; i < v.size(); ++i) a.push_back(to_nlohmann(v[i]));
            return a;
        }
        case Kind::Object: {
            nlohmann::json o = nlohmann::json::object();
            for (std::size_t i = 0; i < v.size(); ++i)
                o[std::string(v.key_at(i))] = to_nlohmann(v.value_at(i));
            return o;
        }
        case Kind::Null:
            break;
    }
    return nullptr;
}

std::optional<double> number(Value j, std::string_view key) {
    const Value v = key.empty() ? j : child(j, key);
    if (!v.is_number()) return std::nullopt;
    const double d = v.number();
    if (!std::isfinite(d)) return std::nullopt;
    return d;
}

std::string text(Value j, std::string_view key) {
    const Value v = child(j, key);
    if (!v || v.is_null()) return {};
    if (v.is_string()) return std::string(v.string());
    return to_nlohmann(v).dump();
}

std::optional<std::int64_t> integer_ns(Value j, std::string_view key) {
    const Value v = key.empty() ? j : child(j, key);
    // simdjson reads an integer of 2^63 or more as Uint: beyond int64, as nlohmann's
    // unsigned past int64's limit was.
    if (v.kind() == json::Node::Kind::Uint) return std::nullopt;
    if (v.kind() == json::Node::Kind::Int) return v.int64();
    auto d = number(v, "");
    return d ? to_ns(*d, 1.0) : std::nullopt;
}

std::optional<std::int64_t> to_ns(double value, double ns_per_unit) {
    double ns = value * ns_per_unit;
    // 9.2e18 is int64's limit; a float to int conversion past it is undefined.
    constexpr double kLimit = 9.0e18;
    if (!std::isfinite(ns) || ns >= kLimit || ns <= -kLimit) return std::nullopt;
    return static_cast<std::int64_t>(std::llround(ns));
}

std::optional<double> ns_per_unit(std::string_view unit) {
    if (unit == "ns") return 1.0;
    if (unit == "us") return 1e3;
    if (unit == "ms") return 1e6;
    if (unit == "s" || unit == "sec") return 1e9;
    return std::nullopt;
}

std::optional<std::int64_t> add_ns(std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
    return sum;
}

std::int32_t length(std::optional<double> v) {
    constexpr double kMax = std::numeric_limits<std::int32_t>::max();
    if (!v || *v < 0 || *v > kMax) return 0;
    return static_cast<std::int32_t>(*v);
}

std::optional<std::string> file_beside(const std::string& path, const std::string& name) {
    std::error_code ec;
    std::filesystem::path p = std::filesystem::path(path).parent_path() / name;
    if (name.empty() || p == std::filesystem::path(path) ||
        !std::filesystem::is_regular_file(p, ec))
        return std::nullopt;
    return p.string();
}

std::string count_text(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

std::string base_name(const std::string& path) {
    return path.substr(path.find_last_of('/') + 1);
}

}  // namespace tokenscope::import::client
