// A trace read whole, parsed window by window (json/window.h): simdjson's structural
// index for the whole 35 MB control trace of HTA is 26 MB, written once and read back
// from memory; in windows of 1 MiB it stays one window's size and is reused in cache
// (peak RSS of `breakdown` 77 -> 52 MiB), and a window needs only the text up to its
// cut, so a background inflate can fill the rest meanwhile. The windows hand over
// exactly what the document read whole would: anything they cannot tell apart from
// an error ends them, and read_whole() then reads the document, skipping what they
// handed over, so errors keep the words and offsets of a document read whole.
//
// The document's layout: a head window (the root's members up to "traceEvents" and
// the events that fit, closed with '}' at its cut), windows of events (wrapped in '['
// and ']' at their edges), and the members after the events' array as one document
// (its ',' made '{'). A value is handed over only when it ends before its window's
// cut: the bracket put there could otherwise have closed it early.
#include <algorithm>
#include <optional>

#include "json/window.h"
#include "trace_reader.h"

namespace tokenscope::import::kineto {
namespace {

using json::od::json_type;

// Scanned for a cut this many bytes at a time while the text inflates.
constexpr std::size_t kScanBytes = std::size_t{64} << 10;

}  // namespace

std::size_t TraceReader::skip_space(const json::TextBuffer& text, std::size_t i) {
    while (i < have(i + 1) && json::is_space(text.data[i])) ++i;
    return i;
}

std::size_t TraceReader::cut_after(const json::TextBuffer& text, std::size_t from,
                                   std::size_t within) {
    for (std::size_t scanned = from;;) {
        const std::size_t there = have(scanned + kScanBytes);
        const std::size_t cut = json::newline_cut(std::string_view(text.data, there), scanned);
        if (cut != std::string::npos) {
            have(cut + 1 + json::kPadding);
            return cut;
        }
        // The text ended, or no newline as far as the caller looks.
        if (there < scanned + kScanBytes || there - from >= within) return std::string::npos;
        scanned = there;
    }
}

bool TraceReader::read_windows(TraceHandler& handler, const json::TextBuffer& text,
                               Handed& handed) {
    if (whole_bytes_ <= 2 * window_bytes_) return false;
    // A trace written on one line (none in its first 64 KiB) has nowhere to cut: it is
    // known before a background inflate has gone further.
    if (json::newline_cut(std::string_view(text.data, have(kScanBytes)), 0) == std::string::npos)
        return false;
    Left left;
    // A member before the events larger than the head: a larger head, up to the whole.
    for (std::size_t bytes = window_bytes_;; bytes *= 2) {
        left = read_head(handler, text, handed, bytes);
        if (left.kind != Left::Retry) break;
        if (bytes >= whole_bytes_) return false;
    }
    std::size_t bytes = window_bytes_;
    while (left.kind == Left::More) {
        const Left next = read_window(handler, text, handed, left.at, bytes);
        // No event fitted: a larger window, up to the rest of the document.
        if (next.kind == Left::More && next.at == left.at) {
            if (left.at + bytes >= text_size()) return false;
            bytes *= 2;
        } else {
            bytes = window_bytes_;
        }
        left = next;
    }
    return left.kind == Left::Ended && read_tail(handler, text, handed, left.at);
}

// The root's members before "traceEvents", handed over when whole (those handed over
// by a smaller head skipped), then its events.
TraceReader::Left TraceReader::read_head(TraceHandler& handler, const json::TextBuffer& text,
                                         Handed& handed, std::size_t bytes) {
    // A trace written on one line has no cut: known within a window, not at its end
    // (which a background inflate would have to reach first).
    const std::size_t cut = cut_after(text, bytes, window_bytes_);
    if (cut == std::string::npos) return {};  // read whole
    json::BytePatch close(text.data, cut, '}');
    try {
        json::od::document& doc = reader_.open_window(text.data, 0, cut + 1, text.capacity);
        json::od::object root = reader_.get(doc.get_object());
        std::size_t index = 0;
        for (auto member : root) {
            json::od::field field = reader_.get(std::move(member));
            if (index++ < handed.members) continue;
            const std::string key(reader_.key(field));
            json::od::value& value = field.value();
            if (key == "traceEvents" && reader_.type(value) == json_type::array) {
                saw_events_ = true;
                ++windows_;
                return window_events(handler, text, value, cut, handed);
            }
            read_member(handler, key, value, 0, text.data + cut);
            if (reader_.offset() > cut) break;  // the '}' at the cut closed it
            ++handed.members;
        }
    } catch (const json::SyntaxError&) {
    } catch (const WindowRanOut&) {
    }
    return {Left::Retry, 0};  // the head ended before the events
}

// Events from `start` (the byte after a '[' or ','), wrapped into an array of their own.
TraceReader::Left TraceReader::read_window(TraceHandler& handler, const json::TextBuffer& text,
                                           Handed& handed, std::size_t start, std::size_t bytes) {
    std::size_t cut = cut_after(text, start + bytes);
    const std::string_view all =
        cut == std::string::npos ? std::string_view(text.data, text_size()) : std::string_view();
    if (cut == std::string::npos) cut = all.rfind('\n');
    std::optional<json::BytePatch> close;
    if (cut != std::string::npos && cut > start) {
        close.emplace(text.data, cut, ']');
    } else {
        // No newline left (a trace that ends "}]}"): the window ends at the document's
        // last ']', its own.
        cut = all.rfind(']');
        if (cut == std::string::npos || cut < start) return {};
    }
    json::BytePatch open(text.data, start - 1, '[');
    try {
        json::od::document& doc = reader_.open_window(text.data, start - 1, cut + 1, text.capacity);
        json::od::value value = reader_.get(doc.get_value());
        ++windows_;
        return window_events(handler, text, value, close ? cut : std::string::npos, handed);
    } catch (const json::SyntaxError&) {
        return {Left::More, start};  // not even the array's start: no event fitted
    }
}

// Hands over the events of the array `value` that end before `cut` (the byte the
// window put its closing bracket on; npos when the window's last byte is the
// document's), then looks at the document's own text for what follows the last.
TraceReader::Left TraceReader::window_events(TraceHandler& handler, const json::TextBuffer& text,
                                             json::od::value& value, std::size_t cut,
                                             Handed& handed) {
    // The separator before the next event: the array's '[', then each event's ',' (or
    // the ']' that ends the array, or the bracket put at the cut).
    std::size_t separator = reader_.offset();
    try {
        json::od::array events = reader_.get(value.get_array());
        for (auto element : events) {
            json::od::value v = reader_.get(std::move(element));
            parser_.parse(reader_, v, event_);
            const std::size_t after = reader_.offset();
            if (cut != std::string::npos && after > cut) break;  // closed by the bracket at the cut
            hand_over(handler);
            ++handed.events;
            separator = after;
        }
    } catch (const json::SyntaxError&) {
        // A window ends inside an event: it is read again from its start.
    }
    // The byte at the cut is the window's; the document has white space there.
    const std::size_t at = separator == cut ? skip_space(text, cut + 1) : separator;
    if (at >= have(at + 1)) return {};
    if (text.data[at] == '[' || text.data[at] == ',') return {Left::More, at + 1};
    if (text.data[at] != ']') return {};
    ++handed.members;
    handed.events = 0;
    return {Left::Ended, at + 1};  // white space skipped by read_tail, the patches undone
}

// What follows the events' array: the root's end, or more members read as a document
// of their own.
bool TraceReader::read_tail(TraceHandler& handler, const json::TextBuffer& text, Handed& handed,
                            std::size_t after) {
    const std::size_t at = skip_space(text, after);
    const std::size_t size = text_size();
    if (at < size && text.data[at] == '}') return skip_space(text, at + 1) == size;
    if (at >= size || text.data[at] != ',') return false;
    json::BytePatch open(text.data, at, '{');
    try {
        json::od::document& doc = reader_.open_window(text.data, at, size, text.capacity);
        json::od::object rest = reader_.get(doc.get_object());
        for (auto member : rest) {
            json::od::field field = reader_.get(std::move(member));
            const std::string key(reader_.key(field));
            read_member(handler, key, field.value());
            ++handed.members;
        }
        reader_.expect_end();
        return true;
    } catch (const json::SyntaxError&) {
        return false;
    }
}

}  // namespace tokenscope::import::kineto
