// StoreReader's timeline summaries (timeline_summary.h) and chunk directory: each a
// single query, so each reads one snapshot of a file being written.
#include <algorithm>
#include <string>

#include "connection.h"
#include "schema.h"
#include "statement.h"
#include "store_error.h"
#include "store_reader.h"
#include "summary_cache.h"
#include "summary_codec.h"

namespace tokenscope::store {
namespace {

using detail::Statement;

// A call's bins, and the records expanded to merge them (4 per bin: tracks, late ones):
// at most 256 MB however a file's records overlap.
constexpr std::int64_t kMaxBins = std::int64_t{1} << 20;
// Bins of times in int64 ns at widths of 2^10 ns or more stay well inside this.
constexpr std::int64_t kMaxBinIndex = std::int64_t{1} << 60;

// Folds `b` into `into`, two partial records of one bin.
void merge_bin(SummaryBin& into, const SummaryBin& b) {
    into.busy_ns += b.busy_ns;
    into.count += b.count;
    if (b.longest_ns > into.longest_ns) {
        into.longest_ns = b.longest_ns;
        into.longest_name = b.longest_name;
    }
    if (b.dominant_name == into.dominant_name) {
        into.dominant_ns += b.dominant_ns;
    } else if (b.dominant_ns > into.dominant_ns) {
        into.dominant_name = b.dominant_name;
        into.dominant_ns = b.dominant_ns;
    }
}

bool valid_level(std::int64_t width_log2, std::int64_t level) {
    return width_log2 >= 10 && width_log2 <= 40 && level >= 0 &&
           width_log2 + kSummaryLevelShift * level <= 62;
}

}  // namespace

std::vector<std::int64_t> StoreReader::runs_without_summaries() const {
    Statement st(*conn_, has_summary_tables_ ? "SELECT id FROM run WHERE summarized = 0 ORDER BY id"
                                             : "SELECT id FROM run ORDER BY id");
    std::vector<std::int64_t> out;
    while (st.step()) out.push_back(st.int64(0));
    return out;
}

const detail::Connection* StoreReader::summaries_of(std::int64_t run_id) const {
    auto summarized = [&](const detail::Connection& c) {
        Statement st(c, "SELECT summarized FROM run WHERE id = ?1");
        st.bind_int(1, run_id);
        return st.step() && st.int64(0) == 1;
    };
    if (has_summary_tables_ && summarized(*conn_)) return conn_.get();
    if (cache_ && summarized(*cache_)) return cache_.get();
    return nullptr;
}

bool StoreReader::has_summaries(std::int64_t run_id) const {
    return summaries_of(run_id) != nullptr;
}

bool StoreReader::build_summary_cache(const trace::ProgressFn& progress) {
    check_table("activity_chunk");
    const auto lacking = runs_without_summaries();
    bool missing = false;
    for (std::int64_t run : lacking) missing = missing || summaries_of(run) == nullptr;
    if (!missing) return false;
    const std::string cache_path = detail::summary_cache_path(path_);
    cache_.reset();
    detail::build_summary_cache(*conn_, path_, lacking, cache_path, progress);
    cache_ = detail::open_summary_cache(path_, cache_path);
    if (!cache_) throw StoreError(cache_path, "the summary cache just built does not open");
    return true;
}

std::optional<std::pair<std::int64_t, std::int64_t>> StoreReader::lane_bounds(
    std::int64_t run_id, std::uint16_t lane) const {
    check_table("activity_chunk");
    Statement st(*conn_,
                 "SELECT min(start_min), max(max(end_max, start_max)) FROM activity_chunk WHERE "
                 "run_id = ?1 AND lane = ?2");
    st.bind_int(1, run_id).bind_int(2, lane);
    const auto first = st.step() ? st.optional_int64(0) : std::nullopt;
    if (!first) return std::nullopt;
    return std::pair{*first, st.int64(1)};
}

std::vector<SummaryLevel> StoreReader::summary_levels(std::int64_t run_id,
                                                      std::uint16_t lane) const {
    check_table("summary_chunk");
    std::vector<SummaryLevel> out;
    const detail::Connection* source = summaries_of(run_id);
    if (source == nullptr) return out;
    Statement st(*source,
                 "SELECT DISTINCT level, width_log2 FROM summary_chunk WHERE run_id = ?1 AND "
                 "lane = ?2 ORDER BY level");
    st.bind_int(1, run_id).bind_int(2, lane);
    while (st.step()) {
        const std::int64_t level = st.int64(0), width = st.int64(1);
        if (!valid_level(width, level) || level != static_cast<std::int64_t>(out.size()) ||
            (!out.empty() && out.back().width_log2 != width))
            throw StoreError(path_, "corrupt file: summary levels of lane " + std::to_string(lane) +
                                        " out of order");
        out.push_back({static_cast<int>(level), static_cast<int>(width)});
    }
    return out;
}

std::vector<SummaryBin> StoreReader::summary_bins(std::int64_t run_id, std::uint16_t lane,
                                                  int level, std::int64_t t0,
                                                  std::int64_t t1) const {
    std::vector<SummaryBin> all;
    const auto levels = summary_levels(run_id, lane);
    if (t1 <= t0 || level < 0 || level >= static_cast<int>(levels.size())) return all;
    const int s = levels[static_cast<std::size_t>(level)].bin_log2();
    const std::int64_t lo = t0 >> s, hi = (t1 - 1) >> s;
    if (hi - lo >= kMaxBins)
        throw StoreError(path_, "summary range of " + std::to_string(hi - lo + 1) +
                                    " bins asked for; at most " + std::to_string(kMaxBins));
    Statement st(*summaries_of(run_id),
                 "SELECT bin_min, bin_max, count, data FROM summary_chunk WHERE run_id = ?1 AND "
                 "lane = ?2 AND level = ?3 AND bin_min <= ?5 AND bin_max >= ?4 "
                 "ORDER BY bin_min, id");
    st.bind_int(1, run_id).bind_int(2, lane).bind_int(3, level).bind_int(4, lo).bind_int(5, hi);
    std::vector<SummaryBin> records;
    while (st.step()) {
        const detail::SummaryChunkBounds bounds{st.int64(0), st.int64(1)};
        records.clear();
        if (bounds.bin_min < -kMaxBinIndex || bounds.bin_max > kMaxBinIndex ||
            bounds.bin_min > bounds.bin_max ||
            !detail::decode_summary_chunk(st.blob(3), bounds, st.int64(2), records))
            throw StoreError(
                path_, "corrupt file: malformed summary chunk of lane " + std::to_string(lane));
        for (const SummaryBin& r : records) {
            const std::int64_t first = std::max(r.bin, lo);
            const std::int64_t last = std::min(r.bin + r.repeat - 1, hi);
            if (first > last) continue;
            if (static_cast<std::int64_t>(all.size()) + (last - first + 1) > 4 * kMaxBins)
                throw StoreError(path_, "corrupt file: summary records of lane " +
                                            std::to_string(lane) + " overlap without end");
            for (std::int64_t b = first; b <= last; ++b) {
                all.push_back(r);
                all.back().bin = b;
                all.back().repeat = 1;
            }
        }
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const SummaryBin& a, const SummaryBin& b) { return a.bin < b.bin; });
    std::vector<SummaryBin> out;
    for (const SummaryBin& b : all) {
        if (!out.empty() && out.back().bin == b.bin)
            merge_bin(out.back(), b);
        else
            out.push_back(b);
    }
    return out;
}

DurationHistogram StoreReader::duration_histogram(std::int64_t run_id, std::uint32_t name,
                                                  std::int64_t t0, std::int64_t t1,
                                                  std::optional<std::uint16_t> lane) const {
    check_table("duration_histogram");
    DurationHistogram all;
    const detail::Connection* source = summaries_of(run_id);
    // A version 10 file read as it is has summaries but no histograms.
    if (source == nullptr || t1 <= t0 || (source == conn_.get() && !has_histogram_table_))
        return all;
    Statement st(*source,
                 "SELECT lane, block_log2, block, data FROM duration_histogram WHERE run_id = ?1 "
                 "AND name = ?2 ORDER BY block");
    st.bind_int(1, run_id).bind_int(2, name);
    DurationHistogram h;
    while (st.step()) {
        const std::int64_t log2 = st.int64(1), block = st.int64(2);
        // Blocks whose bounds fit in int64 ns; 2^block_log2 between 1 us and 2^62 ns.
        const bool valid = log2 >= 10 && log2 <= 62 && block >= -(std::int64_t{1} << (62 - log2)) &&
                           block < (std::int64_t{1} << (62 - log2));
        if (!valid || !h.decode(st.blob(3)))
            throw StoreError(path_, "corrupt file: malformed duration histogram of name " +
                                        std::to_string(name));
        if (lane && st.int64(0) != *lane) continue;
        const std::int64_t begin = block << log2, end = (block + 1) << log2;
        if (begin < t1 && end > t0) all.merge(h);
    }
    return all;
}

std::optional<trace::ActivityTotals> StoreReader::activity_totals(
    std::int64_t run_id, std::optional<std::uint16_t> lane) const {
    const detail::Connection* source = summaries_of(run_id);
    if (source == nullptr || (source == conn_.get() && !has_activity_total_table_))
        return std::nullopt;
    Statement st(*source,
                 "SELECT lane, kind, copy, count, bytes, first_start_ns, last_end_ns FROM "
                 "activity_total WHERE run_id = ?1");
    st.bind_int(1, run_id);
    trace::ActivityTotals totals;
    while (st.step()) {
        if (lane && st.int64(0) != *lane) continue;
        const auto kind = trace::activity_kind_from_string(st.text(1));
        const auto copy = trace::copy_kind_from_string(st.text(2));
        const std::int64_t count = st.int64(3);
        if (!kind || !copy || count < 0)
            throw StoreError(path_, "corrupt file: activity total of lane " +
                                        std::to_string(st.int64(0)) + " (" +
                                        std::string(st.text(1)) + ", " + std::string(st.text(2)) +
                                        ", " + std::to_string(count) + ")");
        auto& cell = totals.cell(*kind, *copy);
        std::int64_t sum = 0;
        if (__builtin_add_overflow(cell.count, count, &sum))
            throw StoreError(path_, "corrupt file: activity totals past 2^63");
        cell.add({count, static_cast<std::uint64_t>(st.int64(4)), st.int64(5), st.int64(6)});
    }
    return totals;
}

std::vector<std::vector<std::uint8_t>> StoreReader::step_attribution(
    std::int64_t run_id, std::string_view options) const {
    if (!detail::has_step_attribution_table(*conn_)) return {};
    check_table("step_attribution");
    Statement st(*conn_,
                 "SELECT chunk, data FROM step_attribution WHERE run_id = ?1 AND options = ?2 "
                 "ORDER BY chunk");
    st.bind_int(1, run_id).bind_text(2, options);
    std::vector<std::vector<std::uint8_t>> chunks;
    while (st.step()) {
        // The unique index keeps chunks apart; a gap means rows were lost or forged.
        if (st.int64(0) != static_cast<std::int64_t>(chunks.size()))
            throw StoreError(path_, "corrupt file: step_attribution of run " +
                                        std::to_string(run_id) + " lacks chunk " +
                                        std::to_string(chunks.size()));
        const auto data = st.blob(1);
        chunks.emplace_back(data.begin(), data.end());
    }
    return chunks;
}

}  // namespace tokenscope::store
