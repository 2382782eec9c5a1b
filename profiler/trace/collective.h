#pragma once

#include <string_view>

namespace tokenscope::trace {

// True for a kernel of a collective communication library: NCCL's kernels are named
// ncclKernel_*, ncclDevKernel_* (2.19+) or, before 2.8, nccl<Op>...Kernel_*, with a
// "void " return type in some demanglings. The one rule that both the rank merge
// (matching the same collective across ranks) and attribution (nvlink or pcie) use.
inline bool is_collective_kernel(std::string_view name) {
    for (std::size_t i = 0; i + 4 <= name.size(); ++i) {
        if ((name[i] | 0x20) == 'n' && (name[i + 1] | 0x20) == 'c' && (name[i + 2] | 0x20) == 'c' &&
            (name[i + 3] | 0x20) == 'l')
            return true;
        if (name[i] == '(' || name[i] == '<') return false;  // only the function's own name
    }
    return false;
}

}  // namespace tokenscope::trace
