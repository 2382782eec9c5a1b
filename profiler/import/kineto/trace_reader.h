#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "event_parser.h"
#include "import/file_source.h"
#include "json_cursor.h"
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

// Streams a Kineto trace (plain or gzip) through a bounded buffer: only the
// event being parsed and the rest of the current chunk are in memory, never
// the whole document. Each trace event is one retryable unit: when the buffer
// ends inside it, the buffer is refilled and the event parsed again.
class TraceReader {
  public:
    TraceReader(const std::string& path, const trace::ProgressFn& progress);

    void read(TraceHandler& handler);
    std::int64_t bytes_parsed() const { return base_ + static_cast<std::int64_t>(pos_); }

    // What the handler keeps of one event, roughly: its 40-byte activity and
    // what joins it to others (launch facts, flow ends, external ids). With the
    // buffer it is the working set checked against the import's memory budget.
    static constexpr std::uint64_t kBytesPerEvent = 128;

  private:
    template <typename Fn>
    void unit(Fn&& fn);
    void refill();
    void read_members(TraceHandler& handler);
    void read_events(TraceHandler& handler);
    void check_trailing();
    [[noreturn]] void shape_error(const std::string& problem) const;

    std::string path_;
    trace::ProgressFn progress_;
    FileSource source_;
    std::string buf_;
    std::size_t pos_ = 0;
    std::int64_t base_ = 0;  // absolute offset of buf_[0] in the decompressed data
    bool eof_ = false;
    JsonCursor cursor_{nullptr, nullptr, false};
    EventParser parser_;
    KinetoEvent event_;
    bool saw_events_ = false;
    std::uint64_t events_ = 0;
    trace::MemoryBudget budget_;
};

}  // namespace tokenscope::import::kineto
