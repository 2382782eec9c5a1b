#pragma once

#include <iosfwd>
#include <span>
#include <string>

namespace tokenscope::kernels::cuda {

// tokenscope-gpu-decode: the built-in decode on the GPU with no tracer of its own, for
// timing it alone and for running it under another tracer (nsys, tokenscope-cli
// capture). Decodes greedily `repeats` times after one warm-up run and prints, per
// run, the median TTFT and TPOT over requests, then their medians over runs
// ("median tpot_us 5.95e3"). Options: --model NAME (llama-1b) --batch N (8)
// --prompt N (512) --tokens N (64) --repeats N (3) --cuda-graphs. Exit status: 0 done,
// 1 bad usage, 2 CUDA failure, 3 no GPU.
int run_gpu_decode(std::span<const std::string> args, std::ostream& out, std::ostream& err);

}  // namespace tokenscope::kernels::cuda
