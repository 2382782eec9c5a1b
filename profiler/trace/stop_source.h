#pragma once

#include <atomic>
#include <memory>

#include "stop_token.h"

namespace tokenscope::trace {

// The owner's side of a StopToken: whoever started the work keeps the source and
// hands out tokens; request_stop() is seen by every token of this source.
class StopSource {
  public:
    StopSource() : token_(std::make_shared<StopToken::State>()) {}

    StopToken token() const { return token_; }
    void request_stop() const { token_.state_->stopped.store(true, std::memory_order_release); }
    bool stop_requested() const { return token_.stop_requested(); }

  private:
    StopToken token_;
};

}  // namespace tokenscope::trace
