#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "kineto_event.h"
#include "trace/run_data.h"

namespace tokenscope::import::kineto {

// Which row of the timeline an event belongs on. Annotations, markers and
// unknown categories get StepTrack lanes of their own, so they frame work
// without being counted as CPU time by the attribution.
enum class LaneClass : std::uint8_t { Cpu, Gpu, Annotation, GpuAnnotation, Other, Counter };

// Creates lanes as events arrive (keyed by class and pid/tid), collects the
// "M" metadata names and sort indexes, and at the end names and orders the
// lanes the way Kineto's viewer does.
class LaneRegistry {
  public:
    // pid/tid as a number; strings ("Spans") get stable negative ids.
    std::int64_t resolve(const JsonId& id);
    std::uint16_t lane(LaneClass cls, std::int64_t pid, std::int64_t tid, std::string_view category,
                       trace::RunData& run);
    // The lane already made for that key, if any.
    std::optional<std::uint16_t> find(LaneClass cls, std::int64_t pid, std::int64_t tid) const;
    std::uint16_t counter_lane(std::int64_t pid, const std::string& name, trace::RunData& run);

    void set_process_name(std::int64_t pid, std::string_view name);
    void set_thread_name(std::int64_t pid, std::int64_t tid, std::string_view name);
    void set_process_sort(std::int64_t pid, std::int64_t index) { process_sort_[pid] = index; }
    void set_thread_sort(std::int64_t pid, std::int64_t tid, std::int64_t index) {
        thread_sort_[{pid, tid}] = index;
    }

    // Names every lane, sorts them and returns old index -> new index.
    std::vector<std::uint16_t> finish(trace::RunData& run) const;

  private:
    struct LaneMeta {
        LaneClass cls;
        std::int64_t pid;
        std::int64_t tid;
        std::string category;  // Other lanes only
    };
    using Key = std::tuple<std::uint8_t, std::int64_t, std::int64_t>;
    struct KeyHash {
        std::size_t operator()(const Key& k) const;
    };

    std::uint16_t add(trace::RunData& run, LaneMeta meta, trace::Lane lane);
    std::string thread_label(std::int64_t pid, std::int64_t tid) const;
    std::string lane_name(const LaneMeta& meta, const std::string& counter_name) const;
    std::string_view synthetic_text(std::int64_t id) const;

    std::unordered_map<Key, std::uint16_t, KeyHash> lanes_;
    std::map<std::pair<std::int64_t, std::string>, std::uint16_t> counters_;
    std::vector<LaneMeta> meta_;
    std::unordered_map<std::string, std::int64_t> synthetic_;
    std::vector<std::string> synthetic_names_;
    std::map<std::int64_t, std::string> process_names_;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> thread_names_;
    std::map<std::int64_t, std::int64_t> process_sort_;
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> thread_sort_;
};

}  // namespace tokenscope::import::kineto
