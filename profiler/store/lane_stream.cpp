#include "lane_stream.h"

#include <algorithm>
#include <iterator>
#include <limits>

#include "activity_codec.h"
#include "connection.h"
#include "statement.h"
#include "store_reader.h"
#include "trace/activity_order.h"

namespace tokenscope::store {

using detail::Statement;

struct LaneStream::State {
    State(const detail::Connection& c, std::int64_t run_id, std::uint16_t l)
        : conn(c),
          lane(l),
          chunks(c,
                 "SELECT start_min, count, data FROM activity_chunk WHERE run_id = ?1 AND "
                 "lane = ?2 ORDER BY start_min, id") {
        chunks.bind_int(1, run_id).bind_int(2, lane);
    }

    const detail::Connection& conn;
    std::uint16_t lane;
    Statement chunks;
    bool row = false;   // chunks holds a row not decoded yet
    bool done = false;  // no rows left
    std::vector<trace::Activity> pending, decoded, merged;

    // Hands over the pending activities that start before `bound` (or at it, when
    // `inclusive`), in order.
    template <typename Fn>
    void emit(std::int64_t bound, bool inclusive, Fn&& fn) {
        auto ready = std::find_if(pending.begin(), pending.end(), [&](const trace::Activity& a) {
            return inclusive ? a.start_ns > bound : a.start_ns >= bound;
        });
        for (auto it = pending.begin(); it != ready; ++it) fn(*it);
        pending.erase(pending.begin(), ready);
    }

    void decode_row() {
        const std::int64_t start_min = chunks.int64(0);
        decoded.clear();
        detail::decode_chunk_or_throw(conn.path(), chunks.blob(2), start_min, lane, chunks.int64(1),
                                      decoded);
        merged.clear();
        std::merge(pending.begin(), pending.end(), decoded.begin(), decoded.end(),
                   std::back_inserter(merged), trace::starts_before);
        pending.swap(merged);
        row = false;
    }
};

LaneStream::LaneStream(const StoreReader& reader, std::int64_t run_id, std::uint16_t lane) {
    reader.check_table("activity_chunk");
    state_ = std::make_unique<State>(*reader.conn_, run_id, lane);
}

LaneStream::~LaneStream() = default;

// As for_each_activity: a pending activity is final once no chunk left can start before
// it; chunks come in start_min order, so that is the next chunk's start_min.
void LaneStream::read_until(std::int64_t t1,
                            const std::function<void(const trace::Activity&)>& fn) {
    State& s = *state_;
    for (;;) {
        if (!s.row && !s.done) {
            s.row = s.chunks.step();
            s.done = !s.row;
        }
        if (!s.row || s.chunks.int64(0) >= t1) break;
        s.emit(s.chunks.int64(0), true, fn);
        s.decode_row();
    }
    s.emit(t1, false, fn);
}

void for_each_stored_activity(const StoreReader& reader, std::int64_t run_id, std::size_t lanes,
                              const std::function<void(const trace::Activity&)>& fn,
                              const trace::StopToken& stop) {
    for (std::size_t lane = 0; lane < lanes; ++lane) {
        stop.throw_if_stopped();
        std::uint32_t since_check = 0;
        LaneStream(reader, run_id, static_cast<std::uint16_t>(lane))
            .read_until(std::numeric_limits<std::int64_t>::max(), [&](const trace::Activity& a) {
                if (++since_check == 1u << 16) {
                    since_check = 0;
                    stop.throw_if_stopped();
                }
                fn(a);
            });
    }
}

}  // namespace tokenscope::store
