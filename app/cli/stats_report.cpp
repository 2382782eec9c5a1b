#include "stats_report.h"

#include "format.h"
#include "json_out.h"
#include "text_table.h"
#include "tool_figures_report.h"

namespace tokenscope::cli {
namespace {

struct Named {
    const char* name;
    const analysis::Distribution* d;
};

std::vector<Named> metrics_of(const analysis::RunMetrics& m) {
    return {
        {"ttft", &m.ttft}, {"tpot", &m.tpot}, {"itl", &m.itl}, {"e2e", &m.e2e}, {"step", &m.step}};
}

// Client results with summary statistics only carry the tool's own
// distributions in the workload JSON (import/client/summary_metrics.h).
nlohmann::json summary_metrics(const trace::RunData& run) {
    auto w = nlohmann::json::parse(run.info.workload_json, nullptr, false);
    if (!w.is_object() || !w.contains("summary_metrics")) return nullptr;
    return w["summary_metrics"];
}

std::string ms_or_blank(const nlohmann::json& v) {
    return v.is_number() ? format_ms(v.get<double>()) : "";
}

void print_summary_metrics(std::ostream& out, const nlohmann::json& summary, bool csv) {
    if (!csv) out << "  summary statistics written by the load generator (no per-request data):\n";
    TextTable t({"summary (ms)", "count", "mean", "std", "min", "p50", "p90", "p95", "p99", "max"});
    for (const auto& [name, d] : summary.items()) {
        if (!d.is_object()) continue;
        std::vector<std::string> row{name, d["count"].is_number() ? d["count"].dump() : ""};
        for (const char* k : {"mean", "std", "min", "p50", "p90", "p95", "p99", "max"})
            row.push_back(ms_or_blank(d[k]));
        t.add_row(row);
    }
    t.print(out, csv);
    if (!csv) out << '\n';
}

}  // namespace

void print_stats(std::ostream& out, const LoadedRun& run, const analysis::RunMetrics& m, bool csv) {
    if (!csv) {
        out << "run: " << display_name(run.data) << "  (" << run.path << ")\n";
        if (run.data.info.is_model())
            out << "  MODEL: figures come from the cost model, not from a measurement\n";
        out << "  requests: " << m.requests << "  failed: " << m.failed_requests
            << "  warm-up excluded: " << m.warmup_requests << "  output tokens: " << m.output_tokens
            << "  throughput: " << format_double(m.throughput_tok_s, 1) << " tok/s\n\n";
    }
    TextTable t({"metric (ms)", "count", "mean", "std", "min", "p50", "p90", "p95", "p99", "max"});
    for (const auto& [name, d] : metrics_of(m)) {
        if (d->count == 0) {
            t.add_row({name, "0"});
            continue;
        }
        t.add_row({name, std::to_string(d->count), format_ms(d->mean), format_ms(d->std),
                   format_ms(d->min), format_ms(d->p50), format_ms(d->p90), format_ms(d->p95),
                   format_ms(d->p99), format_ms(d->max)});
    }
    t.print(out, csv);
    if (!csv) out << '\n';
    if (auto summary = summary_metrics(run.data); summary.is_object())
        print_summary_metrics(out, summary, csv);
    print_tool_figures(out, run.data, m, csv);
}

nlohmann::json stats_json(const LoadedRun& run, const analysis::RunMetrics& m) {
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto& [name, d] : metrics_of(m)) metrics[name] = to_json(*d);
    nlohmann::json out = {{"file", run.path},
                          {"name", run.data.info.name},
                          {"source", to_string(run.data.info.source)},
                          {"is_model", run.data.info.is_model()},
                          {"unit", "ns"},
                          {"metrics", metrics},
                          {"requests", m.requests},
                          {"failed_requests", m.failed_requests},
                          {"warmup_requests", m.warmup_requests},
                          {"output_tokens", m.output_tokens},
                          {"tpot_undefined", m.tpot_undefined},
                          {"throughput_tok_s", m.throughput_tok_s}};
    if (auto summary = summary_metrics(run.data); summary.is_object())
        out["summary_metrics"] = summary;
    add_tool_figures_json(out, run.data, m);
    return out;
}

}  // namespace tokenscope::cli
