#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpu_info.h"

namespace tokenscope::trace {

enum class Source : std::uint8_t { Cuda, Inject, Cpu, Model, Nsys, Kineto, Bench };

enum class ClockDomain : std::uint8_t { MonotonicRaw, Cupti, SourceFile };

struct RunInfo {
    std::int64_t id = 0;  // assigned by the store; 0 = not stored yet
    std::string name;
    Source source = Source::Model;
    std::int64_t created_ns = 0;  // wall clock, ns since the Unix epoch
    std::string host;
    GpuInfo gpu;
    std::string driver_version;
    std::string cuda_version;
    std::string workload_json;  // workload spec or command line, as JSON text
    ClockDomain clock = ClockDomain::MonotonicRaw;
    bool complete = false;  // false while capturing, and forever if the capture was killed
    // UTC (ns since the Unix epoch) of this run's time 0, where the source records it
    // (Kineto baseTimeNanoseconds, an nsys export's session start); empty = unknown.
    // Merging per-rank files aligns their clocks by it.
    std::optional<std::int64_t> origin_utc_ns;

    // A model run is never a measurement; every view labels it.
    bool is_model() const { return source == Source::Model; }
    bool operator==(const RunInfo&) const = default;
};

std::string_view to_string(Source source);
std::optional<Source> source_from_string(std::string_view text);
std::string_view to_string(ClockDomain clock);
std::optional<ClockDomain> clock_domain_from_string(std::string_view text);

}  // namespace tokenscope::trace
