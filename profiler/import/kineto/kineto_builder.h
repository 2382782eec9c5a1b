#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "device_table.h"
#include "import/step_presets.h"
#include "kernel_launch.h"
#include "lane_registry.h"
#include "trace/run_data.h"
#include "trace_reader.h"

namespace tokenscope::import::kineto {

// What a Kineto event's "cat" says it is; older Kineto versions capitalise
// ("Kernel", "Runtime"), so matching ignores case.
enum class Category : std::uint8_t {
    Kernel,
    Memcpy,
    Memset,
    Runtime,
    Driver,
    CpuOp,
    UserAnnotation,
    GpuUserAnnotation,
    PythonFunction,
    Unknown
};
Category category_of(std::string_view cat);

// Turns trace events into a RunData: lanes, activities, steps, counters and
// diagnostics. Times stay relative to the file's ts until finish() adds
// baseTimeNanoseconds, which Kineto may write after the events.
class KinetoBuilder : public TraceHandler {
  public:
    // Empty pattern: the iteration presets. Throws std::regex_error for a bad one.
    explicit KinetoBuilder(const std::string& step_pattern);

    void on_event(const KinetoEvent& e) override;
    bool wants_member(std::string_view key) const override;
    void on_member(std::string_view key, std::string_view raw_json) override;

    trace::RunData finish(std::vector<KernelLaunch>* launches);
    std::int64_t events() const { return events_; }
    std::int64_t flow_events() const { return static_cast<std::int64_t>(flows_.size()); }
    std::int64_t flows_bound() const { return flows_bound_; }
    trace::RunData& run() { return run_; }

  private:
    struct Open {  // a "B" event waiting for its "E"
        std::int64_t start;
        std::uint32_t name;
        std::string cat;
    };
    struct Flow {
        std::int64_t pid, tid, ts, id;
        bool start;
    };
    struct Span {
        Category cat;
        std::string_view cat_text;
        std::uint32_t name;
        std::int64_t pid, tid, start, end;
    };

    void complete(const Span& s, const KinetoEvent* args);
    void begin_end(const KinetoEvent& e, std::int64_t pid, std::int64_t tid, std::int64_t ts);
    void metadata(const KinetoEvent& e, std::int64_t pid, std::int64_t tid);
    void counter(const KinetoEvent& e, std::int64_t pid, std::int64_t ts);
    void marker(const KinetoEvent& e, std::int64_t pid, std::int64_t tid, std::int64_t ts);
    void maybe_step(const Span& s);
    void frame_steps();
    void malformed(std::string_view why);
    void link_flows();
    void close_open_ranges();
    void shift_times(std::int64_t base);
    void set_rank_and_origin(const nlohmann::json& workload);

    trace::RunData run_;
    LaneRegistry lanes_;
    DeviceTable devices_;
    StepSelector steps_;
    std::vector<StepCandidate> step_candidates_;
    std::vector<std::pair<std::int64_t, std::int64_t>> step_threads_;  // pid, tid of each
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<Open>> open_;
    std::vector<Flow> flows_;
    std::vector<std::uint32_t> external_ids_;  // parallel to run_.activities
    std::vector<KernelLaunch> launches_;
    // Graph nodes by activity index; keyed by final lane and start in finish().
    std::vector<std::pair<std::uint32_t, trace::GraphNode>> graph_nodes_;
    std::map<std::string, std::int64_t> unknown_categories_;
    std::map<std::string, std::string> members_;  // raw JSON of kept top-level members
    std::int64_t base_time_ns_ = 0;
    bool any_correlation_ = false;
    std::int64_t ignored_flows_ = 0;
    std::int64_t events_ = 0;
    std::int64_t flows_bound_ = 0;
    std::int64_t unsupported_phases_ = 0;
};

}  // namespace tokenscope::import::kineto
