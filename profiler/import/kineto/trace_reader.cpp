#include "trace_reader.h"

#include <algorithm>
#include <limits>
#include <thread>

#include "import/background_inflate.h"
#include "import/import_error.h"
#include "json/slicer.h"

namespace tokenscope::import::kineto {
namespace {

using json::od::json_type;

// simdjson indexes a document of up to 4 GiB; a larger one is read in slices.
constexpr std::uint64_t kMaxWhole = 0xFFFFFFFFull - json::kPadding;
// Never inflated alongside below this: the head that check_start() looks at must fit
// the buffer. (With the default window the windows' threshold, 2 MiB, comes first.)
constexpr std::uint64_t kAlongsideFrom = std::uint64_t{64} << 10;
// Budget and progress are looked at every this many events.
constexpr std::uint64_t kCheckEvery = 4096;

}  // namespace

TraceReader::TraceReader(const std::string& path, const trace::ProgressFn& progress,
                         std::size_t slice_bytes, std::size_t window_bytes, bool alongside)
    : path_(path),
      progress_(progress),
      slice_bytes_(slice_bytes),
      window_bytes_(window_bytes > 0 ? window_bytes : kWindowBytes),
      alongside_(alongside),
      source_(path),
      budget_(path) {}

void TraceReader::shape_error(const std::string& problem) const {
    throw ImportError(path_, "not a Kineto trace: " + problem);
}

void TraceReader::check_budget(std::uint64_t text_bytes) {
    budget_.require(text_bytes + events_ * kBytesPerEvent,
                    "this " + trace::format_bytes(static_cast<std::uint64_t>(source_.file_size())) +
                        " Kineto trace, " + std::to_string(events_) + " events in,");
}

void TraceReader::report_progress(std::int64_t consumed) {
    if (progress_ && !progress_(consumed, source_.file_size())) throw trace::Cancelled();
}

// The document must be an object; its first byte says so before anything is parsed.
// A trace read whole is looked at there; else the source's head is, growing until it
// holds more than white space.
void TraceReader::check_start(const char* text) {
    for (std::size_t n = 4096;; n *= 4) {
        std::string_view head = text ? std::string_view(text, have(n)) : source_.head(n);
        auto first = std::find_if_not(head.begin(), head.end(), json::is_space);
        if (first == head.end()) {
            if (head.size() < n) throw ImportError(path_, "empty JSON document");
            continue;
        }
        if (*first == '[')
            shape_error(
                "the top-level JSON is an array; Kineto writes an object with \"traceEvents\"");
        if (*first != '{')
            throw ImportError(path_, "invalid JSON at byte " +
                                         std::to_string(first - head.begin()) +
                                         ": a JSON document must start with '{' or '['");
        return;
    }
}

// A gzipped trace read whole is inflated once: by zlib on a second thread while the
// windows parse what is there (BackgroundInflate), or by libdeflate before they start.
void TraceReader::read(TraceHandler& handler) {
    try {
        std::string text;
        if (slice_bytes_ == 0 && inflate_alongside()) {
            const std::uint64_t expected = source_.whole_size_guess();
            BackgroundInflate inflating(source_, static_cast<std::size_t>(expected));
            inflate_ = &inflating;
            there_ = 0;
            struct Done {
                TraceReader* reader;
                ~Done() { reader->inflate_ = nullptr; }
            } done{this};
            read_text(handler, {inflating.data(), inflating.capacity()}, expected, nullptr);
        } else if (slice_bytes_ == 0 && source_.take_whole(text, kMaxWhole)) {
            there_ = text.size();
            read_text(handler, {text.data(), text.capacity()}, text.size(), &text);
        } else {
            check_start(nullptr);
            read_sliced(handler);
        }
    } catch (const json::SyntaxError& e) {
        if (e.at_end())
            throw ImportError(path_, "truncated JSON: unexpected end of data at byte " +
                                         std::to_string(e.offset()));
        throw ImportError(path_, "invalid JSON " + std::string(e.what()));
    }
    if (!saw_events_) shape_error("no \"traceEvents\" array");
}

// Two cores, and a gzipped trace that would be inflated whole and parsed in windows:
// one with a newline in its first 64 KiB (a trace written on one line is parsed in
// one piece, and libdeflate inflates it faster; looking costs 0.3 ms).
bool TraceReader::inflate_alongside() const {
    const std::uint64_t size = source_.whole_size_guess();
    if (!alongside_ || size <= 2 * window_bytes_ || size < kAlongsideFrom || size > kMaxWhole ||
        std::thread::hardware_concurrency() < 2)
        return false;
    FileSource peek(path_, kAlongsideFrom);  // a chunk of the 64 KiB looked at
    return peek.head(kAlongsideFrom).find('\n') != std::string_view::npos;
}

// The whole text, `bytes` long (expected to be, while it inflates), in windows or in
// one piece.
void TraceReader::read_text(TraceHandler& handler, const json::TextBuffer& text,
                            std::uint64_t bytes, std::string* whole) {
    Handed handed;
    bool checked = false, windowed = false;
    try {
        check_start(text.data);
        checked = true;
        whole_bytes_ = bytes;
        check_budget(whole_bytes_);
        windowed = read_windows(handler, text, handed);
    } catch (const BackgroundInflate::TooLarge&) {
        // More data than the gzip trailer said: all of it in one piece, below.
    }
    alongside_used_ = windowed && inflate_ != nullptr;
    if (!windowed) {
        windows_ = 0;  // read in one piece after all, what they handed over skipped
        std::string again;
        std::string& all = inflate_ ? inflate_again(again) : *whole;
        inflate_ = nullptr;
        there_ = all.size();
        if (!checked) check_start(all.data());
        whole_bytes_ = all.size();
        check_budget(whole_bytes_);
        read_whole(handler, all, handed);
    }
    report_progress(source_.file_size());
}

// The document read whole after a background inflate: libdeflate inflates it again,
// from the file, faster than zlib would finish. (The background buffer stays: what
// the windows handed over may still point into it.)
std::string& TraceReader::inflate_again(std::string& out) {
    inflate_->stop();
    FileSource source(path_);
    if (!source.take_whole(out, kMaxWhole)) {
        out = source.read_all();
        json::pad(out);
    }
    return out;
}

// Without a background inflate there_ is the text's size.
std::size_t TraceReader::have(std::size_t want) {
    if (inflate_ && want > there_) there_ = inflate_->wait_for(want);
    return there_;
}

std::size_t TraceReader::text_size() {
    return have(std::numeric_limits<std::size_t>::max());
}

// The document in one piece (what the windows could not read), skipping what they
// handed over: a document the windows refuse is read here to its first error, which
// is then reported exactly as a document read whole reports it.
void TraceReader::read_whole(TraceHandler& handler, std::string& text, const Handed& skip) {
    json::od::document& doc = reader_.open(text);
    json::od::object root = reader_.get(doc.get_object());
    std::size_t index = 0;
    for (auto member : root) {
        json::od::field field = reader_.get(std::move(member));
        const std::string key(reader_.key(field));
        if (index >= skip.members)
            read_member(handler, key, field.value(), index == skip.members ? skip.events : 0);
        ++index;
    }
    reader_.expect_end();
}

void TraceReader::read_member(TraceHandler& handler, std::string_view key, json::od::value& value,
                              std::uint64_t skip_events, const char* limit) {
    if (key == "traceEvents") {
        if (reader_.type(value) != json_type::array) shape_error("\"traceEvents\" is not an array");
        read_events(handler, value, skip_events);
    } else if (handler.wants_member(key)) {
        const std::string_view raw = reader_.raw(value);
        if (limit != nullptr && raw.data() + raw.size() > limit) throw WindowRanOut();
        handler.on_member(key, raw);
    }
}

void TraceReader::read_events(TraceHandler& handler, json::od::value& value, std::uint64_t skip) {
    saw_events_ = true;
    json::od::array events = reader_.get(value.get_array());
    for (auto element : events) {
        if (skip > 0) {  // handed over by the windows; On-Demand skips what is not read
            --skip;
            continue;
        }
        json::od::value v = reader_.get(std::move(element));
        parser_.parse(reader_, v, event_);
        hand_over(handler);
    }
}

void TraceReader::hand_over(TraceHandler& handler) {
    handler.on_event(event_);
    reader_.release_strings();
    if (++events_ % kCheckEvery == 0 && whole_bytes_ > 0) {
        check_budget(whole_bytes_);
        report_progress(static_cast<std::int64_t>(static_cast<double>(source_.file_size()) *
                                                  static_cast<double>(reader_.offset()) /
                                                  static_cast<double>(whole_bytes_)));
    }
}

// A trace larger than the budget allows whole: members one by one, the events in
// slices of about a sixteenth of the budget (64 KiB to 8 MiB).
void TraceReader::read_sliced(TraceHandler& handler) {
    const std::size_t slice = static_cast<std::size_t>(std::clamp<std::uint64_t>(
        budget_.limit() / 16, std::uint64_t{64} << 10, std::uint64_t{8} << 20));
    json::ObjectSlicer slicer("traceEvents", slice);
    while (true) {
        json::ObjectSlicer::Part part = slicer.next();
        switch (part.kind) {
            case json::ObjectSlicer::Kind::NeedData: {
                std::string_view chunk = source_.next_chunk();
                if (chunk.empty()) {
                    slicer.finish();
                } else {
                    slicer.feed(chunk);
                }
                check_budget(slicer.buffered());
                report_progress(source_.file_consumed());
                break;
            }
            case json::ObjectSlicer::Kind::Member: {
                json::od::document& doc = reader_.open(*part.text, part.base);
                json::od::object object = reader_.get(doc.get_object());
                for (auto member : object) {
                    json::od::field field = reader_.get(std::move(member));
                    const std::string key(reader_.key(field));
                    read_member(handler, key, field.value());
                }
                break;
            }
            case json::ObjectSlicer::Kind::Elements: {
                json::od::document& doc = reader_.open(*part.text, part.base);
                json::od::value value = reader_.get(doc.get_value());
                read_events(handler, value);
                check_budget(slicer.buffered());
                break;
            }
            case json::ObjectSlicer::Kind::ArrayEnd:
                saw_events_ = true;
                break;
            case json::ObjectSlicer::Kind::Broken:
                if (auto found = json::diagnose(*part.text, part.base)) throw *found;
                throw json::SyntaxError(part.base + part.text->size(), "unexpected end of data",
                                        true);
            case json::ObjectSlicer::Kind::End:
                return;
        }
    }
}

}  // namespace tokenscope::import::kineto
