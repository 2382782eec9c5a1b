#include <array>
#include <cmath>

#include "activity.h"
#include "diagnostic.h"
#include "gpu_info.h"
#include "lane.h"
#include "run_info.h"
#include "step.h"

namespace tokenscope::trace {
namespace {

// One table per enum, indexed by value; parsing searches the same table so
// the two directions cannot drift apart.
template <typename E, std::size_t N>
std::string_view name_of(const std::array<std::string_view, N>& names, E value) {
    auto i = static_cast<std::size_t>(value);
    return i < N ? names[i] : std::string_view("?");
}

template <typename E, std::size_t N>
std::optional<E> parse(const std::array<std::string_view, N>& names, std::string_view text) {
    for (std::size_t i = 0; i < N; ++i)
        if (names[i] == text) return static_cast<E>(i);
    return std::nullopt;
}

constexpr std::array<std::string_view, kActivityKindCount> kActivityKinds = {
    "kernel", "memcpy", "memset", "api", "sync", "range", "marker"};
constexpr std::array<std::string_view, kCopyKindCount> kCopyKinds = {"none", "h2d", "d2h",
                                                                     "d2d",  "p2p", "h2h"};
constexpr std::array<std::string_view, 5> kLaneKinds = {"cpu_thread", "gpu_stream", "copy_engine",
                                                        "counter", "step_track"};
constexpr std::array<std::string_view, 3> kPhases = {"prefill", "decode", "iteration"};
constexpr std::array<std::string_view, 3> kSeverities = {"info", "data_loss", "error"};
constexpr std::array<std::string_view, 7> kSources = {"cuda", "inject", "cpu",  "model",
                                                      "nsys", "kineto", "bench"};
constexpr std::array<std::string_view, 3> kClocks = {"monotonic_raw", "cupti", "source_file"};

}  // namespace

std::string_view to_string(ActivityKind v) {
    return name_of(kActivityKinds, v);
}
std::string_view to_string(CopyKind v) {
    return name_of(kCopyKinds, v);
}
std::string_view to_string(LaneKind v) {
    return name_of(kLaneKinds, v);
}
std::string_view to_string(Phase v) {
    return name_of(kPhases, v);
}
std::string_view to_string(Severity v) {
    return name_of(kSeverities, v);
}
std::string_view to_string(Source v) {
    return name_of(kSources, v);
}
std::string_view to_string(ClockDomain v) {
    return name_of(kClocks, v);
}

std::optional<ActivityKind> activity_kind_from_string(std::string_view t) {
    return parse<ActivityKind>(kActivityKinds, t);
}
std::optional<CopyKind> copy_kind_from_string(std::string_view t) {
    return parse<CopyKind>(kCopyKinds, t);
}
std::optional<LaneKind> lane_kind_from_string(std::string_view t) {
    return parse<LaneKind>(kLaneKinds, t);
}
std::optional<Phase> phase_from_string(std::string_view t) {
    return parse<Phase>(kPhases, t);
}
std::optional<Severity> severity_from_string(std::string_view t) {
    return parse<Severity>(kSeverities, t);
}
std::optional<Source> source_from_string(std::string_view t) {
    return parse<Source>(kSources, t);
}
std::optional<ClockDomain> clock_domain_from_string(std::string_view t) {
    return parse<ClockDomain>(kClocks, t);
}

double GpuInfo::pcie_bandwidth() const {
    // Per-lane payload rates after line coding, GB/s, for PCIe generations 1..6.
    constexpr std::array<double, 6> kPerLaneGBs = {0.25, 0.5, 0.985, 1.969, 3.938, 7.563};
    if (pcie_generation < 1 || pcie_generation > 6 || pcie_width <= 0) return 0.0;
    return kPerLaneGBs[pcie_generation - 1] * 1e9 * pcie_width;
}

}  // namespace tokenscope::trace
