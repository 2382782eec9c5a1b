#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tokenscope::kernels::cuda {

// The token sequences of all beams, kept on the host: after every beam step beam i
// becomes its parent's sequence plus its new token, exactly as the KV cache on the
// device is gathered by parent.
class BeamHistory {
  public:
    BeamHistory(std::int64_t requests, std::int64_t beams);

    // ids[i], parents[i] for every sequence i = request * beams + beam; parents are
    // global sequence indices and must stay inside the request (else invalid_argument).
    void advance(std::span<const std::int32_t> ids, std::span<const std::int32_t> parents);

    // The sequence of beam `beam` of `request`; the sampler orders beams by score, so
    // beam 0 is the best one.
    const std::vector<std::int32_t>& tokens(std::int64_t request, std::int64_t beam = 0) const;

  private:
    std::int64_t requests_, beams_;
    std::vector<std::vector<std::int32_t>> seqs_;
};

}  // namespace tokenscope::kernels::cuda
