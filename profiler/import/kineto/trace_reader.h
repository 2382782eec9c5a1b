#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "event_parser.h"
#include "import/file_source.h"
#include "json/reader.h"
#include "kineto_event.h"
#include "trace/memory_budget.h"
#include "trace/progress.h"

namespace tokenscope::import::kineto {

// Receives what TraceReader finds, in file order.
class TraceHandler {
  public:
    virtual ~TraceHandler() = default;
    virtual void on_event(const KinetoEvent& event) = 0;
    // Whether the raw JSON text of this top-level member is wanted.
    virtual bool wants_member(std::string_view key) const = 0;
    virtual void on_member(std::string_view key, std::string_view raw_json) = 0;
};

// Reads a Kineto trace (plain or gzip) with the project's JSON reader (simdjson
// On-Demand). A trace that fits half the import's memory budget is read whole, in
// one buffer (inflated by libdeflate when gzipped); a larger one streams, its
// "traceEvents" array cut into slices of whole events by json::ObjectSlicer, so
// only one slice and what the events became are in memory.
class TraceReader {
  public:
    // slice_bytes > 0 reads in slices of that size even when the trace fits whole.
    TraceReader(const std::string& path, const trace::ProgressFn& progress,
                std::size_t slice_bytes = 0);

    void read(TraceHandler& handler);

    // What the handler keeps of one event, roughly: its 40-byte activity and
    // what joins it to others (launch facts, flow ends, external ids). With the
    // text held it is the working set checked against the import's memory budget.
    static constexpr std::uint64_t kBytesPerEvent = 128;

  private:
    void check_start(const std::string* whole);
    void read_whole(TraceHandler& handler, std::string& text);
    void read_sliced(TraceHandler& handler);
    void read_member(TraceHandler& handler, std::string_view key, json::od::value& value);
    void read_events(TraceHandler& handler, json::od::value& value);
    void check_budget(std::uint64_t text_bytes);
    void report_progress(std::int64_t consumed);
    [[noreturn]] void shape_error(const std::string& problem) const;

    std::string path_;
    trace::ProgressFn progress_;
    std::size_t slice_bytes_;
    FileSource source_;
    json::Reader reader_;
    EventParser parser_;
    KinetoEvent event_;
    bool saw_events_ = false;
    std::uint64_t events_ = 0;
    std::uint64_t whole_bytes_ = 0;  // the text read whole, for the budget and progress
    trace::MemoryBudget budget_;
};

}  // namespace tokenscope::import::kineto
