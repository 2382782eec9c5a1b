#include "beam_history.h"

#include <stdexcept>
#include <string>

namespace tokenscope::kernels::cuda {

BeamHistory::BeamHistory(std::int64_t requests, std::int64_t beams)
    : requests_(requests), beams_(beams), seqs_(static_cast<std::size_t>(requests * beams)) {}

void BeamHistory::advance(std::span<const std::int32_t> ids,
                          std::span<const std::int32_t> parents) {
    if (ids.size() != seqs_.size() || parents.size() != seqs_.size())
        throw std::invalid_argument("beam history: expected " + std::to_string(seqs_.size()) +
                                    " ids and parents");
    std::vector<std::vector<std::int32_t>> next(seqs_.size());
    for (std::size_t i = 0; i < seqs_.size(); ++i) {
        const auto request = static_cast<std::int64_t>(i) / beams_;
        const std::int64_t parent = parents[i];
        if (parent < request * beams_ || parent >= (request + 1) * beams_)
            throw std::invalid_argument("beam history: sequence " + std::to_string(i) +
                                        " has parent " + std::to_string(parent) +
                                        " outside its request");
        next[i] = seqs_[static_cast<std::size_t>(parent)];
        next[i].push_back(ids[i]);
    }
    seqs_ = std::move(next);
}

const std::vector<std::int32_t>& BeamHistory::tokens(std::int64_t request,
                                                     std::int64_t beam) const {
    if (request < 0 || request >= requests_ || beam < 0 || beam >= beams_)
        throw std::out_of_range("beam history: no beam " + std::to_string(beam) + " of request " +
                                std::to_string(request));
    return seqs_[static_cast<std::size_t>(request * beams_ + beam)];
}

}  // namespace tokenscope::kernels::cuda
