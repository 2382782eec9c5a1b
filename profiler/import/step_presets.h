#pragma once

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trace/run_data.h"

namespace tokenscope::import {

// What kind of CPU-side marker a candidate is; every kind may frame an iteration.
enum class MarkerKind : std::uint8_t { Annotation, PythonFunction, CpuOp, Nvtx };
std::string_view to_string(MarkerKind kind);

// A host range that may frame an engine iteration: a Kineto user annotation, Python
// function or CPU op, or an NVTX range.
struct StepCandidate {
    std::uint32_t name = 0;  // interned in the run's string table
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
    MarkerKind kind = MarkerKind::Annotation;
    std::uint64_t thread = 0;  // the host thread it ran on: nested markers share one
    int host_lane = -1;        // the lane of that thread's API calls; -1 = none
};

// What one marker's text says about its iteration.
struct StepMarker {
    std::optional<std::int64_t> number;  // iteration number in the name, if any
    trace::BatchComposition batch;
};

// Iteration markers the engines write (docs/engine-traces.md, Iterations), tried in order:
//   vllm         execute_context_N(T)_generation_N(T), also (T_T²)  (vLLM V1 GPU worker)
//   vllm-sq      execute_T_context_N(sq…sk…)_generation_N(sq…sk…)   (newer vLLM V1, SGLang)
//   vllm-v0      execute_new_N_cached_M                              (older vLLM GPU worker)
//   vllm-python  …gpu_model_runner.py(L): execute_model              (vLLM V1, Python stacks)
//   tensorrt-llm [Executor] _forward_step I: N ctx reqs[, T ctx tokens], M gen reqs
//   sglang       step[DECODE bs=N], step[EXTEND bs=N toks=T], …scheduler.py(L):
//                _run_batch_inner, scheduler.run_batch
//   pytorch      ProfilerStep#N
//   generic      step N, decode..., iteration...
// The first preset that matches any candidate frames the steps; an explicit
// pattern (--steps-from) replaces them all. Of markers nested on one thread (SGLang's
// execute_… around step[DECODE…], vLLM's worker execute_model around the runner's) the
// outermost frames the iteration, once.
class StepSelector {
  public:
    // Empty pattern: the presets. Throws std::regex_error for a bad pattern.
    explicit StepSelector(const std::string& pattern);

    // True when the name matches a preset or the pattern: only such ranges need to be
    // kept as candidates (a trace has hundreds of thousands of CPU ops).
    bool may_frame(std::uint32_t name, const trace::RunData& run) {
        return first_match(name, run) >= 0;
    }

    // The steps framed by the first matching preset (or the pattern), in start order,
    // numbered by the marker's number where every step has a distinct one, else by
    // position; each step's marker_end_ns is its marker's end. Marks chosen[i] for the
    // candidates used, and gives the candidate of each step in sources, when given. Adds
    // a "step_preset" diagnostic naming the preset and the marker kind used, or "no_steps".
    std::vector<trace::Step> select(const std::vector<StepCandidate>& candidates,
                                    trace::RunData& run, std::vector<bool>* chosen = nullptr,
                                    std::vector<std::size_t>* sources = nullptr);

    bool explicit_pattern() const { return !pattern_text_.empty(); }

    // The preset names in the order they are tried.
    static std::vector<std::string_view> preset_names();
    // Parses one name with one preset; nullopt when it does not match.
    static std::optional<StepMarker> parse(std::string_view preset, std::string_view name);

  private:
    int first_match(std::uint32_t name, const trace::RunData& run);
    std::vector<std::size_t> outermost(const std::vector<StepCandidate>& candidates, int rule,
                                       std::vector<bool>* chosen);
    void report(const std::vector<trace::Step>& steps, const std::vector<StepCandidate>& used,
                int rule, trace::RunData& run) const;

    std::string pattern_text_;
    std::regex pattern_;
    std::vector<std::int8_t> match_of_name_;  // per name id: -2 untested, -1 none, else rule
    std::unordered_map<std::uint32_t, StepMarker> marker_of_name_;  // matched names only
    // select()'s state: the run, the markers nested in a kept one, and the compositions
    // kept markers take from their nested ones (by candidate index).
    trace::RunData* run_ = nullptr;
    std::size_t nested_ = 0;
    std::unordered_map<std::size_t, trace::BatchComposition> nested_batch_;
};

}  // namespace tokenscope::import
