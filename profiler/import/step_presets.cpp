#include "step_presets.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <tuple>

namespace tokenscope::import {
namespace {

struct Preset {
    std::string_view name;
    std::string_view shape;  // what the marker looks like, for diagnostics
    std::regex regex;
    // Fills the marker from the regex groups.
    void (*read)(const std::smatch& m, StepMarker& out);
};

std::int32_t group_int(const std::smatch& m, std::size_t i) {
    if (i >= m.size() || !m[i].matched) return -1;
    std::int64_t v = 0;
    const std::string text = m[i].str();
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || v > std::numeric_limits<std::int32_t>::max()) return -1;
    return static_cast<std::int32_t>(v);
}

std::optional<std::int64_t> group_number(const std::smatch& m, std::size_t i) {
    std::int32_t v = group_int(m, i);
    return v >= 0 ? std::optional<std::int64_t>(v) : std::nullopt;
}

// "ProfilerStep#12" -> 12; none when the name does not end in a number.
std::optional<std::int64_t> trailing_number(std::string_view name) {
    std::size_t i = name.size();
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
    if (i == name.size() || name.size() - i > 9) return std::nullopt;
    std::int64_t v = 0;
    std::from_chars(name.data() + i, name.data() + name.size(), v);
    return v;
}

constexpr auto kFlags = std::regex::ECMAScript | std::regex::optimize;

// The engines' own code is the reference for these names: vLLM's
// GPUWorker.annotate_profile, TensorRT-LLM's PyExecutor._forward_step nvtx_range,
// SGLang's scheduler profile_range / nvtx_range names.
const std::vector<Preset>& presets() {
    static const std::vector<Preset> kPresets = [] {
        std::vector<Preset> p;
        p.push_back(
            {"vllm", "execute_context_N(T)_generation_N(T)",
             std::regex(R"(^execute_context_(\d+)\((\d+)\)_generation_(\d+)\((\d+)\)$)", kFlags),
             [](const std::smatch& m, StepMarker& out) {
                 out.batch = {group_int(m, 1), group_int(m, 2), group_int(m, 3), group_int(m, 4)};
             }});
        // New requests are scheduled for their (first chunk of) prefill; cached ones
        // are running, nearly always decoding. Token counts are not in this marker.
        p.push_back({"vllm-v0", "execute_new_N_cached_M",
                     std::regex(R"(^execute_new_(\d+)_cached_(\d+)$)", kFlags),
                     [](const std::smatch& m, StepMarker& out) {
                         out.batch = {group_int(m, 1), -1, group_int(m, 2), -1};
                     }});
        p.push_back({"tensorrt-llm", "[Executor] _forward_step I: N ctx reqs, M gen reqs",
                     std::regex(R"(^(?:\[Executor\] )?_forward_step(?: (\d+))?: (\d+) ctx reqs)"
                                R"((?:, (\d+) ctx tokens)?, (\d+) gen reqs)",
                                kFlags),
                     [](const std::smatch& m, StepMarker& out) {
                         out.number = group_number(m, 1);
                         out.batch = {group_int(m, 2), group_int(m, 3), group_int(m, 4), -1};
                     }});
        p.push_back({"sglang", "scheduler.run_batch",
                     std::regex(R"(^scheduler\.run_batch$)", kFlags),
                     [](const std::smatch&, StepMarker&) {}});
        p.push_back(
            {"pytorch", "ProfilerStep#N", std::regex(R"(^ProfilerStep#(\d+)$)", kFlags),
             [](const std::smatch& m, StepMarker& out) { out.number = group_number(m, 1); }});
        p.push_back({"generic", "step N, decode..., iteration...",
                     std::regex(R"(^(step[ _#]?(\d+)|decode.*|iteration.*)$)", kFlags),
                     [](const std::smatch& m, StepMarker& out) {
                         out.number = trailing_number(m[0].str());
                     }});
        return p;
    }();
    return kPresets;
}

std::optional<StepMarker> parse_with(const Preset& preset, const std::string& text) {
    std::smatch m;
    if (!std::regex_search(text, m, preset.regex)) return std::nullopt;
    StepMarker out;
    preset.read(m, out);
    return out;
}

// Index = the marker's number when every step has a distinct one, else the position.
void number_steps(std::vector<trace::Step>& steps,
                  const std::vector<std::optional<std::int64_t>>& numbers) {
    std::vector<std::int64_t> sorted;
    for (const auto& n : numbers)
        if (n) sorted.push_back(*n);
    std::sort(sorted.begin(), sorted.end());
    const bool use_numbers = sorted.size() == steps.size() &&
                             std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
    for (std::size_t i = 0; i < steps.size(); ++i)
        steps[i].index =
            static_cast<std::int32_t>(use_numbers ? *numbers[i] : static_cast<std::int64_t>(i));
}

}  // namespace

StepSelector::StepSelector(const std::string& pattern) : pattern_text_(pattern) {
    if (!pattern.empty()) pattern_ = std::regex(pattern, std::regex::ECMAScript);
}

std::vector<std::string_view> StepSelector::preset_names() {
    std::vector<std::string_view> out;
    for (const auto& p : presets()) out.push_back(p.name);
    return out;
}

std::optional<StepMarker> StepSelector::parse(std::string_view preset, std::string_view name) {
    for (const auto& p : presets())
        if (p.name == preset) return parse_with(p, std::string(name));
    return std::nullopt;
}

// The index of the first rule the name matches (0 for the explicit pattern), -1 for
// none; the marker is parsed once per distinct name.
int StepSelector::first_match(std::uint32_t name, const trace::RunData& run) {
    if (name >= match_of_name_.size()) {
        match_of_name_.resize(name + 1, -2);
    }
    if (match_of_name_[name] != -2) return match_of_name_[name];
    const std::string text(run.strings.str(name));
    std::int8_t hit = -1;
    if (explicit_pattern()) {
        if (std::regex_search(text, pattern_)) {
            hit = 0;
            StepMarker& m = marker_of_name_[name];
            m.number = trailing_number(text);
            // A pattern over an engine's markers still reads their batch composition.
            for (const auto& p : presets())
                if (auto parsed = parse_with(p, text); parsed && parsed->batch.known()) {
                    m.batch = parsed->batch;
                    break;
                }
        }
    } else {
        const auto& all = presets();
        for (std::size_t i = 0; i < all.size() && hit < 0; ++i)
            if (auto parsed = parse_with(all[i], text)) {
                hit = static_cast<std::int8_t>(i);
                marker_of_name_[name] = *parsed;
            }
    }
    match_of_name_[name] = hit;
    return hit;
}

std::vector<trace::Step> StepSelector::select(const std::vector<StepCandidate>& candidates,
                                              trace::RunData& run, std::vector<bool>* chosen) {
    int rule = std::numeric_limits<int>::max();
    for (const auto& c : candidates)
        if (int m = first_match(c.name, run); m >= 0) rule = std::min(rule, m);
    if (chosen) chosen->assign(candidates.size(), false);
    std::vector<std::size_t> used;
    for (std::size_t i = 0; i < candidates.size(); ++i)
        if (first_match(candidates[i].name, run) == rule) used.push_back(i);
    std::stable_sort(used.begin(), used.end(), [&](std::size_t a, std::size_t b) {
        return std::tie(candidates[a].start_ns, candidates[a].end_ns) <
               std::tie(candidates[b].start_ns, candidates[b].end_ns);
    });
    std::vector<trace::Step> steps;
    std::vector<std::optional<std::int64_t>> numbers;
    for (std::size_t k = 0; k < used.size(); ++k) {
        const std::size_t i = used[k];
        const StepCandidate& c = candidates[i];
        if (chosen) (*chosen)[i] = true;
        // Kineto writes ProfilerStep#N both as a cpu_op and a user annotation.
        if (k > 0 && candidates[used[k - 1]].start_ns == c.start_ns &&
            candidates[used[k - 1]].end_ns == c.end_ns)
            continue;
        const StepMarker& m = marker_of_name_.at(c.name);
        trace::Step s{0, 0, trace::Phase::Iteration, c.start_ns, c.end_ns, 0};
        s.batch = m.batch;
        if (s.batch.has_prefill()) s.phase = trace::Phase::Prefill;
        steps.push_back(s);
        numbers.push_back(m.number);
    }
    number_steps(steps, numbers);

    if (steps.empty()) {
        std::string text = explicit_pattern()
                               ? "no range matched the step pattern '" + pattern_text_ + "'"
                               : "no range matched an iteration preset (";
        if (!explicit_pattern()) {
            for (const auto& p : presets())
                text += std::string(p.name) + (p.name == "generic" ? "" : ", ");
            text += ")";
        }
        run.count_diagnostic("no_steps", trace::Severity::Info, 0,
                             text +
                                 ", so the run has no steps; pass --steps-from REGEX to "
                                 "frame iterations");
    } else if (explicit_pattern()) {
        run.count_diagnostic("step_pattern", trace::Severity::Info,
                             static_cast<double>(steps.size()),
                             "steps framed by the ranges matching '" + pattern_text_ + "'");
    } else {
        const Preset& p = presets()[static_cast<std::size_t>(rule)];
        run.count_diagnostic(
            "step_preset", trace::Severity::Info, static_cast<double>(steps.size()),
            "steps framed by the " + std::string(p.name) + " preset (" + std::string(p.shape) +
                "), the first that matched; --steps-from REGEX overrides it");
    }
    return steps;
}

}  // namespace tokenscope::import
