#include "capture/cpu/cpu_run_recorder.h"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <string>

#include "capture/activity_factory.h"
#include "capture/batch_requests.h"

namespace tokenscope::capture {
namespace {

using trace::Activity;
using trace::ActivityKind;

}  // namespace

CpuRunRecorder::CpuRunRecorder(store::RunWriter& writer, const kernels::DecodeConfig& decode)
    : writer_(writer), decode_(decode), kernel_name_(writer) {}

std::int64_t CpuRunRecorder::now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void CpuRunRecorder::begin() {
    const auto pid = static_cast<std::int64_t>(getpid());
    const auto tid = static_cast<std::int64_t>(syscall(SYS_gettid));
    host_lane_ = writer_.add_lane({trace::LaneKind::CpuThread, -1, pid, tid, "main thread"});
    // The kernels run on the same thread; a lane of their own keeps them from nesting
    // inside the host ranges, as GPU kernels sit on their stream.
    compute_lane_ = writer_.add_lane({trace::LaneKind::CpuThread, -1, pid, tid, "cpu compute"});
    step_lane_ = writer_.add_lane({trace::LaneKind::StepTrack, -1, pid, 0, "decode iterations"});
    host_range_name_ = writer_.intern("run_iteration");
    arrival_ns_ = now_ns();
    last_emission_ns_ = arrival_ns_;
}

void CpuRunRecorder::iteration_begin() {
    iteration_start_ns_ = now_ns();
}

void CpuRunRecorder::iteration_end(const kernels::cpu::IterationResult& result) {
    const std::int64_t emission = now_ns();
    writer_.add_activity(make_activity(ActivityKind::Range, host_lane_, host_range_name_,
                                       iteration_start_ns_, emission));
    const char* name = result.prefill                                       ? "prefill"
                       : decode_.strategy == kernels::Strategy::Speculative ? "speculative decode"
                                                                            : "decode";
    writer_.add_activity(make_activity(ActivityKind::Range, step_lane_, writer_.intern(name),
                                       iteration_start_ns_, emission));
    add_steps(result, emission);
    if (!result.prefill && decode_.strategy == kernels::Strategy::Speculative) {
        drafted_ += decode_.gamma;
        accepted_ += result.accepted;
    }
}

void CpuRunRecorder::add_steps(const kernels::cpu::IterationResult& result,
                               std::int64_t emission_ns) {
    // A step runs from the previous emission (the request's arrival for its first
    // token); tokens emitted together after the first take no time of their own.
    for (std::int64_t r = 1; r <= decode_.batch; ++r) {
        for (std::int32_t j = 0; j < result.tokens_emitted; ++j) {
            trace::Step s;
            s.request = r;
            s.index = tokens_done_ + j;
            s.phase = s.index == 0 ? trace::Phase::Prefill : trace::Phase::Decode;
            s.start_ns = j == 0 ? last_emission_ns_ : emission_ns;
            s.end_ns = emission_ns;
            s.floor_ns = 0;  // no roofline for a host run
            writer_.add_step(s);
        }
    }
    if (result.prefill) first_token_ns_ = emission_ns;
    tokens_done_ += result.tokens_emitted;
    last_emission_ns_ = emission_ns;
}

void CpuRunRecorder::end() {
    add_batch_requests(writer_, decode_, arrival_ns_, first_token_ns_, last_emission_ns_);
    writer_.add_diagnostic(
        {"cpu_reference", trace::Severity::Info, 1.0,
         "measured on the CPU: the fp32 reference on one host thread; its kernels are host "
         "functions, with FLOPs and bytes counted as they ran (bytes at the model dtype)"});
    if (drafted_ > 0)
        writer_.add_diagnostic(
            {"speculative_acceptance", trace::Severity::Info,
             static_cast<double>(accepted_) / static_cast<double>(drafted_),
             "share of drafted tokens the target kept (measured: " + std::to_string(accepted_) +
                 " of " + std::to_string(drafted_) + ", the batch's minimum per iteration)"});
}

void CpuRunRecorder::kernel_begin() {
    kernel_start_ns_ = now_ns();
}

void CpuRunRecorder::kernel_end(const kernels::KernelSpec& work) {
    auto k = make_activity(ActivityKind::Kernel, compute_lane_, kernel_name_(work),
                           kernel_start_ns_, now_ns());
    k.flops = static_cast<float>(work.flops);
    k.bytes = work.bytes();
    writer_.add_activity(k);
}

}  // namespace tokenscope::capture
