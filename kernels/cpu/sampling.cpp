#include "sampling.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tokenscope::kernels::cpu {
namespace {

using u64 = std::uint64_t;

// A bounded selection of the best `k` (value desc, key asc): a heap whose top is the
// worst kept entry, so each candidate costs one compare unless it gets in.
template <class Value>
class BestK {
  public:
    explicit BestK(std::int64_t k) : k_(static_cast<std::size_t>(k)) { heap_.reserve(k_); }

    void offer(Value value, std::int64_t key) {
        if (heap_.size() < k_) {
            heap_.emplace_back(value, key);
            std::push_heap(heap_.begin(), heap_.end(), better);
        } else if (better({value, key}, heap_.front())) {
            std::pop_heap(heap_.begin(), heap_.end(), better);
            heap_.back() = {value, key};
            std::push_heap(heap_.begin(), heap_.end(), better);
        }
    }
    // Best first.
    std::vector<std::pair<Value, std::int64_t>> sorted() {
        std::sort(heap_.begin(), heap_.end(), better);
        return heap_;
    }

  private:
    // With `better` as the heap's "less", the front is the worst kept entry.
    static bool better(const std::pair<Value, std::int64_t>& a,
                       const std::pair<Value, std::int64_t>& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    }
    std::size_t k_;
    std::vector<std::pair<Value, std::int64_t>> heap_;
};

}  // namespace

std::int32_t argmax(const float* row, std::int64_t n) {
    std::int64_t best = 0;
    for (std::int64_t i = 1; i < n; ++i)
        if (row[i] > row[best]) best = i;
    return static_cast<std::int32_t>(best);
}

std::int32_t argmax_sample(const float* row, std::int64_t vocab, WorkMeter& meter) {
    const std::int32_t id = argmax(row, vocab);
    meter.flops(static_cast<u64>(vocab));
    meter.read_word(static_cast<u64>(vocab));
    meter.write_word(1);
    return id;
}

std::int32_t topk_sample(const float* row, std::int64_t vocab, std::int64_t k, double u,
                         WorkMeter& meter) {
    constexpr float kInvTemperature = 1.0f;
    BestK<float> best(k);
    for (std::int64_t i = 0; i < vocab; ++i) best.offer(row[i] * kInvTemperature, i);
    meter.flops(2 * static_cast<u64>(vocab));  // scale, threshold compare
    const auto kept = best.sorted();
    std::vector<double> p(kept.size());
    double total = 0.0;
    for (std::size_t j = 0; j < kept.size(); ++j) {
        p[j] = std::exp(static_cast<double>(kept[j].first) - static_cast<double>(kept[0].first));
        total += p[j];
    }
    const double target = u * total;
    double cumulative = 0.0;
    std::size_t pick = kept.size() - 1;
    for (std::size_t j = 0; j < kept.size(); ++j) {
        cumulative += p[j];
        if (cumulative > target) {
            pick = j;
            break;
        }
    }
    meter.flops(4 * kept.size());  // subtract, exp, sum; cumulate-and-compare
    meter.read_word(static_cast<u64>(vocab));
    meter.write_word(1);
    return static_cast<std::int32_t>(kept[pick].second);
}

std::vector<BeamChoice> beam_select(const float* logits, const double* scores, std::int64_t beams,
                                    std::int64_t vocab, WorkMeter& meter) {
    BestK<double> best(beams);
    for (std::int64_t b = 0; b < beams; ++b) {
        const float* row = logits + b * vocab;
        const double top = static_cast<double>(row[argmax(row, vocab)]);
        double sum = 0.0;
        for (std::int64_t i = 0; i < vocab; ++i) sum += std::exp(static_cast<double>(row[i]) - top);
        const double lse = top + std::log(sum);
        for (std::int64_t i = 0; i < vocab; ++i)
            best.offer(scores[b] + (static_cast<double>(row[i]) - lse), b * vocab + i);
        // max, exp-sum, subtract (log-softmax); add the beam score; compare
        meter.flops(5 * static_cast<u64>(vocab));
        meter.read_word(static_cast<u64>(vocab) + 1);
    }
    std::vector<BeamChoice> out;
    for (const auto& [score, key] : best.sorted())
        out.push_back({static_cast<std::int32_t>(key / vocab),
                       static_cast<std::int32_t>(key % vocab), score});
    meter.write_word(3 * out.size());  // id, parent, score
    return out;
}

SpecVerdict spec_verify(const float* logits, std::int64_t vocab, const std::int32_t* drafted,
                        std::int64_t gamma, WorkMeter& meter) {
    SpecVerdict v;
    for (std::int64_t r = 0; r <= gamma; ++r)
        v.targets.push_back(argmax(logits + r * vocab, vocab));
    while (v.accepted < gamma &&
           drafted[v.accepted] == v.targets[static_cast<std::size_t>(v.accepted)])
        ++v.accepted;
    const auto rows = static_cast<u64>(gamma + 1);
    meter.flops(rows * static_cast<u64>(vocab));
    meter.read_word(rows * static_cast<u64>(vocab) + static_cast<u64>(gamma));
    meter.write_word(rows + 1);  // ids and the accepted count
    return v;
}

}  // namespace tokenscope::kernels::cpu
