#pragma once

#include <iosfwd>
#include <span>
#include <string>

namespace tokenscope::kernels::cuda {

// tokenscope-gpu-check: decodes greedily on the GPU and with the fp32 CPU reference
// (same weights, seed and prompts) and compares the tokens and the last logits.
// Options: --model NAME (tiny) --dtype fp16|bf16|fp32 (the preset's) --batch N (2)
// --tokens N (64) --prompt N (32) --cuda-graphs (decode as CUDA graphs). Exit status: 0 equal
// within tolerance, 1 mismatch or bad usage, 2 internal error (CUDA failure, no CPU reference
// built), 3 no GPU.
int run_gpu_check(std::span<const std::string> args, std::ostream& out, std::ostream& err);

// Allowed max |logit difference| relative to the largest |reference logit|: the
// storage dtype's rounding carried through the layers (fp32 accumulation everywhere).
double logit_tolerance(const std::string& dtype);

}  // namespace tokenscope::kernels::cuda
