#include "run_label.h"

namespace tokenscope::trace {

std::string run_label(const RunInfo& info, std::string_view fallback) {
    constexpr std::string_view kMark = "(model)";
    std::string name = info.name.empty() ? std::string(fallback) : info.name;
    if (info.is_model() && name.find(kMark) == std::string::npos) name += " " + std::string(kMark);
    return name;
}

}  // namespace tokenscope::trace
