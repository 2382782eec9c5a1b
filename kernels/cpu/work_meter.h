#pragma once

#include <cstdint>

#include "kernels/kernel_spec.h"

namespace tokenscope::kernels::cpu {

// Counts one kernel's work as its loops run, in the planner's units (pass_builder.h)
// so the two can be compared exactly. The reference computes in fp32 but bills
// activations, weights and the KV cache at the modelled dtype's width: it stands in
// for the GPU kernel, whose traffic is what the counts describe. Token ids, logits
// and beam scores are 4 bytes everywhere. Bytes are distinct elements touched once
// (an ideal cache), the convention of every roofline count.
class WorkMeter {
  public:
    WorkMeter(KernelOp op, bool draft, std::int32_t layer, std::uint64_t dtype_bytes)
        : dtype_bytes_(dtype_bytes) {
        spec_.op = op;
        spec_.draft = draft;
        spec_.layer = layer;
    }

    void flops(std::uint64_t n) { spec_.flops += n; }
    void read(std::uint64_t elements) { spec_.bytes_read += elements * dtype_bytes_; }
    void write(std::uint64_t elements) { spec_.bytes_written += elements * dtype_bytes_; }
    void read_word(std::uint64_t words) { spec_.bytes_read += words * 4; }
    void write_word(std::uint64_t words) { spec_.bytes_written += words * 4; }

    const KernelSpec& spec() const { return spec_; }

  private:
    std::uint64_t dtype_bytes_;
    KernelSpec spec_;
};

}  // namespace tokenscope::kernels::cpu
