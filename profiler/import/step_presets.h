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

// A host range that may frame an engine iteration: an NVTX range, a Kineto user
// annotation, a ProfilerStep#N.
struct StepCandidate {
    std::uint32_t name = 0;  // interned in the run's string table
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
};

// What one marker's text says about its iteration.
struct StepMarker {
    std::optional<std::int64_t> number;  // iteration number in the name, if any
    trace::BatchComposition batch;
};

// Iteration markers the engines write (docs/engine-traces.md, Iterations), tried in order:
//   vllm        execute_context_N(T)_generation_N(T)  (vLLM v1 GPU worker)
//   vllm-v0     execute_new_N_cached_M                  (older vLLM GPU worker)
//   tensorrt-llm [Executor] _forward_step I: N ctx reqs[, T ctx tokens], M gen reqs
//   sglang      scheduler.run_batch                     (SGLang scheduler, NVTX/record_function)
//   pytorch     ProfilerStep#N
//   generic     step N, decode..., iteration...
// The first preset that matches any candidate frames the steps; an explicit
// pattern (--steps-from) replaces them all.
class StepSelector {
  public:
    // Empty pattern: the presets. Throws std::regex_error for a bad pattern.
    explicit StepSelector(const std::string& pattern);

    // The steps framed by the first matching preset (or the pattern), in start order,
    // numbered by the marker's number where every step has a distinct one, else by
    // position. Marks chosen[i] for the candidates used, when given. Adds a
    // "step_preset" diagnostic naming the preset used, or "no_steps".
    std::vector<trace::Step> select(const std::vector<StepCandidate>& candidates,
                                    trace::RunData& run, std::vector<bool>* chosen = nullptr);

    bool explicit_pattern() const { return !pattern_text_.empty(); }

    // The preset names in the order they are tried.
    static std::vector<std::string_view> preset_names();
    // Parses one name with one preset; nullopt when it does not match.
    static std::optional<StepMarker> parse(std::string_view preset, std::string_view name);

  private:
    int first_match(std::uint32_t name, const trace::RunData& run);

    std::string pattern_text_;
    std::regex pattern_;
    std::vector<std::int8_t> match_of_name_;  // per name id: -2 untested, -1 none, else rule
    std::unordered_map<std::uint32_t, StepMarker> marker_of_name_;  // matched names only
};

}  // namespace tokenscope::import
