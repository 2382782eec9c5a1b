#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>

namespace tokenscope::trace {

// Long work reports (done, total) and learns whether to go on: returning false cancels.
using ProgressFn = std::function<bool(std::int64_t done, std::int64_t total)>;

class Cancelled : public std::runtime_error {
  public:
    Cancelled() : std::runtime_error("cancelled") {}
};

}  // namespace tokenscope::trace
