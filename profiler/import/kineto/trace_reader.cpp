#include "trace_reader.h"

#include "import/import_error.h"

namespace tokenscope::import::kineto {

TraceReader::TraceReader(const std::string& path, const trace::ProgressFn& progress)
    : path_(path), progress_(progress), source_(path), budget_(path) {}

void TraceReader::shape_error(const std::string& problem) const {
    throw ImportError(path_, "not a Kineto trace: " + problem);
}

void TraceReader::refill() {
    if (pos_ > 0) {
        buf_.erase(0, pos_);
        base_ += static_cast<std::int64_t>(pos_);
        pos_ = 0;
    }
    std::string_view chunk = source_.next_chunk();
    // The buffer holds one event (or top-level member) whole, however long it is.
    budget_.require(buf_.size() + chunk.size() + events_ * kBytesPerEvent,
                    "this " + trace::format_bytes(static_cast<std::uint64_t>(source_.file_size())) +
                        " Kineto trace, " + std::to_string(events_) + " events in,");
    if (chunk.empty()) {
        eof_ = true;
    } else {
        buf_.append(chunk);
    }
    if (progress_ && !progress_(source_.file_consumed(), source_.file_size()))
        throw trace::Cancelled();
}

// Runs fn on a cursor over the unread data; on NeedMoreData refills and runs it
// again from the same start, so fn must not act on anything before it returns.
template <typename Fn>
void TraceReader::unit(Fn&& fn) {
    while (true) {
        cursor_.reset(buf_.data() + pos_, buf_.data() + buf_.size(), eof_);
        try {
            fn(cursor_);
            pos_ += cursor_.offset();
            return;
        } catch (const NeedMoreData&) {
            refill();
        } catch (const JsonSyntaxError& e) {
            std::int64_t at = base_ + static_cast<std::int64_t>(pos_ + e.offset());
            if (e.at_end() && base_ == 0 && buf_.find_first_not_of(" \t\r\n") == std::string::npos)
                throw ImportError(path_, "empty JSON document");
            if (e.at_end())
                throw ImportError(
                    path_, "truncated JSON: unexpected end of data at byte " + std::to_string(at));
            throw ImportError(path_,
                              "invalid JSON at byte " + std::to_string(at) + ": " + e.what());
        }
    }
}

void TraceReader::read(TraceHandler& handler) {
    char first = 0;
    unit([&](JsonCursor& c) { first = c.peek(); });
    if (first == '[')
        shape_error("the top-level JSON is an array; Kineto writes an object with \"traceEvents\"");
    if (first != '{')
        unit([](JsonCursor& c) { c.fail("a JSON document must start with '{' or '['"); });
    read_members(handler);
    check_trailing();
    if (!saw_events_) shape_error("no \"traceEvents\" array");
}

void TraceReader::read_members(TraceHandler& handler) {
    bool more = false;
    unit([&](JsonCursor& c) { more = c.begin_object(); });
    while (more) {
        std::string key;
        unit([&](JsonCursor& c) { key = c.key(); });
        if (key == "traceEvents") {
            char c0 = 0;
            unit([&](JsonCursor& c) { c0 = c.peek(); });
            if (c0 != '[') shape_error("\"traceEvents\" is not an array");
            read_events(handler);
        } else {
            std::string_view raw;
            unit([&](JsonCursor& c) { raw = c.skip_value(); });
            if (handler.wants_member(key)) handler.on_member(key, raw);
        }
        unit([&](JsonCursor& c) { more = c.next_member(); });
    }
}

void TraceReader::read_events(TraceHandler& handler) {
    saw_events_ = true;
    bool more = false;
    unit([&](JsonCursor& c) { more = c.begin_array(); });
    while (more) {
        unit([&](JsonCursor& c) {
            parser_.parse(c, event_);
            more = c.next_element();
        });
        handler.on_event(event_);
        ++events_;
    }
}

void TraceReader::check_trailing() {
    while (true) {
        for (std::size_t i = pos_; i < buf_.size(); ++i) {
            char ch = buf_[i];
            if (ch != ' ' && ch != '\n' && ch != '\r' && ch != '\t')
                throw ImportError(path_, "invalid JSON at byte " +
                                             std::to_string(base_ + static_cast<std::int64_t>(i)) +
                                             ": unexpected data after the document");
        }
        pos_ = buf_.size();
        if (eof_) return;
        refill();
    }
}

}  // namespace tokenscope::import::kineto
