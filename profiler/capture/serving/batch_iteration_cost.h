#pragma once

#include <cstdint>
#include <vector>

#include "kernels/cost_model.h"
#include "kernels/kernel_spec.h"
#include "kernels/model_shape.h"

namespace tokenscope::capture {

// What one sequence contributes to a continuous-batching iteration: `positions` new
// tokens after `cached` ones (a prefill chunk, or 1 for a decode step), and whether
// it samples a token (a decode step, or the chunk that ends its prompt).
struct BatchSlice {
    std::int64_t cached = 0;
    std::int64_t positions = 1;
    bool samples = true;
};

// The kernels of one forward pass over a ragged batch, from the workload's own
// formulas (kernels::PassBuilder): the GEMMs run over all the iteration's tokens
// at once, so the weights are read once; attention sums each sequence's causal
// pairs and KV-cache reads; only sampling rows reach the LM head (greedy argmax).
// Every block is the same, so one block is planned and its cost repeated.
struct BatchIteration {
    std::vector<kernels::KernelSpec> prefix;  // embedding
    std::vector<kernels::KernelSpec> layer;   // one block's kernels (layer index 0)
    std::vector<kernels::KernelSpec> suffix;  // final norm, LM head, argmax
    std::int64_t layers = 0;
};

class BatchIterationCost {
  public:
    BatchIterationCost(const kernels::ModelShape& shape, const kernels::Roofline& roofline);

    BatchIteration plan(const std::vector<BatchSlice>& slices) const;
    std::int64_t kernel_ns(const kernels::KernelSpec& k) const { return cost_.kernel_ns(k); }
    // Sum of kernel times, each stretched by d + ceil(d * stretch) (the iteration's jitter).
    std::int64_t total_ns(const BatchIteration& it, double stretch) const;
    std::int64_t stretched_ns(const kernels::KernelSpec& k, double stretch) const;

  private:
    kernels::ModelShape shape_;
    kernels::CostModel cost_;
};

}  // namespace tokenscope::capture
