#pragma once

#include <cstdint>
#include <vector>

#include "work_meter.h"

// The samplers, one call per row (or per request's beams), billing like the planner:
// logits, ids and scores are 4-byte words.
namespace tokenscope::kernels::cpu {

// Index of the largest value, the lowest index among equal maxima. Bills nothing.
std::int32_t argmax(const float* row, std::int64_t n);

// Greedy: argmax of one row of logits, one compare per logit.
std::int32_t argmax_sample(const float* row, std::int64_t vocab, WorkMeter& meter);

// Top-k at temperature 1: the k largest logits (ties to the lower id), softmax over
// them in double, and the first id whose cumulative probability exceeds u * total
// (u uniform in [0, 1), drawn by the caller from its seeded stream).
std::int32_t topk_sample(const float* row, std::int64_t vocab, std::int64_t k, double u,
                         WorkMeter& meter);

struct BeamChoice {
    std::int32_t parent = 0;  // beam (within the request) the candidate extends
    std::int32_t token = 0;
    double score = 0.0;  // parent's score + log-softmax of the token, in double
};

// One request's beam step: the `beams` best (score desc, then parent * vocab + token
// asc) of every beam's extension. `logits` holds `beams` rows; a beam scored -inf (all
// but the first after prefill, whose beams are identical) can never be chosen.
std::vector<BeamChoice> beam_select(const float* logits, const double* scores, std::int64_t beams,
                                    std::int64_t vocab, WorkMeter& meter);

struct SpecVerdict {
    std::vector<std::int32_t> targets;  // the target's argmax for each verified row
    std::int32_t accepted = 0;          // leading drafted ids equal to the targets
};

// Speculative verification of one sequence: rows = gamma + 1 logit rows (positions
// cached .. cached + gamma), `drafted` the gamma ids the draft proposed.
SpecVerdict spec_verify(const float* logits, std::int64_t vocab, const std::int32_t* drafted,
                        std::int64_t gamma, WorkMeter& meter);

}  // namespace tokenscope::kernels::cpu
