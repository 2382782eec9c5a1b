#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "trace/run_data.h"

namespace tokenscope::analysis {

// What a GPU operation does in a model's forward pass, read from its name
// (docs/engine-traces.md, Kernel roles). Runs whose kernel names differ (cuBLAS on an
// H100, Tensile's Cijk_* on an MI300X) compare by role. The order is the order of
// reports; Other is last.
enum class KernelRole : std::uint8_t {
    Gemm,           // matrix multiplies: GEMM, GEMV, grouped/MoE GEMM, convolution
    Attention,      // attention, its KV-cache writes and its split-KV reductions
    Communication,  // collectives and expert-parallel dispatch/combine (trace/collective.h)
    Normalization,  // RMSNorm, LayerNorm, batch norm, softmax
    Elementwise,    // activations, elementwise and other tensor glue (rotary, routing, ...)
    Sampling,       // token sampling: argmax, top-k/top-p, penalties
    Copy,           // memcpy, memset and copy/cast/layout kernels
    Other,          // a name that says none of these
};

inline constexpr std::size_t kKernelRoleCount = 8;
inline constexpr std::array<KernelRole, kKernelRoleCount> kKernelRoles = {
    KernelRole::Gemm,          KernelRole::Attention,   KernelRole::Communication,
    KernelRole::Normalization, KernelRole::Elementwise, KernelRole::Sampling,
    KernelRole::Copy,          KernelRole::Other};

// Lower-case keys for JSON and CSV: "gemm", "attention", ..., "other".
std::string_view to_string(KernelRole role);
// For people: "GEMM", "Attention", "Communication", "Normalisation", ...
std::string_view display_name(KernelRole role);
std::optional<KernelRole> kernel_role_from_string(std::string_view key);

// The role of a kernel by its name (demangled, mangled, Triton or Tensile). The first
// rule that matches wins, in the order communication, attention, GEMM, sampling,
// normalisation, copy, elementwise; so a flash-attention kernel whose template
// arguments name cutlass is attention, and a reduce_kernel over ArgMaxOps is sampling.
KernelRole kernel_role(std::string_view name);

// kernel_role() for a run's activities, looked up once per interned name: a run has
// millions of kernels but a few hundred names.
class KernelRoles {
  public:
    explicit KernelRoles(const trace::RunData& run);

    // The role of a GPU operation: memcpy and memset are Copy, a kernel by its name;
    // nullopt for host activities and for "kernels" the cpu backend ran on host threads
    // (they are CPU time, as attribution counts them).
    std::optional<KernelRole> of(const trace::Activity& a);
    KernelRole of_name(std::uint32_t name);

  private:
    const trace::RunData& run_;
    std::vector<std::uint8_t> cache_;  // per name id: 0 = not looked up, else 1 + role
};

}  // namespace tokenscope::analysis
