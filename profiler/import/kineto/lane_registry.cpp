#include "lane_registry.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace tokenscope::import::kineto {
namespace {

std::string trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return std::string(s);
}

trace::LaneKind kind_of(LaneClass cls) {
    switch (cls) {
        case LaneClass::Cpu:
            return trace::LaneKind::CpuThread;
        case LaneClass::Gpu:
            return trace::LaneKind::GpuStream;
        case LaneClass::Counter:
            return trace::LaneKind::Counter;
        default:
            return trace::LaneKind::StepTrack;
    }
}

bool on_gpu(LaneClass cls) {
    return cls == LaneClass::Gpu || cls == LaneClass::GpuAnnotation;
}

// String pids/tids get ids at the very bottom of int64: real tids can be negative.
constexpr std::int64_t kSyntheticBase = std::numeric_limits<std::int64_t>::min();
bool is_synthetic(std::int64_t id) {
    return id < kSyntheticBase + (std::int64_t{1} << 32);
}

}  // namespace

std::size_t LaneRegistry::KeyHash::operator()(const Key& k) const {
    std::uint64_t h = std::get<0>(k);
    h = h * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(std::get<1>(k));
    h = h * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(std::get<2>(k));
    return static_cast<std::size_t>(h ^ (h >> 29));
}

std::int64_t LaneRegistry::resolve(const JsonId& id) {
    if (id.is_number) return id.number;
    auto [it, inserted] = synthetic_.try_emplace(std::string(id.text), 0);
    if (inserted) {
        synthetic_names_.emplace_back(id.text);
        it->second = kSyntheticBase + static_cast<std::int64_t>(synthetic_names_.size() - 1);
    }
    return it->second;
}

std::string_view LaneRegistry::synthetic_text(std::int64_t id) const {
    auto index = static_cast<std::size_t>(id - kSyntheticBase);
    return index < synthetic_names_.size() ? std::string_view(synthetic_names_[index]) : "";
}

std::uint16_t LaneRegistry::add(trace::RunData& run, LaneMeta meta, trace::Lane lane) {
    if (run.lanes.size() >= std::numeric_limits<std::uint16_t>::max())
        throw std::length_error("more than 65535 timeline lanes");
    meta_.push_back(std::move(meta));
    run.lanes.push_back(std::move(lane));
    return static_cast<std::uint16_t>(run.lanes.size() - 1);
}

std::uint16_t LaneRegistry::lane(LaneClass cls, std::int64_t pid, std::int64_t tid,
                                 std::string_view category, trace::RunData& run) {
    Key key{static_cast<std::uint8_t>(cls), pid, tid};
    if (auto it = lanes_.find(key); it != lanes_.end()) return it->second;
    trace::Lane lane;
    lane.kind = kind_of(cls);
    lane.device = on_gpu(cls) ? static_cast<std::int32_t>(pid) : -1;
    lane.process = pid;
    lane.native_id = tid;
    std::uint16_t index = add(run, LaneMeta{cls, pid, tid, std::string(category)}, lane);
    lanes_.emplace(key, index);
    return index;
}

std::optional<std::uint16_t> LaneRegistry::find(LaneClass cls, std::int64_t pid,
                                                std::int64_t tid) const {
    auto it = lanes_.find(Key{static_cast<std::uint8_t>(cls), pid, tid});
    if (it == lanes_.end()) return std::nullopt;
    return it->second;
}

std::uint16_t LaneRegistry::counter_lane(std::int64_t pid, const std::string& name,
                                         trace::RunData& run) {
    auto key = std::make_pair(pid, name);
    if (auto it = counters_.find(key); it != counters_.end()) return it->second;
    trace::Lane lane;
    lane.kind = trace::LaneKind::Counter;
    lane.process = pid;
    lane.native_id = static_cast<std::int64_t>(counters_.size());
    lane.name = name;
    std::uint16_t index = add(run, LaneMeta{LaneClass::Counter, pid, lane.native_id, {}}, lane);
    counters_.emplace(key, index);
    return index;
}

void LaneRegistry::set_process_name(std::int64_t pid, std::string_view name) {
    process_names_[pid] = trimmed(name);
}

void LaneRegistry::set_thread_name(std::int64_t pid, std::int64_t tid, std::string_view name) {
    thread_names_[{pid, tid}] = trimmed(name);
}

std::string LaneRegistry::thread_label(std::int64_t pid, std::int64_t tid) const {
    if (auto it = thread_names_.find({pid, tid}); it != thread_names_.end() && !it->second.empty())
        return it->second;
    if (is_synthetic(pid) || is_synthetic(tid)) {
        std::string p(is_synthetic(pid) ? synthetic_text(pid) : std::to_string(pid));
        std::string t(is_synthetic(tid) ? synthetic_text(tid) : std::to_string(tid));
        if (p.empty() && t.empty()) return "global";
        if (t.empty()) return p;
        return p.empty() ? t : p + " / " + t;
    }
    return "thread " + std::to_string(tid);
}

std::string LaneRegistry::lane_name(const LaneMeta& m, const std::string& counter_name) const {
    switch (m.cls) {
        case LaneClass::Cpu:
            return thread_label(m.pid, m.tid);
        case LaneClass::Gpu:
        case LaneClass::GpuAnnotation: {
            auto it = thread_names_.find({m.pid, m.tid});
            std::string stream = it != thread_names_.end() && !it->second.empty()
                                     ? it->second
                                     : "stream " + std::to_string(m.tid);
            std::string name = "GPU " + std::to_string(m.pid) + " " + stream;
            return m.cls == LaneClass::Gpu ? name : name + " annotations";
        }
        case LaneClass::Annotation: {
            std::string label = thread_label(m.pid, m.tid);
            return is_synthetic(m.pid) ? label : label + " annotations";
        }
        case LaneClass::Other:
            return thread_label(m.pid, m.tid) + " (" + m.category + ")";
        case LaneClass::Counter:
            return counter_name;
    }
    return counter_name;
}

std::vector<std::uint16_t> LaneRegistry::finish(trace::RunData& run) const {
    const std::size_t n = run.lanes.size();
    for (std::size_t i = 0; i < n; ++i) {
        trace::Lane& lane = run.lanes[i];
        lane.name = lane_name(meta_[i], lane.name);
        // Named tracks ("Spans", "Traces") have no real pid/tid to show.
        if (is_synthetic(lane.process)) lane.process = -1;
        if (is_synthetic(lane.native_id)) lane.native_id = -1;
    }
    // Kineto's own order: processes by sort index (GPUs sort after the host),
    // threads by sort index; synthetic string-named tracks and counters last.
    auto sort_key = [&](std::size_t i) {
        const LaneMeta& m = meta_[i];
        bool last = m.cls == LaneClass::Counter || is_synthetic(m.pid);
        auto ps = process_sort_.find(m.pid);
        auto ts = thread_sort_.find({m.pid, m.tid});
        return std::make_tuple(
            last, m.cls == LaneClass::Counter, ps != process_sort_.end() ? ps->second : m.pid,
            m.pid, ts != thread_sort_.end() ? ts->second : m.tid, m.tid, static_cast<int>(m.cls));
    };
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return sort_key(a) < sort_key(b); });
    std::vector<trace::Lane> sorted;
    sorted.reserve(n);
    std::vector<std::uint16_t> remap(n);
    for (std::size_t k = 0; k < n; ++k) {
        remap[order[k]] = static_cast<std::uint16_t>(k);
        sorted.push_back(std::move(run.lanes[order[k]]));
    }
    run.lanes = std::move(sorted);
    return remap;
}

}  // namespace tokenscope::import::kineto
