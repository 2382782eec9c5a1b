#include <iostream>
#include <nlohmann/json.hpp>

#include "analysis/heatmap/heatmap_csv.h"
#include "analysis/heatmap/stored_heatmap.h"
#include "analysis/kernel_name.h"
#include "analysis/run_kind.h"
#include "arg_parser.h"
#include "cell_text.h"
#include "commands.h"
#include "format.h"
#include "heatmap_image_export.h"
#include "heatmap_options.h"
#include "image_options.h"
#include "input_runs.h"
#include "json_out.h"
#include "store/store_reader.h"
#include "text_table.h"

namespace tokenscope::cli {
namespace {

nlohmann::json heatmap_json(const LoadedRun& run, const analysis::Heatmap& map) {
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t r = 0; r < map.row_count(); ++r) {
        nlohmann::json cells = nlohmann::json::array();
        for (std::size_t c = 0; c < map.column_count(); ++c) {
            const auto& cell = map.at(r, c);
            cells.push_back(
                {{"p95_ns", cell.value ? nlohmann::json(*cell.value) : nlohmann::json()},
                 {"count", cell.count}});
        }
        rows.push_back(
            {{"label", map.row_labels[r]},
             {"sla_ns", map.row_sla[r] ? nlohmann::json(*map.row_sla[r]) : nlohmann::json()},
             {"recalibrate_from_window",
              map.row_flag[r] ? nlohmann::json(*map.row_flag[r]) : nlohmann::json()},
             {"cells", cells}});
    }
    nlohmann::json columns = nlohmann::json::array();
    for (const auto& w : map.columns)
        columns.push_back({{"start_ns", w.start_ns}, {"end_ns", w.end_ns}});
    return {{"file", run.path},
            {"name", run.data.info.name},
            {"is_model", run.data.info.is_model()},
            {"rows_by", to_string(map.spec.rows)},
            {"metric", to_string(map.spec.metric)},
            {"columns", columns},
            {"sla_baseline_windows", map.sla_baseline},
            // Each cell's P95 within this relative bound of the exact one (0: exact).
            {"p95_error", map.value_error},
            {"rows", rows}};
}

void print_text(const LoadedRun& run, const analysis::Heatmap& map) {
    std::cout << "run: " << display_name(run.data) << "  (" << run.path << ")\n"
              << "P95 of " << to_string(map.spec.metric) << " in ms, rows by "
              << to_string(map.spec.rows) << ", " << map.column_count()
              << " windows; blank = no samples; SLA = 1.2 x the row's peak P95 over the first "
              << map.sla_baseline << " windows (the baseline); flags only after it\n";
    if (run.data.info.is_model()) std::cout << "  MODEL: cost-model run, not a measurement\n";
    std::cout << '\n';
    // Columns are labelled from the first window, so traces with epoch clocks stay readable.
    const std::int64_t origin = map.columns.empty() ? 0 : map.columns.front().start_ns;
    std::vector<std::string> header = {"row"};
    for (const auto& w : map.columns) header.push_back(format_ms(double(w.start_ns - origin), 1));
    header.insert(header.end(), {"SLA", "flag"});
    TextTable t(header);
    const bool kernel = map.spec.rows == analysis::HeatmapRows::Kernel;
    const std::vector<std::string> labels =
        kernel ? analysis::distinct_short_kernel_names(map.row_labels) : map.row_labels;
    for (std::size_t r = 0; r < map.row_count(); ++r) {
        std::vector<std::string> row = {shorten(labels[r], 60)};
        for (std::size_t c = 0; c < map.column_count(); ++c) {
            const auto& cell = map.at(r, c);
            row.push_back(cell.value ? format_ms(*cell.value) : "");
        }
        row.push_back(map.row_sla[r] ? format_ms(*map.row_sla[r]) : "");
        row.push_back(map.row_flag[r] ? "recalibrate@" + std::to_string(*map.row_flag[r]) : "");
        t.add_row(row);
    }
    t.print(std::cout, false);
    std::cout << "(column headers: window start in ms from the first window; --csv or --json "
                 "give full row labels)\n";
    if (map.value_error > 0)
        std::cout << "(kernels read from the .tokenscope file: each P95 from a duration histogram, "
                     "within ±"
                  << format_percent(map.value_error, 1) << "; counts exact)\n";
    std::cout << '\n';
}

// The same rendering code as the GUI's Heatmap tab, headless.
void export_images(const ArgParser& p, const LoadedRun& run, const analysis::Heatmap& map) {
    const ImageSize size = image_size_from(p, "heatmap");
    std::string title = display_name(run.data) + ": P95 " +
                        std::string(to_string(map.spec.metric)) + " by " +
                        std::string(to_string(map.spec.rows));
    for (const auto& [format, file] : image_files(p)) {
        export_heatmap_image(map, title, file, size.width, size.height, size.dpi);
        std::cerr << "wrote " << file << '\n';
    }
}

}  // namespace

int cmd_heatmap(const std::vector<std::string>& args) {
    ArgParser p("heatmap", "FILE... [options]",
                "The P95 heatmap: rows by a grouping key, columns by "
                "time or step windows, each cell the P95 of the metric over its samples.");
    add_heatmap_options(p);
    p.flag("json", "print JSON").flag("csv", "print the matrix as CSV (ns)");
    add_image_options(p);
    add_input_options(p);
    if (!parse_or_help(p, args)) return kExitOk;
    auto runs = load_inputs(p, "heatmap", Needs::Totals);
    const bool image = !image_files(p).empty();
    if (image && runs.size() > 1)
        throw UsageError{"heatmap: " + std::to_string(runs.size()) +
                         " runs but one image file; choose a run with --run N"};
    nlohmann::json out = {{"runs", nlohmann::json::array()}};
    for (auto& r : runs) {
        analysis::Heatmap map;
        analysis::HeatmapSpec spec = heatmap_spec_from(p, analysis::default_heatmap_spec(r.data));
        try {
            // Kernel rows of a run left in its file read its kernels from there, a lane at
            // a time, into a histogram per cell (stored_heatmap.h).
            if (r.data.in_file) {
                const store::StoreReader reader(r.path, store::ReaderOptions::pass());
                map = analysis::compute_stored_heatmap(reader, r.data, spec);
            } else {
                map = analysis::compute_heatmap(r.data, spec);
            }
        } catch (const std::invalid_argument& e) {
            throw UsageError{"heatmap: " + r.path + ": " + e.what()};
        }
        export_images(p, r, map);
        if (p.has("json"))
            out["runs"].push_back(heatmap_json(r, map));
        else if (p.has("csv"))
            analysis::write_heatmap_csv(map, std::cout);
        else
            print_text(r, map);
    }
    if (p.has("json")) std::cout << json_text(out) << '\n';
    return kExitOk;
}

}  // namespace tokenscope::cli
