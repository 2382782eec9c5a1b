#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tokenscope::analysis {

// The one rule by which text tables, legends and axes shorten a demangled kernel
// name: drop the return type, the template arguments, the parameter list and the
// namespaces, so
//   void at::native::vectorized_elementwise_kernel<4, ...>(int, ...)
// reads vectorized_elementwise_kernel. A generic wrapper (cutlass::Kernel<Op>,
// device_kernel<Op>) reads as its first template argument, shortened the same way,
// since the wrapper's own name says nothing. A name that is not a C++ signature
// ("Memcpy DtoD (Device -> Device)", "gemv_split_k") comes back unchanged. JSON, CSV,
// hover texts and search keep the full name.
std::string short_kernel_name(std::string_view full);

// The short names of a list of kernels shown side by side (heatmap rows): where
// different full names shorten alike (three vectorized_elementwise_kernel
// instantiations), each gets " #k", its place among them in list order, so no
// two rows read the same. A name listed twice is the same kernel: no suffix.
std::vector<std::string> distinct_short_kernel_names(const std::vector<std::string>& full);

}  // namespace tokenscope::analysis
