#include "step_presets.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
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

// SGLang's step span: EXTEND is prefill (every request of the batch extends), DECODE
// one token a request; other modes (MIXED, IDLE, TARGET_VERIFY, ...) say only the size.
void read_sglang(const std::smatch& m, StepMarker& out) {
    if (!m[1].matched) return;  // _run_batch_inner / run_batch: no composition
    const std::string mode = m[1].str();
    const std::int32_t bs = group_int(m, 2), toks = group_int(m, 3);
    if (mode == "EXTEND")
        out.batch = {bs, toks, 0, 0};
    else if (mode == "DECODE")
        out.batch = {0, 0, bs, toks >= 0 ? toks : bs};
    else if (mode == "IDLE")
        out.batch = {0, 0, 0, 0};
}

// The engines' own code is the reference for these names: vLLM's
// GPUWorker.annotate_profile and GPUModelRunner.execute_model, TensorRT-LLM's
// PyExecutor._forward_step nvtx_range, SGLang's scheduler profile_range and
// ModelRunner._build_step_span_name ("step[EXTEND bs={bs} toks={n}]", "step[{MODE} bs={bs}]").
// The fixtures' markers are real ones: docs/engine-traces.md, Iterations.
const std::vector<Preset>& presets() {
    static const std::vector<Preset> kPresets = [] {
        std::vector<Preset> p;
        // "(888_788544)": tokens, then the sum of their squares, which we do not need.
        p.push_back(
            {"vllm", "execute_context_N(T)_generation_N(T)",
             std::regex(R"(^execute_context_(\d+)\((\d+)(?:_\d+)?\))"
                        R"(_generation_(\d+)\((\d+)(?:_\d+)?\)$)",
                        kFlags),
             [](const std::smatch& m, StepMarker& out) {
                 out.batch = {group_int(m, 1), group_int(m, 2), group_int(m, 3), group_int(m, 4)};
             }});
        // execute_8192_context_9(sq8155sk8430sqsq…sqsk…)_generation_37(sq37sk34489…): the
        // scheduled tokens, then per phase the requests, the sums of their query (sq) and
        // key (sk) lengths, and sums of products the cost model of the engine uses.
        p.push_back({"vllm-sq", "execute_T_context_N(sq…sk…)_generation_N(sq…sk…)",
                     std::regex(R"(^execute_(\d+)_context_(\d+)\(sq(\d+)sk(\d+)[^)]*\))"
                                R"(_generation_(\d+)\(sq(\d+)sk(\d+)[^)]*\)$)",
                                kFlags),
                     [](const std::smatch& m, StepMarker& out) {
                         out.batch = {group_int(m, 2), group_int(m, 3), group_int(m, 5),
                                      group_int(m, 6), group_int(m, 4), group_int(m, 7)};
                     }});
        // New requests are scheduled for their (first chunk of) prefill; cached ones
        // are running, nearly always decoding. Token counts are not in this marker.
        p.push_back({"vllm-v0", "execute_new_N_cached_M",
                     std::regex(R"(^execute_new_(\d+)_cached_(\d+)$)", kFlags),
                     [](const std::smatch& m, StepMarker& out) {
                         out.batch = {group_int(m, 1), -1, group_int(m, 2), -1};
                     }});
        // A Python stack (with_stack=True) without vLLM's annotations: the model runner's
        // execute_model is one iteration (the worker's execute_model around it is not
        // matched, so the pair counts once even across files of other layouts).
        p.push_back({"vllm-python", "gpu_model_runner.py(L): execute_model",
                     std::regex(R"(gpu_model_runner\.py\(\d+\): execute_model$)", kFlags),
                     [](const std::smatch&, StepMarker&) {}});
        p.push_back({"tensorrt-llm", "[Executor] _forward_step I: N ctx reqs, M gen reqs",
                     std::regex(R"(^(?:\[Executor\] )?_forward_step(?: (\d+))?: (\d+) ctx reqs)"
                                R"((?:, (\d+) ctx tokens)?, (\d+) gen reqs)",
                                kFlags),
                     [](const std::smatch& m, StepMarker& out) {
                         out.number = group_number(m, 1);
                         out.batch = {group_int(m, 2), group_int(m, 3), group_int(m, 4), -1};
                     }});
        p.push_back(
            {"sglang", "step[DECODE bs=N], step[EXTEND bs=N toks=T], _run_batch_inner",
             std::regex(R"(^step\[([A-Z_]+)(?: [a-z-]+)? bs=(\d+)(?: toks=(\d+))?\]$)"
                        R"(|^scheduler\.run_batch$|scheduler\.py\(\d+\): _run_batch_inner$)",
                        kFlags),
             read_sglang});
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

// The candidates of `rule` that frame an iteration, in start order: of markers nested on
// one thread (or repeated: Kineto writes ProfilerStep#N as a cpu_op and an annotation)
// only the outermost. A nested marker's batch composition passes to the one that
// contains it when that one has none (SGLang's step[DECODE bs=32] inside _run_batch_inner).
std::vector<std::size_t> StepSelector::outermost(const std::vector<StepCandidate>& candidates,
                                                 int rule, std::vector<bool>* chosen) {
    std::vector<std::size_t> used;
    for (std::size_t i = 0; i < candidates.size(); ++i)
        if (first_match(candidates[i].name, *run_) == rule) used.push_back(i);
    std::stable_sort(used.begin(), used.end(), [&](std::size_t a, std::size_t b) {
        return std::tie(candidates[a].start_ns, candidates[b].end_ns) <
               std::tie(candidates[b].start_ns, candidates[a].end_ns);  // outer first
    });
    std::vector<std::size_t> kept;
    // The latest kept marker of each thread: markers of one thread nest or follow.
    std::unordered_map<std::uint64_t, std::size_t> open;
    for (std::size_t i : used) {
        if (chosen) (*chosen)[i] = true;
        const StepCandidate& c = candidates[i];
        auto it = open.find(c.thread);
        if (it != open.end() && c.end_ns <= candidates[it->second].end_ns) {
            StepMarker& outer = marker_of_name_.at(candidates[it->second].name);
            const StepMarker& inner = marker_of_name_.at(c.name);
            if (!outer.batch.known() && inner.batch.known())
                nested_batch_[it->second] = inner.batch;
            ++nested_;
            continue;
        }
        open[c.thread] = i;
        kept.push_back(i);
    }
    return kept;
}

std::vector<trace::Step> StepSelector::select(const std::vector<StepCandidate>& candidates,
                                              trace::RunData& run, std::vector<bool>* chosen,
                                              std::vector<std::size_t>* sources) {
    run_ = &run;
    nested_ = 0;
    nested_batch_.clear();
    int rule = std::numeric_limits<int>::max();
    for (const auto& c : candidates)
        if (int m = first_match(c.name, run); m >= 0) rule = std::min(rule, m);
    if (chosen) chosen->assign(candidates.size(), false);
    const std::vector<std::size_t> kept = outermost(candidates, rule, chosen);
    std::vector<trace::Step> steps;
    std::vector<std::optional<std::int64_t>> numbers;
    std::vector<StepCandidate> used;
    for (std::size_t i : kept) {
        const StepCandidate& c = candidates[i];
        const StepMarker& m = marker_of_name_.at(c.name);
        trace::Step s{0, 0, trace::Phase::Iteration, c.start_ns, c.end_ns, 0};
        auto nested = nested_batch_.find(i);
        s.batch = nested != nested_batch_.end() ? nested->second : m.batch;
        s.marker_end_ns = c.end_ns;
        if (s.batch.has_prefill()) s.phase = trace::Phase::Prefill;
        steps.push_back(s);
        numbers.push_back(m.number);
        used.push_back(c);
    }
    number_steps(steps, numbers);
    if (sources) *sources = kept;
    report(steps, used, rule, run);
    run_ = nullptr;
    return steps;
}

// The diagnostic that says how the steps were framed, or why there are none.
void StepSelector::report(const std::vector<trace::Step>& steps,
                          const std::vector<StepCandidate>& used, int rule,
                          trace::RunData& run) const {
    if (steps.empty()) {
        std::string text = explicit_pattern()
                               ? "no marker matched the step pattern '" + pattern_text_ + "'"
                               : "no marker matched an iteration preset (";
        if (!explicit_pattern()) {
            for (const auto& p : presets())
                text += std::string(p.name) + (p.name == "generic" ? "" : ", ");
            text += ")";
        }
        run.count_diagnostic("no_steps", trace::Severity::Info, 0,
                             text +
                                 ", so the run has no steps; give a step pattern "
                                 "(--steps-from REGEX) to frame iterations");
        return;
    }
    std::map<MarkerKind, std::size_t> kinds;
    for (const auto& c : used) ++kinds[c.kind];
    std::string of_kinds;
    for (const auto& [kind, n] : kinds)
        of_kinds += (of_kinds.empty() ? "" : ", ") + std::to_string(n) + " " +
                    std::string(to_string(kind)) + (n == 1 ? "" : "s");
    std::string nested;
    if (nested_ > 0)
        nested = "; " + std::to_string(nested_) + " marker" + (nested_ == 1 ? "" : "s") +
                 " nested in them counted once";
    if (explicit_pattern()) {
        run.count_diagnostic("step_pattern", trace::Severity::Info,
                             static_cast<double>(steps.size()),
                             "steps framed by the markers matching '" + pattern_text_ + "' (" +
                                 of_kinds + ")" + nested);
        return;
    }
    const Preset& p = presets()[static_cast<std::size_t>(rule)];
    run.count_diagnostic("step_preset", trace::Severity::Info, static_cast<double>(steps.size()),
                         "steps framed by the " + std::string(p.name) + " preset (" +
                             std::string(p.shape) + ") on " + of_kinds + nested +
                             "; the first preset that matched; a step pattern "
                             "(--steps-from REGEX) overrides it");
}

std::string_view to_string(MarkerKind kind) {
    switch (kind) {
        case MarkerKind::Annotation:
            return "user annotation";
        case MarkerKind::PythonFunction:
            return "Python function";
        case MarkerKind::CpuOp:
            return "CPU op";
        case MarkerKind::Nvtx:
            return "NVTX range";
    }
    return "marker";
}

}  // namespace tokenscope::import
