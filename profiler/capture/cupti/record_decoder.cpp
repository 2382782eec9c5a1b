#include "record_decoder.h"

#include <cctype>
#include <limits>
#include <string>

namespace tokenscope::capture::cupti {
namespace {

using trace::ActivityKind;
using trace::CopyKind;

// "ProfilerStep#12" -> 12; -1 when the name does not end in digits.
std::int64_t trailing_number(std::string_view name) {
    std::size_t i = name.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1])) != 0) --i;
    if (i == name.size() || name.size() - i > 9) return -1;
    return std::stoll(std::string(name.substr(i)));
}

// No device argument: an activity's device is its lane's (LaneMap::stream sets it).
trace::Activity make(ActivityKind kind, std::uint16_t lane, std::uint32_t name,
                     std::uint32_t correlation) {
    trace::Activity a;
    a.kind = kind;
    a.lane = lane;
    a.name = name;
    a.correlation = correlation;
    return a;
}

trace::KernelLaunch launch_of(const KernelRecord& r) {
    return trace::KernelLaunch::from_counts(r.correlationId, {r.gridX, r.gridY, r.gridZ},
                                            {r.blockX, r.blockY, r.blockZ}, r.staticSharedMemory,
                                            r.dynamicSharedMemory, r.registersPerThread);
}

}  // namespace

RecordDecoder::RecordDecoder(store::RunWriter& writer, DecoderOptions options)
    : writer_(writer),
      options_(std::move(options)),
      lanes_(writer, options_.process_id),
      api_names_(writer),
      kernel_names_(writer),
      names_(writer) {
    if (!options_.step_pattern.empty()) {
        // Throws std::regex_error for a bad pattern: the caller's configuration error.
        step_regex_ = std::regex(options_.step_pattern, std::regex::ECMAScript);
        has_step_pattern_ = true;
    }
}

void RecordDecoder::decode(const CUpti_Activity* record) {
    ++stats_.records;
    switch (record->kind) {
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        case CUPTI_ACTIVITY_KIND_KERNEL:
            return kernel(*reinterpret_cast<const KernelRecord*>(record));
        case CUPTI_ACTIVITY_KIND_MEMCPY:
            return memcpy(*reinterpret_cast<const MemcpyRecord*>(record));
        case CUPTI_ACTIVITY_KIND_MEMCPY2:
            return peer_copy(*reinterpret_cast<const PeerCopyRecord*>(record));
        case CUPTI_ACTIVITY_KIND_MEMSET:
            return memset(*reinterpret_cast<const MemsetRecord*>(record));
        case CUPTI_ACTIVITY_KIND_RUNTIME:
            return api(*reinterpret_cast<const ApiRecord*>(record), CUPTI_CB_DOMAIN_RUNTIME_API);
        case CUPTI_ACTIVITY_KIND_DRIVER:
            return api(*reinterpret_cast<const ApiRecord*>(record), CUPTI_CB_DOMAIN_DRIVER_API);
        case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
            return sync(*reinterpret_cast<const SyncRecord*>(record));
        case CUPTI_ACTIVITY_KIND_OVERHEAD:
            return overhead(*reinterpret_cast<const OverheadRecord*>(record));
        case CUPTI_ACTIVITY_KIND_MARKER:
            return marker(*reinterpret_cast<const MarkerRecord*>(record));
        case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
            return external(*reinterpret_cast<const ExternalCorrelationRecord*>(record));
        default:
            ++stats_.other_kinds;
    }
}

std::size_t RecordDecoder::decode_buffer(std::uint8_t* buffer, std::size_t valid_bytes) {
    std::size_t count = 0;
    CUpti_Activity* record = nullptr;
    while (valid_bytes > 0 &&
           cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
        decode(record);
        ++count;
    }
    settle_kernels();
    return count;
}

bool RecordDecoder::timed(std::uint64_t start, std::uint64_t end, trace::Activity& a) {
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (start == 0 || end == 0 || end < start || end > kMax) {
        ++stats_.incomplete;
        return false;
    }
    a.start_ns = clock_.map(static_cast<std::int64_t>(start));
    a.end_ns = clock_.map(static_cast<std::int64_t>(end));
    return true;
}

void RecordDecoder::emit(const trace::Activity& a) {
    writer_.add_activity(a);
    ++stats_.activities;
}

// CUPTI sets graphNodeId (and graphId) on work a graph launch ran, 0 elsewhere.
void RecordDecoder::graph_node(const trace::Activity& a, std::uint32_t graph, std::uint64_t node) {
    if (node == 0) return;
    writer_.add_graph_activity({a.lane, a.start_ns, {graph, node}});
    ++stats_.graph_activities;
}

void RecordDecoder::kernel(const KernelRecord& r) {
    auto a = make(ActivityKind::Kernel, lanes_.stream(r.deviceId, r.contextId, r.streamId),
                  kernel_names_.name(r.name), r.correlationId);
    if (!timed(r.start, r.end, a)) return;
    // The kernels of one graph launch share its correlation id, the launch table's key:
    // a graph kernel's launch facts could not be told from its neighbours'.
    if (r.correlationId != 0 && r.graphNodeId == 0) writer_.add_launch(launch_of(r));
    graph_node(a, r.graphId, r.graphNodeId);
    if (options_.plan_matcher != nullptr)
        options_.plan_matcher->add_kernel(a);
    else
        emit(a);
}

void RecordDecoder::settle_kernels() {
    if (options_.plan_matcher == nullptr) return;
    options_.plan_matcher->settle([this](std::string_view n) { return writer_.intern(n); },
                                  [this](const trace::Activity& a) { emit(a); },
                                  [this](std::uint32_t id) { return kernel_names_.text(id); });
}

// The cuda runner's tag of a plan entry on each CUDA call the entry made; other
// tools' external ids (and every one without a plan matcher) are not the decoder's.
void RecordDecoder::external(const ExternalCorrelationRecord& r) {
    if (options_.plan_matcher == nullptr || r.externalKind != kPlanEntryTagKind) {
        ++stats_.other_kinds;
        return;
    }
    options_.plan_matcher->add_tag(r.correlationId, r.externalId);
}

void RecordDecoder::memcpy(const MemcpyRecord& r) {
    const CopyKind kind = FixedNames::copy_kind(r.copyKind);
    auto a = make(ActivityKind::Memcpy, lanes_.stream(r.deviceId, r.contextId, r.streamId),
                  names_.copy(kind), r.correlationId);
    a.copy = kind;
    a.bytes = r.bytes;
    if (!timed(r.start, r.end, a)) return;
    emit(a);
    graph_node(a, r.graphId, r.graphNodeId);
}

void RecordDecoder::peer_copy(const PeerCopyRecord& r) {
    auto a = make(ActivityKind::Memcpy, lanes_.stream(r.deviceId, r.contextId, r.streamId),
                  names_.copy(CopyKind::P2P), r.correlationId);
    a.copy = CopyKind::P2P;
    a.bytes = r.bytes;
    if (!timed(r.start, r.end, a)) return;
    emit(a);
    graph_node(a, r.graphId, r.graphNodeId);
}

void RecordDecoder::memset(const MemsetRecord& r) {
    auto a = make(ActivityKind::Memset, lanes_.stream(r.deviceId, r.contextId, r.streamId),
                  names_.memset(), r.correlationId);
    a.bytes = r.bytes;
    if (!timed(r.start, r.end, a)) return;
    emit(a);
    graph_node(a, r.graphId, r.graphNodeId);
}

void RecordDecoder::api(const ApiRecord& r, CUpti_CallbackDomain domain) {
    const std::uint16_t lane = lanes_.thread(r.processId, r.threadId);
    auto a = make(ActivityKind::Api, lane, api_names_.name(domain, r.cbid), r.correlationId);
    if (api_names_.is_sync(domain, r.cbid)) {
        if (auto it = waiting_syncs_.find(r.correlationId); it != waiting_syncs_.end()) {
            it->second.lane = lane;
            emit(it->second);
            waiting_syncs_.erase(it);
        } else {
            sync_api_lanes_[r.correlationId] = lane;
        }
    }
    if (!timed(r.start, r.end, a)) return;
    emit(a);
    if (options_.plan_matcher != nullptr && ApiNames::is_kernel_launch(domain, r.cbid))
        options_.plan_matcher->add_launch(r.correlationId, a.start_ns);
}

void RecordDecoder::sync(const SyncRecord& r) {
    auto a = make(ActivityKind::Sync, 0, names_.sync(static_cast<std::uint32_t>(r.type)),
                  r.correlationId);
    if (!timed(r.start, r.end, a)) return;
    if (auto it = sync_api_lanes_.find(r.correlationId); it != sync_api_lanes_.end()) {
        a.lane = it->second;
        sync_api_lanes_.erase(it);
        emit(a);
    } else {
        waiting_syncs_[r.correlationId] = a;
    }
}

void RecordDecoder::overhead(const OverheadRecord& r) {
    const std::uint16_t lane = r.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD
                                   ? lanes_.thread(r.objectId.pt.processId, r.objectId.pt.threadId)
                                   : lanes_.cupti_overhead();
    const std::string name =
        std::string("CUPTI overhead: ") + FixedNames::overhead_name(r.overheadKind);
    auto a = make(ActivityKind::Range, lane, writer_.intern(name), r.correlationId);
    if (timed(r.start, r.end, a)) emit(a);
}

void RecordDecoder::marker(const MarkerRecord& r) {
    if (r.timestamp == 0 ||
        r.timestamp > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        ++stats_.incomplete;
        return;
    }
    const std::int64_t t = clock_.map(static_cast<std::int64_t>(r.timestamp));
    if ((r.flags & CUPTI_ACTIVITY_FLAG_MARKER_END) != 0) {
        if (auto range = markers_.end(r.id, t)) this->range(*range);
        return;
    }
    const std::uint16_t lane = r.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD
                                   ? lanes_.thread(r.objectId.pt.processId, r.objectId.pt.threadId)
                                   : lanes_.thread(options_.process_id, 0);
    const std::string_view text = r.name != nullptr ? r.name : "";
    const std::uint32_t name = writer_.intern(text);
    if ((r.flags & CUPTI_ACTIVITY_FLAG_MARKER_START) != 0) {
        MarkerPairer::Open open{t, name, lane, is_step(name, text), -1};
        if (open.step) open.number = trailing_number(text);
        if (auto range = markers_.start(r.id, open)) this->range(*range);
        return;
    }
    auto a = make(ActivityKind::Marker, lane, name, 0);
    a.start_ns = a.end_ns = t;
    emit(a);
}

void RecordDecoder::range(const MarkerPairer::Range& range) {
    if (range.end_ns < range.start.start_ns) {
        ++stats_.incomplete;
        return;
    }
    const auto& open = range.start;
    auto a = make(ActivityKind::Range, open.step ? lanes_.step_track() : open.lane, open.name, 0);
    a.start_ns = open.start_ns;
    a.end_ns = range.end_ns;
    emit(a);
    if (!open.step || !options_.steps_from_markers) return;
    // The number in the name (ProfilerStep#N) when there is one, as the nsys and
    // Kineto importers do; else the order in which the ranges closed.
    trace::Step s;
    s.phase = trace::Phase::Iteration;
    s.index = open.number >= 0 ? static_cast<std::int32_t>(open.number) : next_step_index_;
    ++next_step_index_;
    s.start_ns = a.start_ns;
    s.end_ns = a.end_ns;
    writer_.add_step(s);
    ++stats_.steps;
}

bool RecordDecoder::is_step(std::uint32_t name, std::string_view text) {
    if (!has_step_pattern_) return false;
    if (name >= step_names_.size()) step_names_.resize(name + 1, -1);
    if (step_names_[name] < 0)
        step_names_[name] = std::regex_search(text.begin(), text.end(), step_regex_) ? 1 : 0;
    return step_names_[name] == 1;
}

void RecordDecoder::finish() {
    if (finished_) return;
    finished_ = true;
    if (options_.plan_matcher != nullptr) {
        options_.plan_matcher->finish([this](std::string_view n) { return writer_.intern(n); },
                                      [this](const trace::Activity& a) { emit(a); },
                                      [this](std::uint32_t id) { return kernel_names_.text(id); });
        write_plan_match_diagnostics();
    }
    // A sync whose API record never came (API tracing off, or lost): keep it, on a
    // lane that says its thread is unknown.
    for (auto& [correlation, a] : waiting_syncs_) {
        a.lane = lanes_.unattributed_sync();
        emit(a);
        ++stats_.unattributed_syncs;
    }
    waiting_syncs_.clear();
    stats_.unterminated_ranges = static_cast<std::int64_t>(markers_.open_starts());
    stats_.orphan_range_ends = static_cast<std::int64_t>(markers_.orphan_ends());
    write_diagnostics();
}

void RecordDecoder::write_plan_match_diagnostics() {
    const auto& matcher = *options_.plan_matcher;
    // The spec names replace CUDA's in the run, so the mapping is kept here.
    std::string text = std::to_string(matcher.matched()) +
                       " kernels named after the workload spec, with its FLOPs and bytes";
    if (matcher.helpers() > 0)
        text += " (" + std::to_string(matcher.helpers()) +
                " of them library helper kernels, named entry/kernel, sharing their entry's "
                "FLOPs and bytes in proportion to their durations)";
    text += "; CUDA names:";
    constexpr std::size_t kMaxCudaName = 160;  // templated kernels demangle to pages
    for (const auto& [spec, cuda] : matcher.cuda_names())
        text +=
            " " + spec + "=" + std::string(kernel_names_.text(cuda).substr(0, kMaxCudaName)) + ";";
    writer_.add_diagnostic({"kernels_joined_to_spec", trace::Severity::Info,
                            static_cast<double>(matcher.matched()), text});
    if (matcher.unmatched() > 0)
        writer_.add_diagnostic(
            {"kernels_without_spec", trace::Severity::Info,
             static_cast<double>(matcher.unmatched()),
             "kernels outside the workload's iterations or whose iteration did not match its "
             "plan; they keep CUDA names and no FLOPs"});
}

void RecordDecoder::write_diagnostics() {
    using trace::Severity;
    auto add = [&](std::int64_t value, const char* name, Severity severity, const char* text) {
        if (value > 0) writer_.add_diagnostic({name, severity, static_cast<double>(value), text});
    };
    add(stats_.incomplete, "incomplete_records", Severity::DataLoss,
        "CUPTI records with a zero or reversed timestamp (CUPTI could not time them); skipped");
    add(stats_.other_kinds, "cupti_other_records", Severity::Info,
        "CUPTI records of kinds the tracer does not show (device, context, name records)");
    add(stats_.unterminated_ranges, "nvtx_unterminated_ranges", Severity::DataLoss,
        "NVTX ranges without an end (capture stopped inside them)");
    add(stats_.orphan_range_ends, "nvtx_orphan_range_ends", Severity::DataLoss,
        "NVTX range ends whose start was not traced");
    add(stats_.unattributed_syncs, "sync_thread_unknown", Severity::Info,
        "synchronizations whose API call was not traced, shown on their own lane");
    add(stats_.graph_activities, "cuda_graph_activities", Severity::Info,
        "kernels, copies and memsets that ran as nodes of a CUDA graph; each links to its "
        "cudaGraphLaunch");
}

}  // namespace tokenscope::capture::cupti
