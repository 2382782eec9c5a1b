#include "client_json.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "import/python_json.h"

namespace tokenscope::import::client {

nlohmann::json read_document(const std::string& path, const trace::ProgressFn& progress) {
    return read_python_json(path, progress, kMaxDocumentBytes);
}

const nlohmann::json* child(const nlohmann::json& j, std::string_view key) {
    if (!j.is_object()) return nullptr;
    auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

std::optional<double> number(const nlohmann::json& j, std::string_view key) {
    const nlohmann::json* v = key.empty() ? &j : child(j, key);
    if (v == nullptr || !v->is_number()) return std::nullopt;
    double d = v->get<double>();
    if (!std::isfinite(d)) return std::nullopt;
    return d;
}

std::string text(const nlohmann::json& j, std::string_view key) {
    const nlohmann::json* v = child(j, key);
    if (v == nullptr || v->is_null()) return {};
    if (v->is_string()) return v->get<std::string>();
    return v->dump();
}

std::optional<std::int64_t> integer_ns(const nlohmann::json& j, std::string_view key) {
    const nlohmann::json* v = key.empty() ? &j : child(j, key);
    if (v == nullptr) return std::nullopt;
    if (v->is_number_unsigned()) {
        auto u = v->get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return std::nullopt;
        return static_cast<std::int64_t>(u);
    }
    if (v->is_number_integer()) return v->get<std::int64_t>();
    auto d = number(*v, "");
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
