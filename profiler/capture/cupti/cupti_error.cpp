#include <string>

#include "cupti_error.h"

namespace tokenscope::capture::cupti {
namespace {

std::string describe(const char* call, CUptiResult result) {
    const char* text = nullptr;
    if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || text == nullptr)
        text = "unknown CUPTI error";
    return std::string("CUPTI: ") + call + " failed: " + text + " (" +
           std::to_string(static_cast<int>(result)) + ")";
}

}  // namespace

CuptiError::CuptiError(const char* call, CUptiResult result)
    : std::runtime_error(describe(call, result)), result_(result) {}

}  // namespace tokenscope::capture::cupti
