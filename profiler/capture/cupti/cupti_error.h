#pragma once

#include <cupti.h>

#include <stdexcept>

namespace tokenscope::capture::cupti {

// A CUPTI call failed; the message names the call and CUPTI's own error text.
class CuptiError : public std::runtime_error {
  public:
    CuptiError(const char* call, CUptiResult result);
    CUptiResult result() const { return result_; }

  private:
    CUptiResult result_;
};

inline void check_cupti(CUptiResult result, const char* call) {
    if (result != CUPTI_SUCCESS) throw CuptiError(call, result);
}

}  // namespace tokenscope::capture::cupti
