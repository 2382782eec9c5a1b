#include <iostream>
#include <nlohmann/json.hpp>

#include "arg_parser.h"
#include "commands.h"
#include "format.h"
#include "input_runs.h"
#include "json_out.h"
#include "text_table.h"
#include "trace/gpu_catalog.h"

namespace tokenscope::cli {
namespace {

using trace::ActivityKind;
using trace::CopyKind;

nlohmann::json gpu_json(const trace::GpuInfo& g) {
    return {{"name", g.name},
            {"sm_count", g.sm_count},
            {"peak_bandwidth_bytes_per_s", g.peak_bandwidth},
            {"peak_flops", g.peak_flops},
            {"pcie_generation", g.pcie_generation},
            {"pcie_width", g.pcie_width},
            {"nvlink_links", g.nvlink_links},
            {"nvlink_bandwidth_bytes_per_s", g.nvlink_bandwidth}};
}

nlohmann::json run_json(const LoadedRun& lr) {
    const auto& run = lr.data;
    const trace::ActivityTotals c = run.activity_totals();
    nlohmann::json kinds = nlohmann::json::object(), copies = nlohmann::json::object(),
                   copy_bytes = nlohmann::json::object();
    for (std::size_t k = 0; k < trace::kActivityKindCount; ++k)
        kinds[std::string(to_string(static_cast<ActivityKind>(k)))] =
            c.count(static_cast<ActivityKind>(k));
    for (std::size_t k = 1; k < trace::kCopyKindCount; ++k) {
        const auto copy = static_cast<CopyKind>(k);
        std::string name(to_string(copy));
        copies[name] = c.cell(ActivityKind::Memcpy, copy).count;
        copy_bytes[name] = c.cell(ActivityKind::Memcpy, copy).bytes;
    }
    nlohmann::json lanes = nlohmann::json::array();
    for (const auto& l : run.lanes)
        lanes.push_back({{"kind", to_string(l.kind)},
                         {"name", l.name},
                         {"device", l.device},
                         {"process", l.process},
                         {"id", l.native_id}});
    nlohmann::json diags = nlohmann::json::array();
    for (const auto& d : run.diagnostics)
        diags.push_back({{"name", d.name},
                         {"severity", to_string(d.severity)},
                         {"value", d.value},
                         {"text", d.text}});
    return {{"file", lr.path},
            {"name", run.info.name},
            {"source", to_string(run.info.source)},
            {"is_model", run.info.is_model()},
            {"complete", run.info.complete},
            {"host", run.info.host},
            {"gpu", gpu_json(run.info.gpu)},
            {"driver_version", run.info.driver_version},
            {"cuda_version", run.info.cuda_version},
            {"clock_domain", to_string(run.info.clock)},
            {"lanes", lanes},
            {"activities", kinds},
            {"copies", copies},
            {"copy_bytes", copy_bytes},
            {"steps", run.steps.size()},
            {"requests", run.requests.size()},
            {"counter_samples", run.counters.size()},
            {"kernel_launches", run.launch_count()},
            {"cuda_graph_activities", run.graph_activity_count()},
            {"diagnostics", diags}};
}

void print_text(const LoadedRun& lr, bool csv) {
    const auto& run = lr.data;
    const trace::ActivityTotals c = run.activity_totals();
    std::cout << "run: " << display_name(run) << "  [" << to_string(run.info.source) << "]  "
              << lr.path << '\n';
    if (run.info.is_model())
        std::cout << "  MODEL: produced by the cost model, not measured on a GPU\n";
    const auto& g = run.info.gpu;
    std::cout << "  gpu: " << (g.name.empty() ? "unknown" : g.name);
    if (g.peak_bandwidth > 0)
        std::cout << ", " << format_double(g.peak_bandwidth / 1e12, 2) << " TB/s";
    if (g.peak_flops > 0) std::cout << ", " << format_double(g.peak_flops / 1e12, 0) << " TFLOP/s";
    // AMD calls its SMs compute units; its xGMI links are the nvlink category.
    const auto* model = trace::find_gpu_model(g.name);
    const bool amd = (model ? model->info.name : g.name).starts_with("AMD");
    if (g.sm_count > 0) std::cout << ", " << g.sm_count << (amd ? " CUs" : " SMs");
    if (g.nvlink_links > 0) std::cout << ", NVLink / xGMI " << g.nvlink_links << " links";
    std::cout << "\n  steps: " << run.steps.size() << "  requests: " << run.requests.size()
              << "  lanes: " << run.lanes.size() << "  counter samples: " << run.counters.size()
              << "  kernel launches: " << run.launch_count();
    if (run.graph_activity_count() > 0)
        std::cout << "  CUDA graph activities: " << run.graph_activity_count();
    std::cout << "\n\n";
    TextTable kinds({"kind", "count", "bytes"});
    for (std::size_t k = 0; k < trace::kActivityKindCount; ++k) {
        const auto kind = static_cast<ActivityKind>(k);
        kinds.add_row({std::string(to_string(kind)), std::to_string(c.count(kind)), ""});
    }
    for (std::size_t k = 1; k < trace::kCopyKindCount; ++k) {
        const auto& copies = c.cell(ActivityKind::Memcpy, static_cast<CopyKind>(k));
        if (copies.count)
            kinds.add_row({"memcpy " + std::string(to_string(static_cast<CopyKind>(k))),
                           std::to_string(copies.count), format_bytes(double(copies.bytes))});
    }
    kinds.print(std::cout, csv);
    std::cout << '\n';
    TextTable lanes({"lane", "kind", "device", "id"});
    for (const auto& l : run.lanes)
        lanes.add_row({l.name, std::string(to_string(l.kind)), std::to_string(l.device),
                       std::to_string(l.native_id)});
    lanes.print(std::cout, csv);
    if (!run.diagnostics.empty()) {
        std::cout << '\n';
        TextTable diags({"diagnostic", "severity", "value", "text"});
        for (const auto& d : run.diagnostics)
            diags.add_row(
                {d.name, std::string(to_string(d.severity)), format_double(d.value, 0), d.text});
        diags.print(std::cout, csv);
    }
    std::cout << '\n';
}

}  // namespace

int cmd_info(const std::vector<std::string>& args) {
    ArgParser p("info", "FILE... [options]",
                "Source, GPU, lanes, activity counts by kind and copy sub-kind, steps, requests "
                "and diagnostics of every run in the files.");
    p.flag("json", "print JSON").flag("csv", "print the tables as CSV");
    add_input_options(p);
    if (!parse_or_help(p, args)) return kExitOk;
    auto runs = load_inputs(p, "info", Needs::Totals);
    if (p.has("json")) {
        nlohmann::json out = {{"runs", nlohmann::json::array()}};
        for (const auto& r : runs) out["runs"].push_back(run_json(r));
        std::cout << json_text(out) << '\n';
        return kExitOk;
    }
    for (const auto& r : runs) print_text(r, p.has("csv"));
    return kExitOk;
}

}  // namespace tokenscope::cli
