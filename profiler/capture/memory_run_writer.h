#pragma once

#include "store/run_writer.h"
#include "trace/run_data.h"

namespace tokenscope::capture {

// A RunWriter that keeps the run in memory: for tests and for callers that want a
// RunData without a file. finish() sorts activities by (lane, start) as the store's
// reader returns them, and launches by correlation as LaunchTable::find needs.
class MemoryRunWriter : public store::RunWriter {
  public:
    explicit MemoryRunWriter(const trace::RunInfo& info = {}) { data_.info = info; }

    std::uint16_t add_lane(const trace::Lane& lane) override;
    std::uint32_t intern(std::string_view text) override { return data_.strings.intern(text); }
    void add_activity(const trace::Activity& a) override { data_.activities.push_back(a); }
    void add_step(const trace::Step& s) override { data_.steps.push_back(s); }
    void add_request(const trace::Request& r) override { data_.requests.push_back(r); }
    void add_counter(const trace::CounterSample& c) override { data_.counters.push_back(c); }
    void add_diagnostic(const trace::Diagnostic& d) override { data_.diagnostics.push_back(d); }
    void add_launch(const trace::KernelLaunch& l) override { data_.launches.add(l); }
    void add_graph_activity(const trace::GraphActivity& g) override { data_.graphs.add(g); }
    void update_info(const trace::RunInfo& info) override { data_.info = info; }

    void poll() override {}
    void flush() override {}
    void finish() override;
    void abandon() override;

    std::int64_t run_id() const override { return data_.info.id; }
    std::int64_t committed_batches() const override { return 0; }
    std::int64_t activities_written() const override {
        return static_cast<std::int64_t>(data_.activities.size());
    }

    bool finished() const { return finished_; }
    bool abandoned() const { return abandoned_; }
    const trace::RunData& data() const { return data_; }
    trace::RunData take() { return std::move(data_); }

  private:
    trace::RunData data_;
    bool finished_ = false;
    bool abandoned_ = false;
};

}  // namespace tokenscope::capture
