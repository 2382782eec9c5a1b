#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

namespace tokenscope::capture::cupti {

// Pairs the start and end records of NVTX ranges (push/pop and start/end both arrive
// as MARKER records sharing an id). Either half may come first: records of different
// threads and buffers are not ordered, so an early end waits for its start.
class MarkerPairer {
  public:
    struct Open {
        std::int64_t start_ns = 0;
        std::uint32_t name = 0;
        std::uint16_t lane = 0;
        bool step = false;         // the name matches the step pattern
        std::int64_t number = -1;  // the number ending a step's name, -1 if none
    };
    struct Range {
        Open start;
        std::int64_t end_ns = 0;
    };

    // A start; returns the whole range if its end already arrived.
    std::optional<Range> start(std::uint32_t id, const Open& open);
    // An end; returns the whole range if its start already arrived.
    std::optional<Range> end(std::uint32_t id, std::int64_t end_ns);

    std::size_t open_starts() const { return starts_.size(); }
    std::size_t orphan_ends() const { return ends_.size(); }

  private:
    std::unordered_map<std::uint32_t, Open> starts_;
    std::unordered_map<std::uint32_t, std::int64_t> ends_;
};

}  // namespace tokenscope::capture::cupti
