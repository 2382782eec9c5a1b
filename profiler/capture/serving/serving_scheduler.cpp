#include "capture/serving/serving_scheduler.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tokenscope::capture {

ServingScheduler::ServingScheduler(const ServingConfig& config)
    : config_(config), waiting_(config.tenants.size()) {
    double total = 0.0;
    for (const auto& t : config_.tenants) total += t.share;
    for (const auto& t : config_.tenants)
        shares_.push_back(total > 0.0 ? t.share / total
                                      : 1.0 / static_cast<double>(config_.tenants.size()));
}

void ServingScheduler::enqueue(std::size_t request, std::int32_t tenant) {
    waiting_[static_cast<std::size_t>(tenant)].push_back(request);
}

std::size_t ServingScheduler::waiting() const {
    std::size_t n = 0;
    for (const auto& q : waiting_) n += q.size();
    return n;
}

void ServingScheduler::retire(std::size_t request) {
    auto it = std::find(running_.begin(), running_.end(), request);
    if (it != running_.end()) running_.erase(it);
}

std::vector<ScheduledSlice> ServingScheduler::next_batch(std::vector<ServingRequest>& requests) {
    std::vector<ScheduledSlice> out;
    budget_ = config_.token_budget;
    // Decode tokens first: a running sequence is never starved of its next token.
    for (std::size_t idx : running_) {
        const auto& r = requests[idx];
        if (r.prefilled >= r.prompt && budget_ > 0) {
            out.push_back({idx, 1, false});
            --budget_;
        }
    }
    for (std::size_t idx : running_) {
        const auto& r = requests[idx];
        if (r.prefilled < r.prompt && budget_ > 0) {
            const std::int64_t chunk = std::min(r.prompt - r.prefilled, budget_);
            out.push_back({idx, chunk, true});
            budget_ -= chunk;
        }
    }
    if (config_.policy != AdmissionPolicy::Fcfs && config_.tenants.size() > 1)
        admit_by_share(requests, out);
    while (static_cast<std::int64_t>(running_.size()) < config_.max_num_seqs) {
        const std::int32_t t = earliest_tenant(requests);
        if (t < 0 || !try_admit(t, budget_, requests, out)) break;
    }
    return out;
}

// Each class first admits within its share of the iteration's remaining budget; what
// is left then goes first come, first served (so an idle class's share is not wasted).
void ServingScheduler::admit_by_share(std::vector<ServingRequest>& requests,
                                      std::vector<ScheduledSlice>& out) {
    const std::int64_t start = budget_;
    for (std::size_t c = 0; c < waiting_.size(); ++c) {
        auto allowance =
            static_cast<std::int64_t>(std::floor(shares_[c] * static_cast<double>(start)));
        while (static_cast<std::int64_t>(running_.size()) < config_.max_num_seqs) {
            const std::int64_t before = budget_;
            if (!try_admit(static_cast<std::int32_t>(c), allowance, requests, out)) break;
            allowance -= before - budget_;
        }
    }
}

std::int32_t ServingScheduler::earliest_tenant(const std::vector<ServingRequest>& requests) const {
    std::int32_t best = -1;
    for (std::size_t c = 0; c < waiting_.size(); ++c) {
        if (waiting_[c].empty()) continue;
        if (best < 0 || requests[waiting_[c].front()].arrival_ns <
                            requests[waiting_[static_cast<std::size_t>(best)].front()].arrival_ns)
            best = static_cast<std::int32_t>(c);
    }
    return best;
}

bool ServingScheduler::try_admit(std::int32_t tenant, std::int64_t cap,
                                 std::vector<ServingRequest>& requests,
                                 std::vector<ScheduledSlice>& out) {
    auto& queue = waiting_[static_cast<std::size_t>(tenant)];
    if (queue.empty()) return false;
    const std::size_t idx = queue.front();
    const std::int64_t need = requests[idx].prompt;
    const std::int64_t room = std::min(cap, budget_);
    std::int64_t take = 0;
    if (config_.chunked_prefill)
        take = std::min(need, room);
    else if (need <= room || (out.empty() && running_.empty()))
        take = need;
    if (take <= 0) return false;
    queue.pop_front();
    running_.push_back(idx);
    out.push_back({idx, take, true});
    budget_ = std::max<std::int64_t>(0, budget_ - take);
    return true;
}

std::vector<double> rescale_shares(std::vector<double> shares,
                                   const std::vector<double>& p95_over_sla) {
    double total = 0.0;
    for (std::size_t c = 0; c < shares.size(); ++c) {
        const double r = c < p95_over_sla.size() ? p95_over_sla[c] : 0.0;
        if (r > 0.0) shares[c] *= std::clamp(r, 0.5, 2.0);
        total += shares[c];
    }
    if (total > 0.0)
        for (auto& s : shares) s /= total;
    return shares;
}

}  // namespace tokenscope::capture
