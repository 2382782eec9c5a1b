#include "tool_figures.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace tokenscope::import::client {
namespace {

nlohmann::json workload_of(const trace::RunData& run) {
    nlohmann::json w = nlohmann::json::parse(run.info.workload_json, nullptr, false);
    return w.is_object() ? w : nlohmann::json::object();
}

nlohmann::json figure_json(const ToolFigure& f) {
    nlohmann::json j = {{"tool", f.tool},
                        {"file", f.file},
                        {"field", f.field},
                        {"label", f.label},
                        {"definition", f.definition},
                        {"metric", f.metric},
                        {"stat", f.stat},
                        {"same_definition", f.same_definition},
                        {"value_ns", f.value_ns},
                        {"recomputed_ns", nullptr},
                        {"recomputed_from", f.recomputed_from}};
    if (f.recomputed_ns) j["recomputed_ns"] = *f.recomputed_ns;
    return j;
}

}  // namespace

void write_tool_figures(trace::RunData& run, const std::vector<ToolFigure>& figures) {
    if (figures.empty()) return;
    nlohmann::json w = workload_of(run);
    nlohmann::json& list = w["tool_figures"];
    if (!list.is_array()) list = nlohmann::json::array();
    for (const auto& f : figures)
        if (std::isfinite(f.value_ns)) list.push_back(figure_json(f));
    run.info.workload_json = w.dump();
}

void write_measurement_window(trace::RunData& run, const MeasurementWindow& window) {
    nlohmann::json w = workload_of(run);
    nlohmann::json m = {{"tool", window.tool},
                        {"rule", window.rule},
                        {"start_ns", nullptr},
                        {"end_ns", nullptr},
                        {"warmup_requests", window.warmup},
                        {"cooldown_requests", window.cooldown}};
    if (window.start_ns) m["start_ns"] = *window.start_ns;
    if (window.end_ns) m["end_ns"] = *window.end_ns;
    w["measurement_window"] = m;
    run.info.workload_json = w.dump();
}

void write_load(trace::RunData& run, const char* key, std::optional<double> value) {
    if (!value || !std::isfinite(*value)) return;
    nlohmann::json w = workload_of(run);
    w[key] = *value;
    run.info.workload_json = w.dump();
}

namespace tool_stats {

std::optional<double> percent_of(const std::string& stat) {
    if (stat.size() < 2 || stat[0] != 'p') return std::nullopt;
    char* end = nullptr;
    double p = std::strtod(stat.c_str() + 1, &end);
    if (end == nullptr || *end != '\0' || !(p >= 0 && p <= 100)) return std::nullopt;
    return p;
}

std::optional<double> numpy_stat(std::vector<double> v, const std::string& stat) {
    if (v.empty()) return std::nullopt;
    double mean = 0;
    for (double x : v) mean += x;
    mean /= static_cast<double>(v.size());
    if (stat == "mean") return mean;
    if (stat == "std") {
        double sum = 0;
        for (double x : v) sum += (x - mean) * (x - mean);
        return std::sqrt(sum / static_cast<double>(v.size()));
    }
    auto p = percent_of(stat);
    if (!p) return std::nullopt;
    std::sort(v.begin(), v.end());
    double rank = *p / 100.0 * static_cast<double>(v.size() - 1);
    auto lo = static_cast<std::size_t>(std::floor(rank));
    std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - static_cast<double>(lo));
}

std::optional<double> guidellm_stat(std::vector<Weighted> v, const std::string& stat) {
    std::sort(v.begin(), v.end(),
              [](const Weighted& a, const Weighted& b) { return a.value < b.value; });
    // Equal values merged (numpy.unique), values of zero weight dropped.
    std::vector<Weighted> pdf;
    for (const auto& w : v) {
        if (!pdf.empty() && pdf.back().value == w.value)
            pdf.back().weight += w.weight;
        else
            pdf.push_back(w);
    }
    std::erase_if(pdf, [](const Weighted& w) { return !(w.weight > 0); });
    if (pdf.empty()) return std::nullopt;
    double total = 0;
    for (const auto& w : pdf) total += w.weight;
    if (total <= 1e-6) {  // guidellm falls back to equal weights
        for (auto& w : pdf) w.weight = 1;
        total = static_cast<double>(pdf.size());
    }
    double mean = 0;
    for (const auto& w : pdf) mean += w.value * (w.weight / total);
    if (stat == "mean") return mean;
    if (stat == "std") {
        double var = 0;
        for (const auto& w : pdf) var += (w.value - mean) * (w.value - mean) * (w.weight / total);
        return std::sqrt(var);
    }
    auto p = percent_of(stat);
    if (!p) return std::nullopt;
    const double q = *p / 100.0;
    double cdf = 0;
    for (const auto& w : pdf) {
        cdf += w.weight / total;
        if (cdf >= q) return w.value;
    }
    return pdf.back().value;  // rounding left the last cumulative sum just below q
}

}  // namespace tool_stats

}  // namespace tokenscope::import::client
