#include "query_range_parser.h"

#include <algorithm>
#include <optional>

#include "json/reader.h"
#include "sample_value.h"

namespace tokenscope::fleet {
namespace {

using json::od::json_type;

// Through simdjson On-Demand (profiler/json): keys compared in place, the time and
// the value parsed by simdjson (the value inside its quotes; "NaN", "+Inf" and the
// like by parse_sample_value). Anything not read is skipped.
class AnswerReader {
  public:
    explicit AnswerReader(json::Reader& r) : r_(r) {}

    void labels(json::od::value& v, Series& s) {
        json::od::object object = r_.get(v.get_object());
        for (auto member : object) {
            json::od::field field = r_.get(std::move(member));
            const std::string_view key = r_.key(field);
            json::od::value& value = field.value();
            // A label value is a string; anything else is ignored.
            if (key == "__name__" || r_.type(value) != json_type::string) continue;
            s.labels.emplace_back(key, r_.string(value));
        }
    }

    // [time, value]: the hot path of a large answer, one call per point, so each
    // element is read as what it should be first and its type asked only on failure.
    Point point(json::od::value& v) {
        json::od::array pair;
        if (const auto code = v.get_array().get(pair); code != simdjson::SUCCESS) {
            // type() throws the syntax error of a value that is no JSON at all.
            if (r_.type(v) != json_type::array) throw ResponseError(at("a point is not an array"));
            r_.fail(code);
        }
        Point p;
        int n = 0;
        for (auto element : pair) {
            json::od::value e = r_.get(std::move(element));
            if (n == 0) {
                if (e.get_double().get(p.t) != simdjson::SUCCESS) {
                    if (r_.type(e) != json_type::number)
                        throw ResponseError(at("a time is not a number"));
                    p.t = r_.get(e.get_double());
                }
            } else if (n == 1) {
                p.v = sample(e);
            }
            ++n;
        }
        if (n != 2) throw ResponseError(at("a point is not [time, value]"));
        return p;
    }

    void points(json::od::value& v, Series& s) {
        if (r_.type(v) != json_type::array) return;
        json::od::array array = r_.get(v.get_array());
        // The series of a matrix answer share one time range, so the last series'
        // length is this one's: one allocation, without a counting walk over the
        // structural index (which cost a tenth of the parse).
        s.points.reserve(s.points.size() + last_points_);
        for (auto element : array) {
            json::od::value e = r_.get(std::move(element));
            s.points.push_back(point(e));
        }
        last_points_ = s.points.size();
        // A series much shorter than the last (one that began late) gives back the rest.
        if (s.points.capacity() > 2 * s.points.size() + 64) s.points.shrink_to_fit();
    }

    Series series(json::od::value& v) {
        Series s;
        if (r_.type(v) != json_type::object) return s;
        json::od::object object = r_.get(v.get_object());
        for (auto member : object) {
            json::od::field field = r_.get(std::move(member));
            const std::string_view key = r_.key(field);
            json::od::value& value = field.value();
            if (key == "metric") {
                if (r_.type(value) == json_type::object) labels(value, s);
            } else if (key == "values") {
                points(value, s);
            } else if (key == "value") {  // an instant vector's single point
                s.points.push_back(point(value));
            }  // "histograms" (native) and anything newer are skipped
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

    void data(json::od::value& v, Envelope& env, QueryResult& out) {
        json::od::object object = r_.get(v.get_object());
        for (auto member : object) {
            json::od::field field = r_.get(std::move(member));
            const std::string_view key = r_.key(field);
            json::od::value& value = field.value();
            const json_type type = r_.type(value);
            if (key == "resultType" && type == json_type::string) {
                env.result_type = r_.string(value);
            } else if (key == "result" && type == json_type::array) {
                env.has_result = true;
                json::od::array result = r_.get(value.get_array());
                for (auto element : result) {
                    json::od::value e = r_.get(std::move(element));
                    out.series.push_back(series(e));
                }
            }
        }
    }

    void envelope(json::od::document& doc, Envelope& env, QueryResult& out) {
        json::od::object object = r_.get(doc.get_object());
        for (auto member : object) {
            json::od::field field = r_.get(std::move(member));
            const std::string_view key = r_.key(field);
            json::od::value& value = field.value();
            const json_type type = r_.type(value);
            const bool text = type == json_type::string;
            if (key == "status" && text) {
                env.status = r_.string(value);
            } else if (key == "errorType" && text) {
                env.error_type = r_.string(value);
            } else if (key == "error" && text) {
                env.error = r_.string(value);
            } else if (key == "data" && type == json_type::object) {
                data(value, env, out);
            } else if (key == "warnings" && type == json_type::array) {
                json::od::array warnings = r_.get(value.get_array());
                for (auto element : warnings) {
                    json::od::value e = r_.get(std::move(element));
                    if (r_.type(e) == json_type::string) out.warnings.emplace_back(r_.string(e));
                }
            }
        }
        try {
            r_.expect_end();
        } catch (const json::SyntaxError&) {
            throw ResponseError("text after the JSON object");
        }
    }

  private:
    // A sample value: a string holding a float, "NaN", "+Inf" or "-Inf" (or,
    // leniently, a bare number).
    double sample(json::od::value& v) {
        double fast = 0;  // simdjson's number parser, inside the quotes
        if (v.get_double_in_string().get(fast) == simdjson::SUCCESS) return fast;
        const json_type type = r_.type(v);
        if (type == json_type::number) return r_.get(v.get_double());
        if (type != json_type::string) throw ResponseError(at("a sample value is not a string"));
        const std::string_view text = r_.string(v);
        if (auto value = parse_sample_value(text)) return *value;
        throw ResponseError(
            at("sample value '" + std::string(text.substr(0, 40)) + "' is not a number"));
    }
    std::string at(const std::string& problem) {
        return "malformed answer at byte " + std::to_string(r_.offset()) + ": " + problem;
    }

    json::Reader& r_;
    std::size_t last_points_ = 0;
};

}  // namespace

namespace {

// One Reader per thread, kept from answer to answer: a fleet refresh asks several
// queries in a row, and a kept Reader has simdjson's structural index (four bytes
// per token, a byte of index per byte of a matrix answer) and its copy of the body
// in memory already, where a new one has the kernel fault in and zero them again: a
// fifth of parsing a 50 MB answer. An answer larger than kKeepBytes gets a Reader
// of its own, so what stays held between answers is bounded.
constexpr std::size_t kKeepBytes = std::size_t{64} << 20;

json::Reader& reader_for(std::size_t bytes, std::optional<json::Reader>& own) {
    if (bytes > kKeepBytes) return own.emplace();
    thread_local json::Reader kept;
    return kept;
}

// `open` starts the reader on the body (in place or on a copy).
template <typename Open>
QueryResult parse_answer(std::string_view body, Open open) {
    QueryResult out;
    AnswerReader::Envelope env;
    const std::size_t first = body.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || body[first] != '{')
        throw ResponseError("not a JSON object (is this a Prometheus URL?)");
    std::optional<json::Reader> own;
    json::Reader& reader = reader_for(body.size(), own);
    AnswerReader in(reader);
    try {
        in.envelope(open(reader), env, out);
    } catch (const json::SyntaxError& e) {
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

}  // namespace

QueryResult parse_query_range(std::string_view body) {
    return parse_answer(body,
                        [&](json::Reader& r) -> json::od::document& { return r.open_copy(body); });
}

QueryResult parse_query_range_in_place(std::string& body) {
    return parse_answer(body, [&](json::Reader& r) -> json::od::document& { return r.open(body); });
}

}  // namespace tokenscope::fleet
