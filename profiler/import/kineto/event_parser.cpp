#include "event_parser.h"

#include <charconv>
#include <cmath>

#include "decimal_time.h"

namespace tokenscope::import::kineto {
namespace {

using json::od::json_type;

// An integer member; a float with an integral value ("3.0") counts too.
std::optional<std::int64_t> read_int(json::Reader& r, json::od::value& v) {
    if (r.type(v) != json_type::number) return std::nullopt;
    std::string_view text = r.number_text(v);
    if (auto n = integer_text(text)) return n;
    double d = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (ptr != text.data() + text.size()) r.check_number(text);
    if (ec != std::errc() || !std::isfinite(d) || std::fabs(d) > 9.0e18) return std::nullopt;
    return static_cast<std::int64_t>(d);
}

std::optional<std::int64_t> read_time(json::Reader& r, json::od::value& v, bool& bad) {
    if (r.type(v) != json_type::number) {
        bad = true;
        return std::nullopt;
    }
    std::string_view text = r.number_text(v);
    auto ns = micros_text_to_ns(text);
    if (!ns) {
        r.check_number(text);
        bad = true;
    }
    return ns;
}

JsonId read_id(json::Reader& r, json::od::value& v) {
    JsonId id;
    if (r.type(v) == json_type::string) {
        id.is_number = false;
        id.text = r.string(v);
        // Numeric strings ("1102") name the same thread as the number would.
        if (auto n = integer_text(id.text)) {
            id.is_number = true;
            id.number = *n;
        }
        return id;
    }
    if (auto n = read_int(r, v)) {
        id.number = *n;
    } else {
        id.is_number = false;
    }
    return id;
}

void read_dims(json::Reader& r, json::od::value& v, std::array<std::int32_t, 3>& dims) {
    if (r.type(v) != json_type::array) return;
    json::od::array a = r.get(v.get_array());
    std::size_t i = 0;
    for (auto element : a) {
        json::od::value e = r.get(std::move(element));
        auto n = read_int(r, e);
        if (i < dims.size() && n) dims[i] = static_cast<std::int32_t>(*n);
        ++i;
    }
}

std::string_view read_string_or_skip(json::Reader& r, json::od::value& v) {
    if (r.type(v) == json_type::string) return r.string(v);
    return {};
}

}  // namespace

void KinetoEvent::clear() {
    // Field by field: it runs once per event, and numeric_args keeps its capacity.
    ph = 0;
    cat = name = scope = binding = arg_name = {};
    pid = tid = JsonId{};
    ts_ns = dur_ns = id = std::nullopt;
    bad_time = false;
    correlation = external_id = bytes = device = stream = std::nullopt;
    grid = block = {};
    registers = shared_memory = 0;
    has_launch = false;
    graph_id = graph_node_id = sort_index = std::nullopt;
    numeric_args.clear();
}

void EventParser::parse(json::Reader& r, json::od::value& value, KinetoEvent& event) const {
    event.clear();
    if (r.type(value) != json_type::object)
        throw json::SyntaxError(r.offset(), "trace event is not an object", false);
    json::od::object object = r.get(value.get_object());
    for (auto member : object) {
        json::od::field field = r.get(std::move(member));
        const std::string_view key = r.key(field);
        json::od::value& v = field.value();
        // By length first: every member of every event comes through here.
        switch (key.size()) {
            case 1:
                if (key == "s") event.scope = read_string_or_skip(r, v);
                break;
            case 2:
                if (key == "ph") {
                    std::string_view ph = read_string_or_skip(r, v);
                    event.ph = ph.size() == 1 ? ph[0] : '?';
                } else if (key == "ts") {
                    event.ts_ns = read_time(r, v, event.bad_time);
                } else if (key == "id") {
                    JsonId id = read_id(r, v);
                    if (id.is_number) event.id = id.number;
                } else if (key == "bp") {
                    event.binding = read_string_or_skip(r, v);
                }
                break;
            case 3:
                if (key == "cat") {
                    event.cat = read_string_or_skip(r, v);
                } else if (key == "pid") {
                    event.pid = read_id(r, v);
                } else if (key == "tid") {
                    event.tid = read_id(r, v);
                } else if (key == "dur") {
                    event.dur_ns = read_time(r, v, event.bad_time);
                }
                break;
            case 4:
                if (key == "name") {
                    event.name = read_string_or_skip(r, v);
                } else if (key == "args" && r.type(v) == json_type::object) {
                    parse_args(r, v, event);
                }
                break;
            default:
                break;
        }
    }
}

void EventParser::parse_args(json::Reader& r, json::od::value& value, KinetoEvent& event) const {
    json::od::object object = r.get(value.get_object());
    for (auto member : object) {
        json::od::field field = r.get(std::move(member));
        std::string_view key = r.key(field);
        parse_arg(r, key, field.value(), event);
    }
}

void EventParser::parse_arg(json::Reader& r, std::string_view key, json::od::value& v,
                            KinetoEvent& event) const {
    if (key == "grid" || key == "block") {
        event.has_launch = true;
        read_dims(r, v, key == "grid" ? event.grid : event.block);
        return;
    }
    if (key == "name") {
        event.arg_name = read_string_or_skip(r, v);
        return;
    }
    if (key == "labels" || r.type(v) != json_type::number) return;
    std::string_view text = r.number_text(v);
    event.numeric_args.emplace_back(key, text);
    // The number's text is checked where it is converted (and where the builder
    // converts a counter's value), as simdjson checks the values nobody reads.
    auto as_int = [&] {
        auto n = integer_text(text);
        if (!n) r.check_number(text);
        return n;
    };
    if (key == "correlation") {
        event.correlation = as_int();
    } else if (key == "External id" || key == "external id") {
        event.external_id = as_int();
    } else if (key == "bytes") {
        event.bytes = as_int();
    } else if (key == "device") {
        event.device = as_int();
    } else if (key == "stream") {
        event.stream = as_int();
    } else if (key == "registers per thread") {
        event.registers = static_cast<std::int32_t>(as_int().value_or(0));
    } else if (key == "shared memory") {
        event.shared_memory = static_cast<std::int32_t>(as_int().value_or(0));
    } else if (key == "graph id") {
        event.graph_id = as_int();
    } else if (key == "graph node id") {
        event.graph_node_id = as_int();
    } else if (key == "sort_index") {
        event.sort_index = as_int();
    }
}

}  // namespace tokenscope::import::kineto
