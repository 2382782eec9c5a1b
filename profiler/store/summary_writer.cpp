#include "summary_writer.h"

#include <limits>
#include <string>

#include "activity_codec.h"
#include "connection.h"
#include "store_error.h"
#include "summary_codec.h"

namespace tokenscope::store::detail {

SummaryWriter::SummaryWriter(const Connection& conn, std::int64_t run_id, int width_log2)
    : conn_(conn),
      run_id_(run_id),
      width_log2_(width_log2),
      insert_(conn, "INSERT INTO summary_chunk VALUES (NULL, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"),
      histograms_(conn, run_id) {}

SummaryWriter::~SummaryWriter() = default;

void SummaryWriter::add_chunk(std::uint16_t lane, std::span<const trace::Activity> sorted) {
    if (sorted.empty()) return;
    if (lane >= lanes_.size()) lanes_.resize(std::size_t{lane} + 1);
    Lane& l = lanes_[lane];
    if (l.tracks.empty()) {
        // The chunk's extent, saturated: extreme starts (INT64_MIN in a corrupt file)
        // must not overflow the subtraction.
        std::int64_t extent = 0;
        if (__builtin_sub_overflow(sorted.back().start_ns, sorted.front().start_ns, &extent))
            extent = std::numeric_limits<std::int64_t>::max();
        l.width_log2 = width_log2_ > 0
                           ? width_log2_
                           : summary_width_log2(extent, static_cast<std::int64_t>(sorted.size()));
        track_for(l, lane, sorted.front().start_ns);
        l.width_log2 = l.tracks.front()->width_log2();  // as the summarizer clamped it
        l.levels = l.tracks.front()->levels();
        l.pending.resize(static_cast<std::size_t>(l.levels));
    }
    for (const trace::Activity& a : sorted) {
        track_for(l, lane, a.start_ns).add(a);
        l.totals.add(a);
    }
    histograms_.add(lane, sorted);
}

LaneSummarizer& SummaryWriter::track_for(Lane& l, std::uint16_t lane, std::int64_t start_ns) {
    for (auto& t : l.tracks)
        if (t->accepts(start_ns)) return *t;
    if (l.tracks.size() == kTracks) return *l.tracks.front();  // late on the first
    l.tracks.push_back(std::make_unique<LaneSummarizer>(
        l.width_log2, [this, lane](int level, const SummaryBin& b) {
            auto& pending = lanes_[lane].pending[static_cast<std::size_t>(level)];
            pending.push_back(b);
            ++pending_records_;
            if (pending.size() >= kChunkRecords) write(lane, level);
            if (pending_records_ >= kMaxPendingRecords) write_all();
        }));
    return *l.tracks.back();
}

void SummaryWriter::write(std::uint16_t lane, int level) {
    auto& pending = lanes_[lane].pending[static_cast<std::size_t>(level)];
    if (pending.empty()) return;
    blob_.clear();
    const SummaryChunkBounds b = encode_summary_chunk(pending, blob_);
    insert_.bind_int(1, run_id_).bind_int(2, lane).bind_int(3, level);
    insert_.bind_int(4, lanes_[lane].width_log2);
    insert_.bind_int(5, b.bin_min).bind_int(6, b.bin_max);
    insert_.bind_int(7, static_cast<std::int64_t>(pending.size())).bind_blob(8, blob_);
    insert_.run();
    pending_records_ -= pending.size();
    pending.clear();
    pending.shrink_to_fit();  // a lane's coarse levels fill rarely: give their memory back
}

void SummaryWriter::write_all() {
    for (std::size_t lane = 0; lane < lanes_.size(); ++lane)
        for (int level = 0; level < lanes_[lane].levels; ++level)
            write(static_cast<std::uint16_t>(lane), level);
}

void SummaryWriter::write_totals() {
    Statement insert(conn_, "INSERT INTO activity_total VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    for (std::size_t lane = 0; lane < lanes_.size(); ++lane) {
        const auto& totals = lanes_[lane].totals;
        for (std::size_t k = 0; k < trace::kActivityKindCount; ++k)
            for (std::size_t c = 0; c < trace::kCopyKindCount; ++c) {
                const auto& cell = totals.cells[k][c];
                if (cell.count == 0) continue;
                insert.bind_int(1, run_id_).bind_int(2, static_cast<std::int64_t>(lane));
                insert.bind_text(3, to_string(static_cast<trace::ActivityKind>(k)));
                insert.bind_text(4, to_string(static_cast<trace::CopyKind>(c)));
                // The sum of bytes modulo 2^64, kept bit for bit in SQLite's int64.
                insert.bind_int(5, cell.count).bind_int(6, static_cast<std::int64_t>(cell.bytes));
                insert.bind_int(7, cell.first_start_ns).bind_int(8, cell.last_end_ns);
                insert.run();
            }
    }
}

void SummaryWriter::finish() {
    for (std::size_t lane = 0; lane < lanes_.size(); ++lane) {
        for (auto& t : lanes_[lane].tracks) t->finish();
    }
    write_all();
    histograms_.finish();
    write_totals();
    Statement(conn_, "UPDATE run SET summarized = 1 WHERE id = ?1").bind_int(1, run_id_).run();
}

void build_summaries(const Connection& source, const Connection& target, std::int64_t run_id,
                     const std::function<void(std::int64_t)>& advance) {
    Statement(target, "DELETE FROM summary_chunk WHERE run_id = ?1").bind_int(1, run_id).run();
    Statement(target, "DELETE FROM duration_histogram WHERE run_id = ?1").bind_int(1, run_id).run();
    Statement(target, "DELETE FROM activity_total WHERE run_id = ?1").bind_int(1, run_id).run();
    SummaryWriter writer(target, run_id);
    // In the order the writer wrote them, lane by lane: a last chunk of long ranges that
    // ended late comes last, as it came (summary_writer.h).
    Statement chunks(source,
                     "SELECT lane, start_min, count, data FROM activity_chunk WHERE run_id = ?1 "
                     "ORDER BY lane, id");
    chunks.bind_int(1, run_id);
    std::vector<trace::Activity> decoded;
    while (chunks.step()) {
        const std::int64_t lane = chunks.int64(0);
        if (lane < 0 || lane > 0xffff)
            throw StoreError(source.path(),
                             "corrupt file: activity chunk of lane " + std::to_string(lane));
        decoded.clear();
        decode_chunk_or_throw(source.path(), chunks.blob(3), chunks.int64(1),
                              static_cast<std::uint16_t>(lane), chunks.int64(2), decoded);
        writer.add_chunk(static_cast<std::uint16_t>(lane), decoded);
        if (advance) advance(static_cast<std::int64_t>(decoded.size()));
    }
    writer.finish();
}

void build_summaries(const Connection& conn, std::int64_t run_id) {
    build_summaries(conn, conn, run_id);
}

void build_missing_summaries(const Connection& conn) {
    std::vector<std::int64_t> runs;
    {
        Statement st(conn, "SELECT id FROM run WHERE summarized = 0 ORDER BY id");
        while (st.step()) runs.push_back(st.int64(0));
    }
    for (std::int64_t id : runs) build_summaries(conn, id);
}

}  // namespace tokenscope::store::detail
