#include "capture/serving/serving_simulator.h"

#include <algorithm>
#include <stdexcept>

#include "capture/activity_factory.h"
#include "capture/failed_run.h"
#include "capture/serving/serving_workload.h"

namespace tokenscope::capture {
namespace {

constexpr std::uint64_t kServingStream = 0x5e7f1e5eed000000ull;
constexpr std::int64_t kRescaleEveryNs = 5'000'000'000;
constexpr std::int64_t kRecentWindowNs = 60'000'000'000;

std::int64_t p95(std::vector<std::int64_t> v) {
    std::sort(v.begin(), v.end());
    // Linear interpolation between closest ranks (docs/metrics.md, Percentiles and distributions).
    const double pos = 0.95 * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    const double f = pos - static_cast<double>(lo);
    return static_cast<std::int64_t>(static_cast<double>(v[lo]) * (1 - f) +
                                     static_cast<double>(v[hi]) * f);
}

}  // namespace

ServingSimulator::ServingSimulator(const ModelRunSpec& spec, const ServingConfig& config,
                                   store::RunWriter& writer)
    : spec_(spec),
      config_(config),
      writer_(writer),
      cost_(spec.shape, roofline_of(spec.gpu)),
      scheduler_((validate_serving_config(config), config)),
      arrivals_(config.arrival, spec.decode.seed),
      rng_(spec.decode.seed ^ kServingStream),
      kernel_name_(writer),
      recent_ttft_(config.tenants.size()) {}

void ServingSimulator::add_lanes() {
    constexpr std::int64_t kPid = 1;
    if (!config_.summary)
        compute_lane_ =
            writer_.add_lane({trace::LaneKind::GpuStream, 0, kPid, 7, "stream 7 (compute)"});
    step_lane_ =
        writer_.add_lane({trace::LaneKind::StepTrack, -1, kPid, 0, "serving iterations (model)"});
    system_lane_ =
        writer_.add_lane({trace::LaneKind::Counter, -1, kPid, 1, "requests in system (model)"});
    running_lane_ =
        writer_.add_lane({trace::LaneKind::Counter, -1, kPid, 2, "running sequences (model)"});
    if (config_.policy != AdmissionPolicy::Fcfs) {
        for (std::size_t c = 0; c < config_.tenants.size(); ++c) {
            const auto lane = writer_.add_lane({trace::LaneKind::Counter, -1, kPid,
                                                static_cast<std::int64_t>(3 + c),
                                                "share " + config_.tenants[c].name + " (model)"});
            if (c == 0) share_lane0_ = lane;
        }
    }
    iteration_name_ = writer_.intern("iteration");
    prefill_name_ = writer_.intern("iteration with prefill");
}

void ServingSimulator::run(const trace::ProgressFn& progress) {
    add_lanes();
    writer_.add_diagnostic(
        {"model_run", trace::Severity::Info, 1.0,
         "produced by the serving model (continuous batching over the cost model on " +
             spec_.gpu.name + "), not measured"});
    const std::int64_t start = kRunStartNs;
    const auto window = static_cast<std::int64_t>(config_.duration_s * 1e9);
    end_of_arrivals_ns_ = start + window;
    next_rescale_ns_ = start + kRescaleEveryNs;
    if (config_.arrival.kind == ArrivalKind::Closed) {
        for (std::int64_t i = 0; i < config_.arrival.concurrency; ++i) add_request(start);
    } else {
        next_arrival_ns_ = start + arrivals_.next_gap_ns();
    }
    std::int64_t now = start;
    while (true) {
        pull_arrivals(now);
        if (scheduler_.running() == 0 && scheduler_.waiting() == 0) {
            if (config_.arrival.kind == ArrivalKind::Closed ||
                next_arrival_ns_ >= end_of_arrivals_ns_)
                break;
            now = next_arrival_ns_;
            continue;
        }
        const auto batch = scheduler_.next_batch(requests_);
        sample_counters(now);
        const std::int64_t end = simulate_iteration(batch, now);
        emit(batch, now, end);
        now = end;
        if (config_.policy == AdmissionPolicy::DynamicBudget && now >= next_rescale_ns_)
            rescale_shares(now);
        if (++iteration_ % 256 == 0) {
            writer_.poll();
            if (progress &&
                !progress(std::min(now - start, window) / 1'000'000, window / 1'000'000))
                throw trace::Cancelled();
        }
    }
    write_requests();
}

void ServingSimulator::pull_arrivals(std::int64_t now) {
    if (config_.arrival.kind == ArrivalKind::Closed) return;
    while (next_arrival_ns_ <= now && next_arrival_ns_ < end_of_arrivals_ns_) {
        add_request(next_arrival_ns_);
        next_arrival_ns_ += arrivals_.next_gap_ns();
    }
}

void ServingSimulator::add_request(std::int64_t arrival) {
    ServingRequest r;
    r.id = static_cast<std::int64_t>(requests_.size()) + 1;
    r.arrival_ns = arrival;
    r.tenant = draw_tenant(config_, rng_);
    r.prompt = draw_length(config_.prompt_len, config_.length_spread, rng_);
    r.output = draw_length(config_.output_len, config_.length_spread, rng_);
    requests_.push_back(r);
    scheduler_.enqueue(requests_.size() - 1, r.tenant);
    ++in_system_;
}

std::int64_t ServingSimulator::simulate_iteration(const std::vector<ScheduledSlice>& batch,
                                                  std::int64_t now) {
    std::vector<BatchSlice> slices;
    slices.reserve(batch.size());
    bool any_prefill = false;
    for (const auto& s : batch) {
        const auto& r = requests_[s.request];
        if (s.prefill) {
            slices.push_back({r.prefilled, s.tokens, r.prefilled + s.tokens >= r.prompt});
            any_prefill = true;
        } else {
            // Every emitted token but the newest has its K/V in the cache.
            slices.push_back({r.prompt + r.emitted - 1, 1, true});
        }
    }
    const BatchIteration plan = cost_.plan(slices);
    const auto& j = spec_.jitter;
    const double stretch = j.enabled ? rng_.exponential(j.kernel_mean) : 0.0;
    std::int64_t overhead = config_.iteration_overhead_ns;
    if (j.enabled && rng_.bernoulli(j.hiccup_probability))
        overhead += static_cast<std::int64_t>(rng_.exponential(j.hiccup_mean_ns));
    const std::int64_t kernels_start = now + overhead;
    const std::int64_t end = kernels_start + cost_.total_ns(plan, stretch);
    if (!config_.summary) write_kernels(plan, stretch, kernels_start);
    writer_.add_activity(make_activity(trace::ActivityKind::Range, step_lane_,
                                       any_prefill ? prefill_name_ : iteration_name_, now, end));
    return end;
}

void ServingSimulator::write_kernels(const BatchIteration& it, double stretch, std::int64_t t) {
    // Every block launches the same kernels for the same time: one template, its
    // durations computed once per iteration, stamped out per block.
    auto templates = [&](const std::vector<kernels::KernelSpec>& specs) {
        std::vector<std::pair<trace::Activity, std::int64_t>> out;
        out.reserve(specs.size());
        for (const auto& k : specs) {
            auto a =
                make_activity(trace::ActivityKind::Kernel, compute_lane_, kernel_name_(k), 0, 0);
            a.flops = static_cast<float>(k.flops);
            a.bytes = k.bytes();
            out.emplace_back(a, cost_.stretched_ns(k, stretch));
        }
        return out;
    };
    auto put = [&](const std::vector<std::pair<trace::Activity, std::int64_t>>& kernels) {
        for (auto [a, d] : kernels) {
            a.start_ns = t;
            a.end_ns = t + d;
            writer_.add_activity(a);
            t += d;
        }
    };
    put(templates(it.prefix));
    const auto layer = templates(it.layer);
    for (std::int64_t l = 0; l < it.layers; ++l) put(layer);
    put(templates(it.suffix));
}

void ServingSimulator::add_step(std::int64_t request, std::int32_t index, trace::Phase phase,
                                std::int64_t start, std::int64_t end) {
    if (!config_.token_steps) return;
    trace::Step s;
    s.request = request;
    s.index = index;
    s.phase = phase;
    s.start_ns = start;
    s.end_ns = end;
    writer_.add_step(s);
}

void ServingSimulator::emit(const std::vector<ScheduledSlice>& batch, std::int64_t start,
                            std::int64_t end) {
    for (const auto& s : batch) {
        auto& r = requests_[s.request];
        if (s.prefill) {
            if (r.prefill_start_ns < 0) r.prefill_start_ns = start;
            r.prefilled += s.tokens;
            if (r.prefilled < r.prompt) continue;
            add_step(r.id, 0, trace::Phase::Prefill, r.prefill_start_ns, end);
            r.first_token_ns = end;
            recent_ttft_[static_cast<std::size_t>(r.tenant)].emplace_back(end, end - r.arrival_ns);
        } else {
            add_step(r.id, static_cast<std::int32_t>(r.emitted), trace::Phase::Decode,
                     r.last_emit_ns, end);
        }
        ++r.emitted;
        r.last_emit_ns = end;
        if (r.emitted < r.output) continue;
        r.done_ns = end;
        scheduler_.retire(s.request);
        --in_system_;
        if (config_.arrival.kind == ArrivalKind::Closed && end < end_of_arrivals_ns_)
            add_request(end);
    }
}

void ServingSimulator::rescale_shares(std::int64_t now) {
    std::vector<double> ratios(recent_ttft_.size(), 0.0);
    for (std::size_t c = 0; c < ratios.size(); ++c) {
        auto& recent = recent_ttft_[c];
        while (!recent.empty() && recent.front().first < now - kRecentWindowNs) recent.pop_front();
        const std::int64_t sla = config_.tenants[c].sla_ttft_ns;
        if (sla > 0 && !recent.empty()) {
            std::vector<std::int64_t> ttfts;
            for (const auto& [t, v] : recent) ttfts.push_back(v);
            ratios[c] = static_cast<double>(p95(std::move(ttfts))) / static_cast<double>(sla);
        }
    }
    scheduler_.set_shares(capture::rescale_shares(scheduler_.shares(), ratios));
    while (next_rescale_ns_ <= now) next_rescale_ns_ += kRescaleEveryNs;
}

void ServingSimulator::sample_counters(std::int64_t now) {
    writer_.add_counter({system_lane_, now, static_cast<double>(in_system_)});
    writer_.add_counter({running_lane_, now, static_cast<double>(scheduler_.running())});
    if (config_.policy == AdmissionPolicy::Fcfs) return;
    const auto& shares = scheduler_.shares();
    for (std::size_t c = 0; c < shares.size(); ++c)
        writer_.add_counter({static_cast<std::uint16_t>(share_lane0_ + c), now, shares[c]});
}

void ServingSimulator::write_requests() {
    std::string tenants;
    tenants.reserve(requests_.size());
    for (const auto& r : requests_) {
        writer_.add_request({r.id, r.arrival_ns, r.first_token_ns, r.done_ns,
                             static_cast<std::int32_t>(r.prompt),
                             static_cast<std::int32_t>(r.output), false});
        tenants.push_back(static_cast<char>('0' + r.tenant));
    }
    writer_.update_info(serving_run_info(spec_, config_, tenants));
}

void run_serving_model(const CaptureConfig& capture, const ServingConfig& config,
                       store::RunWriter& writer, const trace::ProgressFn& progress) {
    try {
        const ModelRunSpec spec = resolve_model_run(capture);
        writer.update_info(serving_run_info(spec, config, {}));
        ServingSimulator(spec, config, writer).run(progress);
        writer.finish();
    } catch (...) {
        end_failed_run(writer, std::current_exception());
        throw;
    }
}

}  // namespace tokenscope::capture
