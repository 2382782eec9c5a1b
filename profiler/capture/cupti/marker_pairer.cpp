#include "marker_pairer.h"

namespace tokenscope::capture::cupti {

std::optional<MarkerPairer::Range> MarkerPairer::start(std::uint32_t id, const Open& open) {
    if (auto it = ends_.find(id); it != ends_.end()) {
        Range r{open, it->second};
        ends_.erase(it);
        return r;
    }
    starts_[id] = open;
    return std::nullopt;
}

std::optional<MarkerPairer::Range> MarkerPairer::end(std::uint32_t id, std::int64_t end_ns) {
    if (auto it = starts_.find(id); it != starts_.end()) {
        Range r{it->second, end_ns};
        starts_.erase(it);
        return r;
    }
    ends_[id] = end_ns;
    return std::nullopt;
}

}  // namespace tokenscope::capture::cupti
