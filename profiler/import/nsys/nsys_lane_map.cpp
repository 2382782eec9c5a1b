#include "nsys_lane_map.h"

#include <limits>

#include "import/import_error.h"
#include "nsys_database.h"

namespace tokenscope::import {

NsysLaneMap::NsysLaneMap(const NsysDatabase& db, trace::RunData& run)
    : path_(db.path()), run_(run) {
    load_thread_names(db);
}

void NsysLaneMap::load_thread_names(const NsysDatabase& db) {
    if (!db.has_table("ThreadNames") || !db.has_table("StringIds")) return;
    // A thread renamed during the run has several rows; the highest priority wins.
    db.for_each_row(
        "SELECT t.globalTid, s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId "
        "ORDER BY t.priority",
        [this](sqlite3_stmt* s) {
            const auto* v = sqlite3_column_text(s, 1);
            if (v != nullptr)
                thread_names_[sqlite3_column_int64(s, 0)] = reinterpret_cast<const char*>(v);
            return true;
        });
}

std::uint16_t NsysLaneMap::add(trace::Lane lane) {
    if (run_.lanes.size() > std::numeric_limits<std::uint16_t>::max())
        throw ImportError(path_, "more than 65536 timeline lanes");
    run_.lanes.push_back(std::move(lane));
    return static_cast<std::uint16_t>(run_.lanes.size() - 1);
}

std::uint16_t NsysLaneMap::stream(std::int32_t device, std::int64_t stream,
                                  std::int64_t global_pid) {
    std::uint64_t key = (static_cast<std::uint64_t>(pid_of(global_pid)) << 40) ^
                        (static_cast<std::uint64_t>(device & 0xFF) << 32) ^
                        static_cast<std::uint32_t>(stream);
    if (key == last_stream_key_) return last_stream_lane_;
    auto it = streams_.find(key);
    if (it == streams_.end()) {
        trace::Lane lane{trace::LaneKind::GpuStream, device, pid_of(global_pid), stream,
                         "GPU " + std::to_string(device) + " stream " + std::to_string(stream)};
        it = streams_.emplace(key, add(std::move(lane))).first;
    }
    last_stream_key_ = key;
    last_stream_lane_ = it->second;
    return it->second;
}

std::uint16_t NsysLaneMap::thread(std::int64_t global_tid) {
    if (global_tid == last_thread_key_) return last_thread_lane_;
    auto it = threads_.find(global_tid);
    if (it != threads_.end()) {
        last_thread_key_ = global_tid;
        last_thread_lane_ = it->second;
        return it->second;
    }
    std::int64_t tid = tid_of(global_tid);
    auto name_it = thread_names_.find(global_tid);
    std::string name = name_it != thread_names_.end()
                           ? name_it->second + " (" + std::to_string(tid) + ")"
                           : "thread " + std::to_string(tid);
    trace::Lane lane{trace::LaneKind::CpuThread, -1, pid_of(global_tid), tid, std::move(name)};
    return threads_.emplace(global_tid, add(std::move(lane))).first->second;
}

std::uint16_t NsysLaneMap::step_track() {
    if (step_track_ < 0)
        step_track_ = add(trace::Lane{trace::LaneKind::StepTrack, -1, 0, 0, "NVTX steps"});
    return static_cast<std::uint16_t>(step_track_);
}

std::uint16_t NsysLaneMap::counter(std::int32_t device, std::int64_t id, const std::string& name) {
    std::int64_t key = (static_cast<std::int64_t>(device & 0xFF) << 40) ^ id;
    auto it = counters_.find(key);
    if (it != counters_.end()) return it->second;
    std::string label = device >= 0 ? "GPU " + std::to_string(device) + " " + name : name;
    trace::Lane lane{trace::LaneKind::Counter, device, 0, id, std::move(label)};
    return counters_.emplace(key, add(std::move(lane))).first->second;
}

}  // namespace tokenscope::import
