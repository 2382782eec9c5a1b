#pragma once

#include <cupti_activity.h>

#include <cstddef>
#include <cstdint>
#include <regex>
#include <unordered_map>
#include <vector>

#include "api_names.h"
#include "capture/gpu_clock_fit.h"
#include "decoder_options.h"
#include "decoder_stats.h"
#include "fixed_names.h"
#include "kernel_names.h"
#include "kernel_plan_matcher.h"
#include "lane_map.h"
#include "marker_pairer.h"
#include "record_layouts.h"
#include "store/run_writer.h"

namespace tokenscope::capture::cupti {

// Turns CUPTI activity records into the run's lanes and activities through a
// RunWriter. Records are taken by pointer, so tests build them in memory. Not
// thread-safe: it runs on the writer thread, the only one touching the writer.
//
// Every activity keeps CUPTI's correlation id, which links a kernel or copy to the
// API call that launched it; times go through the clock fit to the host clock.
// Records arrive in any order; a record with a zero or reversed timestamp is
// skipped and counted (an activity without a valid end would corrupt every sum).
class RecordDecoder {
  public:
    explicit RecordDecoder(store::RunWriter& writer, DecoderOptions options = {});

    void set_clock(const GpuClockFit& clock) { clock_ = clock; }
    const GpuClockFit& clock() const { return clock_; }

    void decode(const CUpti_Activity* record);
    // Every record of a CUPTI buffer, read with cuptiActivityGetNextRecord; returns
    // how many there were.
    std::size_t decode_buffer(std::uint8_t* buffer, std::size_t valid_bytes);
    // Settles what is still open (NVTX ranges, syncs waiting for their API call) and
    // writes the decoder's diagnostics. Call once, after the last record.
    void finish();
    // Writes the kernels the plan matcher has settled (decode_buffer does after each
    // buffer); nothing without a matcher.
    void settle_kernels();

    const DecoderStats& stats() const { return stats_; }

  private:
    void kernel(const KernelRecord& r);
    void memcpy(const MemcpyRecord& r);
    void peer_copy(const PeerCopyRecord& r);
    void memset(const MemsetRecord& r);
    void api(const ApiRecord& r, CUpti_CallbackDomain domain);
    void sync(const SyncRecord& r);
    void overhead(const OverheadRecord& r);
    void marker(const MarkerRecord& r);
    void external(const ExternalCorrelationRecord& r);
    void range(const MarkerPairer::Range& range);
    void graph_node(const trace::Activity& a, std::uint32_t graph, std::uint64_t node);

    // Maps [start, end] to host time into `a`; false (and counted) when incomplete.
    bool timed(std::uint64_t start, std::uint64_t end, trace::Activity& a);
    void emit(const trace::Activity& a);
    void write_plan_match_diagnostics();
    bool is_step(std::uint32_t name, std::string_view text);
    void write_diagnostics();

    store::RunWriter& writer_;
    DecoderOptions options_;
    GpuClockFit clock_;
    LaneMap lanes_;
    ApiNames api_names_;
    KernelNames kernel_names_;
    FixedNames names_;
    MarkerPairer markers_;
    DecoderStats stats_;
    std::regex step_regex_;
    bool has_step_pattern_ = false;
    std::vector<std::int8_t> step_names_;  // by name id: -1 unknown, 0 no, 1 yes
    std::int32_t next_step_index_ = 0;
    // Sync records name no thread: they take the lane of their API call, which may
    // arrive before or after them.
    std::unordered_map<std::uint32_t, std::uint16_t> sync_api_lanes_;
    std::unordered_map<std::uint32_t, trace::Activity> waiting_syncs_;
    bool finished_ = false;
};

}  // namespace tokenscope::capture::cupti
