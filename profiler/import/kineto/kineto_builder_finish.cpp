// KinetoBuilder's end-of-file work: everything that needs the whole trace.
#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "import/iteration_window.h"
#include "import/trace_start_backlog.h"
#include "kineto_builder.h"
#include "trace/activity_order.h"

namespace tokenscope::import::kineto {
namespace {

bool is_api(const trace::Activity& a) {
    return a.kind == trace::ActivityKind::Api || a.kind == trace::ActivityKind::Sync;
}
bool is_gpu_work(const trace::Activity& a) {
    return trace::is_gpu_operation(a.kind);
}

// The run's launch table is keyed by correlation (flows may have supplied it), so
// it is built once every kernel has its final correlation id.
void add_run_launches(const std::vector<KernelLaunch>& found, trace::RunData& run) {
    run.launches.reserve(found.size());
    // The kernels of one cudaGraphLaunch share its correlation id: whose launch facts
    // the key would give could not be told, so such kernels keep none.
    std::unordered_map<std::uint32_t, int> kernels_of;
    for (const auto& k : found) ++kernels_of[run.activities[k.activity].correlation];
    std::size_t shared = 0;
    for (const auto& k : found) {
        if (kernels_of[run.activities[k.activity].correlation] > 1) {
            ++shared;
            continue;
        }
        run.launches.add(trace::KernelLaunch::from_counts(
            run.activities[k.activity].correlation, {k.grid[0], k.grid[1], k.grid[2]},
            {k.block[0], k.block[1], k.block[2]}, k.shared_memory, 0, k.registers_per_thread));
    }
    if (std::size_t dropped = run.launches.finish() + shared; dropped > 0)
        run.count_diagnostic("kineto_launch_unkeyed", trace::Severity::Info,
                             static_cast<double>(dropped),
                             "kernels with grid/block args but no correlation id of their own "
                             "(none, or shared with another kernel): the hover omits their launch");
}

// Activities of one kind group, ordered by (lane, start), for flow binding.
std::vector<std::uint32_t> index_by_lane(const std::vector<trace::Activity>& acts,
                                         bool (*keep)(const trace::Activity&)) {
    return trace::activity_order_index(acts, keep);
}

// The activity on `lane` whose [start, end] holds ts (the latest starting one).
std::optional<std::uint32_t> enclosing(const std::vector<trace::Activity>& acts,
                                       const std::vector<std::uint32_t>& idx, std::uint16_t lane,
                                       std::int64_t ts) {
    auto it =
        std::upper_bound(idx.begin(), idx.end(), std::make_pair(lane, ts),
                         [&](const std::pair<std::uint16_t, std::int64_t>& key, std::uint32_t i) {
                             return key < std::make_pair(acts[i].lane, acts[i].start_ns);
                         });
    if (it == idx.begin()) return std::nullopt;
    std::uint32_t i = *(it - 1);
    if (acts[i].lane != lane || acts[i].end_ns < ts) return std::nullopt;
    return i;
}

}  // namespace

// ac2g flows tie a runtime call ("s", on the CPU thread) to the GPU work it
// launched ("f", on the stream, bound to the enclosing slice). Where the events
// carry args.correlation already, the flow agrees with it and changes nothing.
void KinetoBuilder::link_flows() {
    auto& acts = run_.activities;
    const auto api = index_by_lane(acts, is_api);
    const auto gpu = index_by_lane(acts, is_gpu_work);
    std::int64_t unbound = 0;
    for (const Flow& f : flows_) {
        std::optional<std::uint32_t> hit;
        if (!f.start) {
            if (auto lane = lanes_.find(LaneClass::Gpu, f.pid, f.tid))
                hit = enclosing(acts, gpu, *lane, f.ts);
        }
        if (!hit) {
            if (auto lane = lanes_.find(LaneClass::Cpu, f.pid, f.tid))
                hit = enclosing(acts, api, *lane, f.ts);
        }
        if (!hit) {
            ++unbound;
            continue;
        }
        ++flows_bound_;
        if (acts[*hit].correlation == 0) {
            acts[*hit].correlation = static_cast<std::uint32_t>(f.id);
            any_correlation_ = true;
        }
    }
    if (unbound > 0)
        run_.count_diagnostic("kineto_unbound_flows", trace::Severity::Info,
                              static_cast<double>(unbound),
                              "ac2g flow events with no runtime call or GPU activity at their "
                              "time on their thread or stream");
    if (any_correlation_) return;
    // No correlation ids at all (very old traces): the External id still ties a
    // runtime call to its kernels, so it stands in.
    std::int64_t used = 0;
    for (std::size_t i = 0; i < acts.size(); ++i) {
        if ((is_api(acts[i]) || is_gpu_work(acts[i])) && external_ids_[i] != 0) {
            acts[i].correlation = external_ids_[i];
            ++used;
        }
    }
    if (used > 0)
        run_.count_diagnostic("kineto_correlation_from_external_id", trace::Severity::Info,
                              static_cast<double>(used),
                              "no correlation ids in the trace; External id used instead");
}

// Steps from the markers, each extended over the GPU work its marker launched. Runs
// before the lanes are renumbered: the markers' threads are found by pid/tid.
void KinetoBuilder::frame_steps() {
    for (std::size_t i = 0; i < step_candidates_.size(); ++i) {
        const auto [pid, tid] = step_threads_[i];
        if (auto lane = lanes_.find(LaneClass::Cpu, pid, tid))
            step_candidates_[i].host_lane = *lane;
    }
    std::vector<std::size_t> sources;
    run_.steps = steps_.select(step_candidates_, run_, nullptr, &sources);
    std::vector<int> host_lane;
    host_lane.reserve(sources.size());
    for (std::size_t i : sources) host_lane.push_back(step_candidates_[i].host_lane);
    extend_to_gpu_work(run_, run_.steps, host_lane);
}

void KinetoBuilder::close_open_ranges() {
    std::int64_t open = 0;
    for (const auto& [key, stack] : open_) open += static_cast<std::int64_t>(stack.size());
    if (open > 0)
        run_.count_diagnostic("kineto_unclosed_begin", trace::Severity::DataLoss,
                              static_cast<double>(open),
                              "\"B\" events never closed by an \"E\", skipped");
}

void KinetoBuilder::shift_times(std::int64_t base) {
    if (base == 0) return;
    for (auto& a : run_.activities) {
        a.start_ns += base;
        a.end_ns += base;
    }
    for (auto& s : run_.steps) s.shift(base);
    for (auto& c : run_.counters) c.time_ns += base;
}

// torch.distributed's rank (distributedInfo.rank) goes on every lane, so a merge of
// per-rank files groups them. Times are UTC once baseTimeNanoseconds is added (Kineto
// writes ts relative to it); older Kineto wrote ts as UTC microseconds outright,
// recognised by a start after 2001 (1e18 ns). Either way the run's time 0 is the epoch.
void KinetoBuilder::set_rank_and_origin(const nlohmann::json& workload) {
    auto info = workload.find("distributedInfo");
    if (info != workload.end() && info->is_object()) {
        auto rank = info->find("rank");
        if (rank != info->end() && rank->is_number_integer() && *rank >= 0 &&
            *rank <= std::numeric_limits<std::int32_t>::max())
            for (auto& lane : run_.lanes) lane.rank = rank->get<std::int32_t>();
    }
    const bool utc_ts =
        !run_.activities.empty() &&
        std::all_of(run_.activities.begin(), run_.activities.end(), [](const trace::Activity& a) {
            return a.start_ns >= 1'000'000'000'000'000'000LL;
        });
    if (base_time_ns_ != 0 || utc_ts) run_.info.origin_utc_ns = 0;
}

trace::RunData KinetoBuilder::finish(std::vector<KernelLaunch>* launches) {
    close_open_ranges();
    link_flows();
    frame_steps();
    note_trace_start_backlog(run_);
    add_run_launches(launches_, run_);
    shift_times(base_time_ns_);
    std::vector<std::uint16_t> remap = lanes_.finish(run_);
    for (auto& a : run_.activities) a.lane = remap[a.lane];
    for (auto& c : run_.counters) c.lane = remap[c.lane];
    for (const auto& [i, node] : graph_nodes_)
        run_.graphs.add(run_.activities[i].lane, run_.activities[i].start_ns, node);
    if (std::size_t dropped = run_.graphs.finish(); dropped > 0)
        run_.count_diagnostic("kineto_graph_node_repeated", trace::Severity::Info,
                              static_cast<double>(dropped),
                              "graph kernels starting on the same stream at the same time as "
                              "another: the hover shows the first one's node");

    auto& steps = run_.steps;
    std::sort(steps.begin(), steps.end(), [](const trace::Step& a, const trace::Step& b) {
        return std::tie(a.start_ns, a.index, a.end_ns) < std::tie(b.start_ns, b.index, b.end_ns);
    });
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());

    if (!unknown_categories_.empty()) {
        std::int64_t total = 0;
        std::string text = "events of categories the importer does not know, kept as ranges:";
        for (const auto& [cat, n] : unknown_categories_) {
            total += n;
            text +=
                " " + (cat.empty() ? std::string("(none)") : cat) + " (" + std::to_string(n) + ")";
        }
        run_.count_diagnostic("kineto_unknown_category", trace::Severity::Info,
                              static_cast<double>(total), text);
    }
    if (ignored_flows_ > 0)
        run_.count_diagnostic("kineto_ignored_flows", trace::Severity::Info,
                              static_cast<double>(ignored_flows_),
                              "flow events other than ac2g (e.g. fwdbwd) are not used");
    if (unsupported_phases_ > 0)
        run_.count_diagnostic("kineto_unsupported_phase", trace::Severity::Info,
                              static_cast<double>(unsupported_phases_),
                              "events of phases other than X, B/E, i, C, M, s/f skipped");

    std::int64_t device = -1;
    for (const auto& lane : run_.lanes)
        if (lane.kind == trace::LaneKind::GpuStream && (device < 0 || lane.device < device))
            device = lane.device;
    run_.info.gpu = devices_.gpu(device < 0 ? 0 : device);

    nlohmann::json workload = {{"format", "kineto"}};
    for (const auto& [key, raw] : members_) {
        nlohmann::json v = nlohmann::json::parse(raw, nullptr, false);
        if (!v.is_discarded()) workload[key] = v;
    }
    if (!devices_.empty()) workload["devices"] = nlohmann::json::parse(devices_.json());
    if (base_time_ns_ != 0) workload["baseTimeNanoseconds"] = base_time_ns_;
    if (auto it = workload.find("host_name"); it != workload.end() && it->is_string())
        run_.info.host = *it;
    set_rank_and_origin(workload);
    run_.info.workload_json = workload.dump();
    run_.info.complete = true;
    if (launches) *launches = std::move(launches_);
    return std::move(run_);
}

}  // namespace tokenscope::import::kineto
