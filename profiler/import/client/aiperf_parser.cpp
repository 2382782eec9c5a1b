#include "aiperf_parser.h"

#include "client_json.h"
#include "import/file_source.h"
#include "import/import_error.h"
#include "request_builder.h"
#include "summary_metrics.h"
#include "tool_figures.h"
#include "trace/memory_budget.h"

namespace tokenscope::import::client {
namespace {

// {"value": v, "unit": "ms"} in ns; nullopt when absent or in an unknown unit.
std::optional<double> metric_scale(Value metric) {
    return ns_per_unit(text(metric, "unit"));
}

std::optional<double> metric_value(Value metrics, const char* tag) {
    return number(child(metrics, tag), "value");
}

std::optional<std::int64_t> metric_ns(Value metrics, const char* tag) {
    const Value m = child(metrics, tag);
    if (!m) return std::nullopt;
    auto scale = metric_scale(m);
    auto v = number(m, "value");
    if (!scale || !v) return std::nullopt;
    return to_ns(*v, *scale);
}

// One AIPerf MetricRecordInfo line as a request. Emissions: start + TTFT, then
// each inter-chunk latency added (AIPerf computes ICL from consecutive response
// times, so they rebuild the response times exactly).
ClientRequest aiperf_request(Value rec) {
    ClientRequest r;
    const Value meta = child(rec, "metadata");
    const Value metrics = child(rec, "metrics");
    if (!meta) return r;
    r.arrival_ns = integer_ns(meta, "request_start_ns");
    const Value error = child(rec, "error");
    const Value cancelled = child(meta, "was_cancelled");
    const bool was_cancelled = cancelled.is_bool() && cancelled.boolean();
    if ((error && !error.is_null()) || was_cancelled) {
        r.failed = true;
        r.error =
            error.is_object() ? text(error, "type") + ": " + text(error, "message") : "cancelled";
        return r;
    }
    if (!metrics || !r.arrival_ns) return r;
    r.input_len = length(metric_value(metrics, "input_sequence_length"));
    r.output_len = length(metric_value(metrics, "output_sequence_length"));
    auto ttft = metric_ns(metrics, "time_to_first_token");
    if (!ttft) {
        // Not streamed: the whole answer arrives at request_end_ns.
        if (auto end = integer_ns(meta, "request_end_ns")) r.emissions.push_back(*end);
        return r;
    }
    auto t = add_ns(*r.arrival_ns, *ttft);
    if (!t) return r;
    r.emissions.push_back(*t);
    const Value icl = child(metrics, "inter_chunk_latency");
    if (!icl) return r;
    auto scale = metric_scale(icl);
    const Value values = child(icl, "value");
    if (!scale || !values.is_array()) return r;
    for (std::size_t i = 0; i < values.size(); ++i) {
        auto d = number(values[i], "");
        if (!d) continue;
        auto ns = to_ns(*d, *scale);
        t = ns ? add_ns(*t, *ns) : std::nullopt;
        if (!t) {
            r.emissions.clear();  // counted as missing times
            return r;
        }
        r.emissions.push_back(*t);
    }
    return r;
}

}  // namespace

void AiperfParser::records(const trace::ProgressFn& progress) {
    FileSource source(path_);
    trace::MemoryBudget budget(path_);
    RequestBuilder builder(run_);
    json::Tree tree;  // one for every line: its buffers are reused
    std::int64_t line_no = 0, malformed = 0, first_bad = 0, warmup = 0;
    auto line = [&](std::string_view text_line) {
        ++line_no;
        if (text_line.find_first_not_of(" \t\r") == std::string_view::npos) return;
        Value rec;
        try {
            rec = tree.parse_copy(text_line, {});
        } catch (const json::SyntaxError&) {
            // counted below, as a line without metadata
        }
        if (!child(rec, "metadata")) {
            if (malformed++ == 0) first_bad = line_no;
            return;
        }
        if (text(child(rec, "metadata"), "benchmark_phase") == "warmup") {
            ++warmup;
            return;
        }
        builder.add(aiperf_request(rec));
    };
    std::string carry;
    for (std::string_view chunk = source.next_chunk(); !chunk.empty();
         chunk = source.next_chunk()) {
        std::size_t from = 0;
        for (std::size_t nl = chunk.find('\n'); nl != std::string_view::npos;
             nl = chunk.find('\n', from)) {
            if (carry.empty()) {
                line(chunk.substr(from, nl - from));
            } else {
                carry.append(chunk.substr(from, nl - from));
                line(carry);
                carry.clear();
            }
            from = nl + 1;
        }
        carry.append(chunk.substr(from));
        if (carry.size() > kMaxLineBytes)
            throw ImportError(path_, "JSONL record at line " + std::to_string(line_no + 1) +
                                         " is longer than " + std::to_string(kMaxLineBytes >> 20) +
                                         " MiB; not a per-request export");
        // Streamed, but every request stays in memory: the run grows with the file.
        budget.require(trace::run_memory_bytes(run_) + carry.capacity(),
                       "this " +
                           trace::format_bytes(static_cast<std::uint64_t>(source.file_size())) +
                           " AIPerf export, at line " + std::to_string(line_no) + ",");
        if (progress) progress(source.file_consumed(), source.file_size());
    }
    if (!carry.empty()) line(carry);  // a last line without newline, perhaps truncated
    builder.finish();
    if (malformed > 0)
        run_.count_diagnostic("client_malformed_lines", trace::Severity::DataLoss,
                              static_cast<double>(malformed),
                              "JSONL lines that are not complete AIPerf records (truncated or "
                              "invalid JSON), skipped; the first is line " +
                                  std::to_string(first_bad));
    if (warmup > 0)
        run_.count_diagnostic("client_warmup_records", trace::Severity::Info,
                              static_cast<double>(warmup),
                              "records of the warm-up phase, left out");
    if (builder.added() == 0)
        throw ImportError(path_, "no usable AIPerf record among " + std::to_string(line_no) +
                                     " lines (" + std::to_string(malformed) + " malformed)");
    figures_beside("AIPerf", "_aiperf.json");
}

namespace {

// GenAI-Perf drops responses without content (the role-only first chunk of an
// OpenAI stream, "[DONE]") before it computes TTFT and ITL; so do we.
// `sse_tree` reads the JSON of an OpenAI stream's chunk (its buffers reused).
bool has_content(Value output, json::Tree& sse_tree) {
    if (!output.is_object()) return true;
    if (child(output, "text_output")) return !text(output, "text_output").empty();
    std::string sse = text(output, "response");
    if (sse.empty()) return false;
    if (sse.starts_with("data: ")) sse.erase(0, 6);
    while (!sse.empty() && (sse.back() == '\n' || sse.back() == ' ')) sse.pop_back();
    if (sse == "[DONE]") return false;
    Value data;
    try {
        data = sse_tree.parse_copy(sse, {});
    } catch (const json::SyntaxError&) {
        return false;  // not JSON: no content
    }
    const Value choices = child(data, "choices");
    if (!choices.is_array() || choices.size() == 0) return true;
    const Value c = choices[0];
    if (const Value delta = child(c, "delta")) return !text(delta, "content").empty();
    return !text(c, "text").empty();
}

ClientRequest genai_perf_request(Value req, json::Tree& sse_tree) {
    ClientRequest r;
    r.arrival_ns = integer_ns(req, "timestamp");
    const Value times = child(req, "response_timestamps");
    const Value outputs = child(req, "response_outputs");
    if (!times.is_array()) return r;
    const bool filter = outputs.is_array() && outputs.size() == times.size();
    for (std::size_t i = 0; i < times.size(); ++i) {
        auto ns = integer_ns(times[i], "");
        if (ns && (!filter || has_content(outputs[i], sse_tree))) r.emissions.push_back(*ns);
    }
    return r;
}

}  // namespace

void AiperfParser::genai_perf_export(Value root) {
    const Value experiments = child(root, "experiments");
    if (!experiments.is_array())
        throw ImportError(path_, "GenAI-Perf export without an \"experiments\" array");
    RequestBuilder builder(run_);
    json::Tree sse_tree;
    for (std::size_t e = 0; e < experiments.size(); ++e) {
        const Value requests = child(experiments[e], "requests");
        if (!requests.is_array()) continue;
        for (std::size_t i = 0; i < requests.size(); ++i)
            builder.add(genai_perf_request(requests[i], sse_tree));
    }
    builder.finish();
    if (experiments.size() > 1)
        run_.count_diagnostic("client_experiments_merged", trace::Severity::Info,
                              static_cast<double>(experiments.size()),
                              "experiments (load levels) in the file; their requests are in one "
                              "run");
    if (builder.added() == 0) throw ImportError(path_, "GenAI-Perf export without usable requests");
    figures_beside("GenAI-Perf", "_genai_perf.json");
}

namespace {

struct AiperfMetric {
    const char* tag;
    const char* metric;
    const char* label;  // after the tool's name
    const char* definition;
};

// aiperf/metrics/types/*.py; GenAI-Perf's llm_metrics.py defines the same.
constexpr AiperfMetric kAiperfMetrics[] = {
    {"time_to_first_token", "ttft", "time to first token", "first response - request start"},
    {"inter_token_latency", "tpot", "inter-token latency, per request",
     "per request (request latency - TTFT) / (output tokens - 1): Tokenscope's TPOT"},
    {"inter_chunk_latency", "itl", "inter-chunk latency",
     "the gaps between consecutive responses of a request"},
    {"request_latency", "e2e", "request latency", "last response - request start"},
};

}  // namespace

// profile_export.jsonl -> profile_export_aiperf.json; profile_export.json ->
// profile_export_genai_perf.json (the exporters name the summary after the export file).
void AiperfParser::figures_beside(const std::string& tool, const std::string& suffix) {
    std::string stem = base_name(path_);
    for (std::string_view ext : {".gz", ".jsonl", ".json"})
        if (stem.ends_with(ext)) stem.resize(stem.size() - ext.size());
    auto summary_path = file_beside(path_, stem + suffix);
    if (!summary_path) return;
    json::Tree tree;
    Value summary;
    try {
        summary = read_document(*summary_path, tree, {});
    } catch (const ImportError& e) {
        run_.count_diagnostic("tool_summary_unreadable", trace::Severity::Info, 1, e.what());
        return;
    }
    std::vector<ToolFigure> figures;
    for (const auto& m : kAiperfMetrics) {
        const Value stats = child(summary, m.tag);
        auto scale = stats ? ns_per_unit(text(stats, "unit")) : std::nullopt;
        if (!scale) continue;
        for (const std::string stat : {"mean", "p50", "p90", "p95", "p99"}) {
            const std::string key = stat == "mean" ? "avg" : stat;
            auto v = number(stats, key);
            if (!v) continue;
            figures.push_back({tool,
                               base_name(*summary_path),
                               std::string(m.tag) + "." + key,
                               tool + " " + m.label,
                               m.definition,
                               m.metric,
                               stat,
                               true,
                               *v * *scale,
                               std::nullopt,
                               {}});
        }
    }
    write_tool_figures(run_, figures);
    // The user configuration AIPerf keeps in its summary (JsonExportData.input_config).
    const Value loadgen = child(child(summary, "input_config"), "loadgen");
    if (loadgen) {
        write_load(run_, "max_concurrency", number(loadgen, "concurrency"));
        write_load(run_, "request_rate", number(loadgen, "request_rate"));
    }
}

void AiperfParser::summary(Value root) {
    SummaryMetrics s;
    // AIPerf's and GenAI-Perf's inter_token_latency is per request
    // (latency - TTFT) / (OSL - 1): docs/metrics.md's TPOT; inter_chunk_latency is ITL.
    const std::pair<const char*, const char*> map[] = {{"time_to_first_token", "ttft"},
                                                       {"inter_token_latency", "tpot"},
                                                       {"inter_chunk_latency", "itl"},
                                                       {"request_latency", "e2e"}};
    for (const auto& [tag, metric] : map) {
        const Value m = child(root, tag);
        if (!m) continue;
        auto scale = ns_per_unit(text(m, "unit"));
        if (scale) s.set(metric, SummaryMetrics::read(m, {"avg", "std"}), *scale);
    }
    if (s.empty())
        throw ImportError(path_,
                          "AIPerf / GenAI-Perf summary without latency statistics "
                          "(time_to_first_token, inter_token_latency, request_latency)");
    s.write(run_, "AIPerf / GenAI-Perf",
            "their inter_token_latency is per request (TPOT), shown as tpot");
}

}  // namespace tokenscope::import::client
