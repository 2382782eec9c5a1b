#include "kernel_names.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <utility>

namespace tokenscope::capture::cupti {

std::uint32_t KernelNames::intern(const char* mangled) {
    if (mangled == nullptr) return writer_.intern("(unnamed kernel)");
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> demangled(
        abi::__cxa_demangle(mangled, nullptr, nullptr, &status), &std::free);
    // extern "C" kernels are not mangled names; they are kept as they are.
    std::string text = status == 0 && demangled ? demangled.get() : mangled;
    const std::uint32_t id = writer_.intern(text);
    texts_.try_emplace(id, std::move(text));
    return id;
}

}  // namespace tokenscope::capture::cupti
