#include "query_range_parser.h"

#include <algorithm>

#include "json_cursor.h"

namespace tokenscope::fleet {
namespace {

void read_labels(JsonCursor& in, Series& s) {
    std::string key, scratch;
    in.begin_object();
    while (in.next_key(key)) {
        if (in.peek() != '"') {
            in.skip_value();  // a label value is a string; anything else is ignored
            continue;
        }
        std::string_view value = in.read_string(scratch);
        if (key != "__name__") s.labels.emplace_back(key, std::string(value));
    }
}

Point read_point(JsonCursor& in) {
    Point p;
    in.expect('[');
    p.t = in.read_number();
    in.expect(',');
    p.v = in.read_sample_value();
    in.expect(']');
    return p;
}

void read_points(JsonCursor& in, Series& s) {
    if (s.points.capacity() == 0) s.points.reserve(64);
    in.begin_array();
    while (in.next_element()) s.points.push_back(read_point(in));
}

Series read_series(JsonCursor& in) {
    Series s;
    std::string key;
    in.begin_object();
    while (in.next_key(key)) {
        if (key == "metric") {
            read_labels(in, s);
        } else if (key == "values") {
            read_points(in, s);
        } else if (key == "value") {  // an instant vector's single point
            s.points.push_back(read_point(in));
        } else {
            in.skip_value();  // "histograms" (native) and anything newer
        }
    }
    const auto by_time = [](const Point& a, const Point& b) { return a.t < b.t; };
    if (!std::is_sorted(s.points.begin(), s.points.end(), by_time))
        std::stable_sort(s.points.begin(), s.points.end(), by_time);
    return s;
}

struct Envelope {
    std::string status, error_type, error, result_type;
    bool has_result = false;
};

void read_data(JsonCursor& in, Envelope& env, QueryResult& out) {
    std::string key, scratch;
    in.begin_object();
    while (in.next_key(key)) {
        if (key == "resultType" && in.peek() == '"') {
            env.result_type = in.read_string(scratch);
        } else if (key == "result" && in.peek() == '[') {
            env.has_result = true;
            in.begin_array();
            while (in.next_element()) out.series.push_back(read_series(in));
        } else {
            in.skip_value();
        }
    }
}

void read_warnings(JsonCursor& in, QueryResult& out) {
    std::string scratch;
    in.begin_array();
    while (in.next_element()) {
        if (in.peek() == '"')
            out.warnings.emplace_back(in.read_string(scratch));
        else
            in.skip_value();
    }
}

void read_envelope(JsonCursor& in, Envelope& env, QueryResult& out) {
    std::string key, scratch;
    if (in.peek() != '{') throw ResponseError("not a JSON object (is this a Prometheus URL?)");
    in.begin_object();
    while (in.next_key(key)) {
        const bool text = in.peek() == '"';
        if (key == "status" && text)
            env.status = in.read_string(scratch);
        else if (key == "errorType" && text)
            env.error_type = in.read_string(scratch);
        else if (key == "error" && text)
            env.error = in.read_string(scratch);
        else if (key == "data" && in.peek() == '{')
            read_data(in, env, out);
        else if (key == "warnings" && in.peek() == '[')
            read_warnings(in, out);
        else
            in.skip_value();
    }
    if (!in.at_end()) throw ResponseError("text after the JSON object");
}

}  // namespace

QueryResult parse_query_range(std::string_view body) {
    QueryResult out;
    Envelope env;
    JsonCursor in(body);
    try {
        read_envelope(in, env, out);
    } catch (const JsonSyntaxError& e) {
        // An error answer cut short still says it was one.
        if (env.status == "error") throw QueryError(env.error_type, env.error);
        throw ResponseError(std::string("malformed JSON ") + e.what());
    }
    if (env.status == "error") throw QueryError(env.error_type, env.error);
    if (env.status != "success")
        throw ResponseError(env.status.empty() ? "no \"status\" in the answer"
                                               : "status \"" + env.status + "\"");
    if (!env.has_result) throw ResponseError("no \"data\".\"result\" array in the answer");
    if (env.result_type != "matrix" && env.result_type != "vector")
        throw ResponseError("resultType \"" + env.result_type + "\", expected \"matrix\"");
    return out;
}

}  // namespace tokenscope::fleet
