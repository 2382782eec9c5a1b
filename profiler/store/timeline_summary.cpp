#include "timeline_summary.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace tokenscope::store::detail {
namespace {

// A bin keeps the time of this many names; more (rare: a bin is a few dozen kernels of a
// handful of names) are left out of its dominant name, never out of its busy time.
constexpr std::size_t kMaxNames = 64;
constexpr int kActivitiesPerBin = 32;
constexpr int kMinWidthLog2 = 10;
constexpr int kMaxWidthLog2 = 40;
constexpr int kTopWidthLog2 = 46;
constexpr int kDefaultWidthLog2 = 20;

void add_name(std::vector<std::pair<std::uint32_t, std::int64_t>>& names, std::uint32_t name,
              std::int64_t ns) {
    for (auto& [n, t] : names)
        if (n == name) {
            t += ns;
            return;
        }
    if (names.size() < kMaxNames) names.emplace_back(name, ns);
}

void set_dominant(SummaryBin& b, const std::vector<std::pair<std::uint32_t, std::int64_t>>& names) {
    b.dominant_name = 0;
    b.dominant_ns = 0;
    for (const auto& [n, t] : names)
        if (t > b.dominant_ns || (t == b.dominant_ns && b.dominant_name == 0)) {
            b.dominant_name = n;
            b.dominant_ns = t;
        }
}

}  // namespace

int summary_width_log2(std::int64_t span_ns, std::int64_t count) {
    if (count < 2 || span_ns <= 0) return kDefaultWidthLog2;
    const double target = static_cast<double>(kActivitiesPerBin) * static_cast<double>(span_ns) /
                          static_cast<double>(count - 1);
    if (target >= static_cast<double>(std::int64_t{1} << kMaxWidthLog2)) return kMaxWidthLog2;
    const auto width = static_cast<std::uint64_t>(std::max(target, 1.0));
    return std::clamp(static_cast<int>(std::bit_width(width - 1)), kMinWidthLog2, kMaxWidthLog2);
}

int summary_level_count(int width_log2) {
    return std::max(1, (kTopWidthLog2 - width_log2) / kSummaryLevelShift + 1);
}

namespace {

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
// Activities running past the open bin at once; more (only a hostile file has them) are
// summarised as late ones, so memory and time per bin stay bounded.
constexpr std::size_t kMaxRunning = 4096;

// Where bin b of width 2^s ends, saturated at the end of time.
std::int64_t bin_end(std::int64_t b, int s) {
    return b >= (kNever >> s) ? kNever : (b + 1) << s;
}

}  // namespace

LaneSummarizer::LaneSummarizer(int width_log2, Sink sink)
    : width_log2_(std::clamp(width_log2, kMinWidthLog2, kMaxWidthLog2)),
      sink_(std::move(sink)),
      levels_(static_cast<std::size_t>(summary_level_count(width_log2_))) {}

void LaneSummarizer::add(const trace::Activity& a) {
    // A negative duration (a source's clock step) reads as zero.
    const std::int64_t t1 = std::max(a.end_ns, a.start_ns);
    const auto wide = static_cast<std::uint64_t>(t1) - static_cast<std::uint64_t>(a.start_ns);
    const auto duration = static_cast<std::int64_t>(std::min<std::uint64_t>(wide, kNever));
    add_span(0, {a.start_ns, t1, a.name, duration}, 1);
}

void LaneSummarizer::finish() {
    for (int level = 0; level < levels(); ++level)
        if (levels_[static_cast<std::size_t>(level)].used) advance(level, kNever);
}

void LaneSummarizer::add_span(int level, const Span& span, std::int64_t count) {
    Level& l = levels_[static_cast<std::size_t>(level)];
    const int s = shift(level);
    const std::int64_t b0 = span.t0 >> s;
    if ((l.used && b0 < l.bin) || l.running.size() >= kMaxRunning) {
        late_span(level, span, count);
        return;
    }
    if (!l.used || b0 > l.bin) advance(level, b0);
    l.totals.count += count;
    if (span.t1 <= bin_end(b0, s))
        take(l, span.t1 - span.t0, span.name, span.longest_ns, span.name);
    else
        l.running.push_back(span);  // its share of each bin is taken as the bin closes
}

void LaneSummarizer::add_part(int level, std::int64_t bin, const Part& part) {
    Level& l = levels_[static_cast<std::size_t>(level)];
    if (l.used && bin < l.bin) {  // late: a record of its own here, merged above
        SummaryBin b{bin, 1, part.busy_ns, part.count, part.longest_name, part.longest_ns, 0, 0};
        set_dominant(b, *part.names);
        sink_(level, b);
        if (level + 1 < levels()) add_part(level + 1, bin >> kSummaryLevelShift, part);
        return;
    }
    if (!l.used || bin > l.bin) advance(level, bin);
    l.totals.busy_ns += part.busy_ns;
    l.totals.count += part.count;
    if (part.longest_ns > l.totals.longest_ns || !l.has_longest) {
        l.totals.longest_ns = part.longest_ns;
        l.totals.longest_name = part.longest_name;
        l.has_longest = true;
    }
    for (const auto& [n, t] : *part.names) add_name(l.names, n, t);
}

// Closes the open bin, emits the bins between it and `bin` that running activities
// cover (whole ones as runs), and opens `bin` (kNever: until nothing runs).
void LaneSummarizer::advance(int level, std::int64_t bin) {
    Level& l = levels_[static_cast<std::size_t>(level)];
    if (!l.used) {
        open(l, bin);
        return;
    }
    const int s = shift(level);
    std::int64_t cur = l.bin + 1;
    close(level);
    while (!l.running.empty() && cur < bin) {
        std::int64_t end = kNever;
        for (const Span& r : l.running) end = std::min(end, r.t1);
        const std::int64_t end_bin = (end - 1) >> s;  // the last bin the first to end covers
        const std::int64_t full_last = end == bin_end(end_bin, s) ? end_bin : end_bin - 1;
        const std::int64_t last = std::min(full_last, bin - 1);
        if (last >= cur) {
            emit_run(level, cur, last);
            cur = last + 1;
        }
        if (cur < bin && cur <= end_bin && !l.running.empty()) {
            open(l, cur++);
            close(level);
        }
    }
    if (bin != kNever) open(l, bin);
}

void LaneSummarizer::open(Level& l, std::int64_t bin) {
    l.used = true;
    l.has_longest = false;
    l.bin = bin;
    l.totals = SummaryBin{};
    l.names.clear();
}

void LaneSummarizer::take(Level& l, std::int64_t busy, std::uint32_t name, std::int64_t longest_ns,
                          std::uint32_t longest_name) {
    l.totals.busy_ns += busy;
    add_name(l.names, name, busy);
    if (longest_ns > l.totals.longest_ns || !l.has_longest) {
        l.totals.longest_ns = longest_ns;
        l.totals.longest_name = longest_name;
        l.has_longest = true;
    }
}

// The open bin takes its share of every running activity, goes to the sink and up.
void LaneSummarizer::close(int level) {
    Level& l = levels_[static_cast<std::size_t>(level)];
    const int s = shift(level);
    const std::int64_t begin = l.bin << s, end = bin_end(l.bin, s);
    for (const Span& r : l.running)
        take(l, std::min(r.t1, end) - std::max(r.t0, begin), r.name, r.longest_ns, r.name);
    std::erase_if(l.running, [&](const Span& r) { return r.t1 <= end; });
    l.used = false;
    SummaryBin b = l.totals;
    b.bin = l.bin;
    b.repeat = 1;
    set_dominant(b, l.names);
    sink_(level, b);
    if (level + 1 < levels())
        add_part(level + 1, l.bin >> kSummaryLevelShift,
                 Part{b.busy_ns, b.count, b.longest_name, b.longest_ns, &l.names});
}

// Bins first..last, which every running activity covers whole: one record, and each
// activity goes up as a span of them.
void LaneSummarizer::emit_run(int level, std::int64_t first, std::int64_t last) {
    Level& l = levels_[static_cast<std::size_t>(level)];
    const int s = shift(level);
    const std::int64_t width = std::int64_t{1} << s;
    SummaryBin run{first, last - first + 1, 0, 0, 0, 0, 0, 0};
    Names names;
    bool first_span = true;
    for (const Span& r : l.running) {
        run.busy_ns += width;
        add_name(names, r.name, width);
        if (r.longest_ns > run.longest_ns || first_span) {
            first_span = false;
            run.longest_ns = r.longest_ns;
            run.longest_name = r.name;
        }
    }
    set_dominant(run, names);
    sink_(level, run);
    const std::int64_t end = bin_end(last, s);
    if (level + 1 < levels())
        for (const Span& r : l.running)
            add_span(level + 1, {first << s, end, r.name, r.longest_ns}, 0);
    std::erase_if(l.running, [&](const Span& r) { return r.t1 <= end; });
}

// An activity starting before the open bin: records of its own (its first bin, the whole
// bins, its last bin), then the same one level up.
void LaneSummarizer::late_span(int level, const Span& span, std::int64_t count) {
    const int s = shift(level);
    const std::int64_t width = std::int64_t{1} << s;
    const std::int64_t b0 = span.t0 >> s;
    const std::int64_t b1 = span.t1 > span.t0 ? (span.t1 - 1) >> s : b0;
    auto record = [&](std::int64_t bin, std::int64_t repeat, std::int64_t busy, std::int64_t n) {
        sink_(level, {bin, repeat, busy, n, span.name, span.longest_ns, span.name, busy});
    };
    if (b0 == b1) {
        record(b0, 1, span.t1 - span.t0, count);
    } else {
        record(b0, 1, bin_end(b0, s) - span.t0, count);
        const std::int64_t tail = span.t1 - (b1 << s);  // 1 .. width
        const std::int64_t full_last = tail == width ? b1 : b1 - 1;
        if (full_last > b0) record(b0 + 1, full_last - b0, width, 0);
        if (tail < width) record(b1, 1, tail, 0);
    }
    if (level + 1 < levels()) add_span(level + 1, span, count);
}

}  // namespace tokenscope::store::detail
