// One libFuzzer program per case of fuzz_cases.h; CMake names the case with
// TOKENSCOPE_FUZZ_CASE (nsys_case, kineto_case, ...).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_cases.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tokenscope::fuzz::TOKENSCOPE_FUZZ_CASE(
        std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
