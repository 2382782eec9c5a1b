#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "event_parser.h"
#include "import/file_source.h"
#include "json/reader.h"
#include "json/window.h"
#include "kineto_event.h"
#include "trace/memory_budget.h"
#include "trace/progress.h"

namespace tokenscope::import {
class BackgroundInflate;
}

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
// one buffer (inflated by libdeflate when gzipped), and parsed window by window
// (json/window.h, trace_reader_windows.cpp); a larger one streams, its "traceEvents"
// array cut into slices of whole events by json::ObjectSlicer, so only one slice and
// what the events became are in memory.
class TraceReader {
  public:
    // slice_bytes > 0 reads in slices of that size even when the trace fits whole;
    // window_bytes > 0 parses a trace read whole in windows of that size (tests reach
    // the window edges this way), 0 in windows of kWindowBytes.
    // `alongside`: a gzipped trace may be inflated on a second thread while parsed.
    TraceReader(const std::string& path, const trace::ProgressFn& progress,
                std::size_t slice_bytes = 0, std::size_t window_bytes = 0, bool alongside = true);

    // A window of 1 MiB: its structural index (about 0.8 MB for a Kineto trace) stays
    // in the L2 or L3 cache between simdjson's two stages.
    static constexpr std::size_t kWindowBytes = std::size_t{1} << 20;

    void read(TraceHandler& handler);
    // How many windows the events were parsed in: 0 when in one piece or in slices.
    std::int64_t windows() const { return windows_; }
    // Whether a second thread inflated the gzip while the windows parsed it.
    bool inflated_alongside() const { return alongside_used_; }

    // What the handler keeps of one event, roughly: its 40-byte activity and
    // what joins it to others (launch facts, flow ends, external ids). With the
    // text held it is the working set checked against the import's memory budget.
    static constexpr std::uint64_t kBytesPerEvent = 128;

  private:
    // What the windows handed over: root members read to their end, and the events
    // of the member being read. A read whole after them skips these.
    struct Handed {
        std::size_t members = 0;
        std::uint64_t events = 0;
    };
    // Where a window left off: the events' array ended (`at`: the byte after it), more
    // events follow (`at`: the byte after the separator before the next one), the head
    // ended before the events (read it again, larger), or the windows cannot go on.
    struct Left {
        enum Kind { Ended, More, Retry, GiveUp } kind = GiveUp;
        std::size_t at = 0;
    };

    // A window ended inside a value that was to be handed over: it is read again.
    struct WindowRanOut {};

    void check_start(const char* text);
    bool inflate_alongside() const;
    // `text` is `whole`'s bytes, or those a background inflate fills (whole null).
    void read_text(TraceHandler& handler, const json::TextBuffer& text, std::uint64_t bytes,
                   std::string* whole);
    // Bytes of the text there: at least `want` unless the text is shorter (waiting for
    // a background inflate); text_size() waits for all of it.
    std::size_t have(std::size_t want);
    std::string& inflate_again(std::string& out);
    std::size_t text_size();
    // The first newline at or after `from` (npos: none within `within` bytes), the
    // bytes simdjson reads past it there too.
    std::size_t cut_after(const json::TextBuffer& text, std::size_t from,
                          std::size_t within = std::string::npos);
    std::size_t skip_space(const json::TextBuffer& text, std::size_t i);
    void read_whole(TraceHandler& handler, std::string& text, const Handed& skip);
    // trace_reader_windows.cpp: false when the windows gave up; `handed` then says
    // what read_whole must skip.
    bool read_windows(TraceHandler& handler, const json::TextBuffer& text, Handed& handed);
    Left read_head(TraceHandler& handler, const json::TextBuffer& text, Handed& handed,
                   std::size_t bytes);
    Left read_window(TraceHandler& handler, const json::TextBuffer& text, Handed& handed,
                     std::size_t start, std::size_t bytes);
    Left window_events(TraceHandler& handler, const json::TextBuffer& text, json::od::value& value,
                       std::size_t cut, Handed& handed);
    bool read_tail(TraceHandler& handler, const json::TextBuffer& text, Handed& handed,
                   std::size_t at);
    void read_sliced(TraceHandler& handler);
    // `limit`: a member whose text reaches it is not handed over (throws WindowRanOut).
    void read_member(TraceHandler& handler, std::string_view key, json::od::value& value,
                     std::uint64_t skip_events = 0, const char* limit = nullptr);
    void read_events(TraceHandler& handler, json::od::value& value, std::uint64_t skip = 0);
    void hand_over(TraceHandler& handler);
    void check_budget(std::uint64_t text_bytes);
    void report_progress(std::int64_t consumed);
    [[noreturn]] void shape_error(const std::string& problem) const;

    std::string path_;
    trace::ProgressFn progress_;
    std::size_t slice_bytes_;
    std::size_t window_bytes_;
    bool alongside_;
    FileSource source_;
    BackgroundInflate* inflate_ = nullptr;  // while a background inflate fills the text
    std::size_t there_ = 0;                 // bytes of the text there, last we asked
    json::Reader reader_;
    EventParser parser_;
    KinetoEvent event_;
    bool saw_events_ = false;
    std::uint64_t events_ = 0;
    std::int64_t windows_ = 0;
    bool alongside_used_ = false;
    std::uint64_t whole_bytes_ = 0;  // the text read whole, for the budget and progress
    trace::MemoryBudget budget_;
};

}  // namespace tokenscope::import::kineto
