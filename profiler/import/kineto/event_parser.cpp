#include "event_parser.h"

#include <charconv>
#include <cmath>

#include "decimal_time.h"

namespace tokenscope::import::kineto {
namespace {

bool starts_number(char c) {
    return c == '-' || (c >= '0' && c <= '9');
}

// An integer member; a float with an integral value ("3.0") counts too.
std::optional<std::int64_t> read_int(JsonCursor& cursor) {
    if (!starts_number(cursor.peek())) {
        cursor.skip_value();
        return std::nullopt;
    }
    std::string_view text = cursor.number();
    if (auto v = integer_text(text)) return v;
    double d = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (ec != std::errc() || !std::isfinite(d) || std::fabs(d) > 9.0e18) return std::nullopt;
    return static_cast<std::int64_t>(d);
}

std::optional<std::int64_t> read_time(JsonCursor& cursor, bool& bad) {
    if (!starts_number(cursor.peek())) {
        cursor.skip_value();
        bad = true;
        return std::nullopt;
    }
    auto ns = micros_text_to_ns(cursor.number());
    if (!ns) bad = true;
    return ns;
}

JsonId read_id(JsonCursor& cursor) {
    JsonId id;
    char c = cursor.peek();
    if (c == '"') {
        id.is_number = false;
        id.text = cursor.string();
        // Numeric strings ("1102") name the same thread as the number would.
        if (auto v = integer_text(id.text)) {
            id.is_number = true;
            id.number = *v;
        }
        return id;
    }
    auto v = read_int(cursor);
    if (v) {
        id.number = *v;
    } else {
        id.is_number = false;
    }
    return id;
}

void read_dims(JsonCursor& cursor, std::array<std::int32_t, 3>& dims) {
    if (cursor.peek() != '[') {
        cursor.skip_value();
        return;
    }
    std::size_t i = 0;
    if (cursor.begin_array()) {
        do {
            auto v = read_int(cursor);
            if (i < dims.size() && v) dims[i] = static_cast<std::int32_t>(*v);
            ++i;
        } while (cursor.next_element());
    }
}

std::string_view read_string_or_skip(JsonCursor& cursor) {
    if (cursor.peek() == '"') return cursor.string();
    cursor.skip_value();
    return {};
}

}  // namespace

void KinetoEvent::clear() {
    std::vector<std::pair<std::string_view, std::string_view>> keep = std::move(numeric_args);
    keep.clear();
    *this = KinetoEvent{};
    numeric_args = std::move(keep);
}

void EventParser::parse(JsonCursor& cursor, KinetoEvent& event) const {
    event.clear();
    if (cursor.peek() != '{') cursor.fail("trace event is not an object");
    if (!cursor.begin_object()) return;
    do {
        std::string_view key = cursor.key();
        if (key == "ph") {
            std::string_view ph = read_string_or_skip(cursor);
            event.ph = ph.size() == 1 ? ph[0] : '?';
        } else if (key == "cat") {
            event.cat = read_string_or_skip(cursor);
        } else if (key == "name") {
            event.name = read_string_or_skip(cursor);
        } else if (key == "pid") {
            event.pid = read_id(cursor);
        } else if (key == "tid") {
            event.tid = read_id(cursor);
        } else if (key == "ts") {
            event.ts_ns = read_time(cursor, event.bad_time);
        } else if (key == "dur") {
            event.dur_ns = read_time(cursor, event.bad_time);
        } else if (key == "id") {
            JsonId id = read_id(cursor);
            if (id.is_number) event.id = id.number;
        } else if (key == "s") {
            event.scope = read_string_or_skip(cursor);
        } else if (key == "bp") {
            event.binding = read_string_or_skip(cursor);
        } else if (key == "args" && cursor.peek() == '{') {
            parse_args(cursor, event);
        } else {
            cursor.skip_value();
        }
    } while (cursor.next_member());
}

void EventParser::parse_args(JsonCursor& cursor, KinetoEvent& event) const {
    if (!cursor.begin_object()) return;
    do {
        std::string_view key = cursor.key();
        parse_arg(cursor, key, event);
    } while (cursor.next_member());
}

void EventParser::parse_arg(JsonCursor& cursor, std::string_view key, KinetoEvent& event) const {
    char c = cursor.peek();
    if (key == "grid" || key == "block") {
        event.has_launch = true;
        read_dims(cursor, key == "grid" ? event.grid : event.block);
        return;
    }
    if (key == "name" || key == "labels") {
        if (key == "name")
            event.arg_name = read_string_or_skip(cursor);
        else
            cursor.skip_value();
        return;
    }
    if (!starts_number(c)) {
        cursor.skip_value();
        return;
    }
    std::string_view text = cursor.number();
    event.numeric_args.emplace_back(key, text);
    auto as_int = [&] { return integer_text(text); };
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
