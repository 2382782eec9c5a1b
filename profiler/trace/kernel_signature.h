#pragma once

#include <string>
#include <string_view>

namespace tokenscope::trace {

// Reading a demangled kernel name as a C++ signature: the one scan that the capture's
// kernel-plan matcher and the analysis's kernel roles both need, kept here because
// capture may not use analysis (docs/architecture.md, Layout and dependency rule).

// The name up to its parameter list: cut at the first '(' outside template arguments
// that does not open "(anonymous namespace)". Lambdas' parentheses sit inside template
// arguments, so they stay. A name without a parameter list comes back whole.
std::string_view signature_head(std::string_view demangled);

// "void cublasLt::epilogue::impl::globalKernel<8, float>(int)" ->
// "cublasLt::epilogue::impl::globalKernel": the signature head without its return type
// and template arguments, namespaces kept. A name that leaves nothing comes back whole.
std::string qualified_kernel_name(std::string_view demangled);

}  // namespace tokenscope::trace
