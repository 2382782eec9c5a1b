#include "histogram_writer.h"

#include <limits>

namespace tokenscope::store::detail {
namespace {

// end - start without overflow: a hostile or corrupt file may hold starts near INT64_MIN
// (StoreRoundTrip.ExtremeValuesAndEqualStartsSurvive; UBSan found the overflow).
std::int64_t duration_of(const trace::Activity& a) {
    std::int64_t d = 0;
    if (!__builtin_sub_overflow(a.end_ns, a.start_ns, &d)) return d;
    return a.end_ns > a.start_ns ? std::numeric_limits<std::int64_t>::max()
                                 : std::numeric_limits<std::int64_t>::min();
}

}  // namespace

HistogramWriter::HistogramWriter(const Connection& conn, std::int64_t run_id)
    : run_id_(run_id),
      insert_(conn, "INSERT INTO duration_histogram VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)") {}

void HistogramWriter::add(std::uint16_t lane, std::span<const trace::Activity> activities) {
    if (lane >= lanes_.size()) lanes_.resize(std::size_t{lane} + 1);
    auto& names = lanes_[lane];
    Open* last = nullptr;
    std::uint32_t last_name = 0;
    for (const trace::Activity& a : activities) {
        const std::int64_t block = a.start_ns >> kBlockLog2;
        // Kernels of a layer repeat a few names: the map is asked once a change of name.
        if (last == nullptr || a.name != last_name) {
            auto [it, fresh] = names.try_emplace(a.name);
            if (fresh) it->second.block = block;
            last = &it->second;
            last_name = a.name;
        }
        if (block > last->block) {
            write(lane, a.name, last->block, last->histogram);
            *last = Open{block, {}};
        } else if (block < last->block) {
            DurationHistogram late;
            late.add(duration_of(a));
            write(lane, a.name, block, late);
            continue;
        }
        last->histogram.add(duration_of(a));
    }
}

void HistogramWriter::finish() {
    for (std::size_t lane = 0; lane < lanes_.size(); ++lane) {
        for (const auto& [name, open] : lanes_[lane])
            write(static_cast<std::uint16_t>(lane), name, open.block, open.histogram);
        lanes_[lane].clear();
    }
}

void HistogramWriter::write(std::uint16_t lane, std::uint32_t name, std::int64_t block,
                            const DurationHistogram& h) {
    if (h.empty()) return;
    blob_.clear();
    h.encode(blob_);
    insert_.bind_int(1, run_id_).bind_int(2, lane).bind_int(3, name).bind_int(4, kBlockLog2);
    insert_.bind_int(5, block).bind_int(6, static_cast<std::int64_t>(h.count()));
    insert_.bind_blob(7, blob_).run();
}

}  // namespace tokenscope::store::detail
