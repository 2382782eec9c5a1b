#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "capture/cuda/cuda_backend.h"

namespace tokenscope::capture::cupti {

// tokenscope-gpu-overhead: the TPOT cost of tracing. Runs the built-in workload
// alternately untraced (CudaDecodeRunner alone) and traced (the cuda backend into a
// .tokenscope file), `repeats` times each, and prints the median TPOT of both and
// their ratio. Arguments: [--model NAME] [--tokens N] [--batch N] [--prompt N]
// [--repeats N] [--cuda-graphs] [--out FILE]. Returns 0, 2 for bad arguments, 3 ("no GPU") when the
// cuda backend is not available, 1 when a run fails. `probe` replaces the libcuda probe (tests).
int gpu_overhead_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                      CudaBackend::ProbeFn probe = {});

}  // namespace tokenscope::capture::cupti
