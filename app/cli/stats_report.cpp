#include "stats_report.h"

#include "format.h"
#include "json_out.h"
#include "text_table.h"

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
}

nlohmann::json stats_json(const LoadedRun& run, const analysis::RunMetrics& m) {
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto& [name, d] : metrics_of(m)) metrics[name] = to_json(*d);
    return {{"file", run.path},
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
}

}  // namespace tokenscope::cli
