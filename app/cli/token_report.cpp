#include "token_report.h"

#include "analysis/heatmap/batch_label.h"
#include "analysis/kernel_name.h"
#include "category_label.h"
#include "format.h"
#include "json_out.h"
#include "text_table.h"

namespace tokenscope::cli {
namespace {

using analysis::kCategories;

std::string top_kernels_text(const analysis::SlowToken& t) {
    std::string out;
    for (const auto& k : t.kernels) {
        if (!out.empty()) out += ", ";
        out += analysis::short_kernel_name(k.name) + " " + format_ms(double(k.ns)) + " ms";
    }
    return out;
}

}  // namespace

void print_slow_tokens(std::ostream& out, const std::vector<analysis::SlowToken>& tokens, bool csv,
                       bool categories) {
    if (!csv) {
        out << "slowest tokens (" << tokens.size() << ", by ITL):\n";
        for (const auto& t : tokens) out << "  " << analysis::describe_slow_token(t) << '\n';
        if (tokens.empty()) out << "  none: the run has no token with an ITL\n";
        out << '\n';
    }
    std::vector<std::string> header = {"request",      "token", "itl ms",   "iteration",
                                       "iteration ms", "batch", "dominant", "share"};
    if (categories)
        for (auto c : kCategories) header.push_back(category_label(c, csv) + " ms");
    header.push_back("top kernels");
    TextTable table(header);
    for (const auto& t : tokens) {
        const bool w = t.has_window();
        std::vector<std::string> row = {
            std::to_string(t.request),
            std::to_string(t.index),
            format_ms(double(t.itl_ns)),
            t.iteration_step >= 0 ? std::to_string(t.iteration) : "",
            w ? format_ms(double(t.window_end_ns - t.window_start_ns)) : "",
            analysis::describe_batch(t.batch),
            w ? category_label(t.dominant(), csv) : "",
            w ? format_percent(t.dominant_share()) : ""};
        if (categories)
            for (auto c : kCategories)
                row.push_back(w ? format_ms(double(t.attribution.assigned[std::size_t(c)])) : "");
        row.push_back(top_kernels_text(t));
        table.add_row(row);
    }
    table.print(out, csv);
    if (!csv) out << '\n';
}

nlohmann::json slow_tokens_json(const std::vector<analysis::SlowToken>& tokens) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& t : tokens) {
        nlohmann::json kernels = nlohmann::json::array();
        for (const auto& k : t.kernels)
            kernels.push_back({{"name", k.name},
                               {"short_name", analysis::short_kernel_name(k.name)},
                               {"category", to_string(k.category)},
                               {"time_ns", k.ns}});
        nlohmann::json row = {{"request", t.request},
                              {"index", t.index},
                              {"step", t.step},
                              {"itl_ns", t.itl_ns},
                              {"emitted_ns", t.emitted_ns},
                              {"text", analysis::describe_slow_token(t)},
                              {"top_kernels", kernels}};
        row["iteration"] = t.iteration_step >= 0 ? nlohmann::json(t.iteration) : nlohmann::json();
        if (t.batch.known())
            row["batch"] = {{"prefill_requests", t.batch.prefill_requests},
                            {"prefill_tokens", t.batch.prefill_tokens},
                            {"decode_requests", t.batch.decode_requests},
                            {"decode_tokens", t.batch.decode_tokens},
                            {"text", analysis::describe_batch(t.batch)}};
        if (t.has_window()) {
            row["window_start_ns"] = t.window_start_ns;
            row["window_end_ns"] = t.window_end_ns;
            row["assigned_ns"] = to_json(t.attribution.assigned);
            row["dominant"] = {{"category", to_string(t.dominant())},
                               {"share", t.dominant_share()}};
        }
        rows.push_back(row);
    }
    return rows;
}

}  // namespace tokenscope::cli
