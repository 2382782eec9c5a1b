// StoreWriter::copy_run: a run of another .tokenscope file copied into this one as it
// streams out of that file, so that `import` of a run larger than memory works.
#include "lane_stream.h"
#include "sqlite_run_writer.h"
#include "store_error.h"
#include "store_reader.h"
#include "store_writer.h"
#include "write_progress.h"

namespace tokenscope::store {
namespace {

// Everything but the activities, launches and graph nodes comes from `light` (the run read
// without them); those three stream from the file, one lane or chunk at a time.
void copy_records(const StoreReader& from, std::int64_t run_id, const trace::RunData& light,
                  detail::SqliteRunWriter& w, detail::WriteProgress& pc) {
    for (const auto& lane : light.lanes) w.add_lane(lane);
    for (std::uint32_t id = 1; id < light.strings.size(); ++id)
        w.put_string(id, light.strings.str(id));
    for_each_stored_activity(from, run_id, light.lanes.size(), [&](const trace::Activity& a) {
        w.add_activity(a);
        pc.tick();
    });
    for (const auto& s : light.steps) w.add_step(s);
    for (const auto& r : light.requests) w.add_request(r);
    for (const auto& c : light.counters) w.add_counter(c);
    for (const auto& d : light.diagnostics) w.add_diagnostic(d);
    from.for_each_launch(run_id, [&](const trace::KernelLaunch& l) {
        w.add_launch(l);
        pc.tick();
    });
    from.for_each_graph_activity(run_id, [&](const trace::GraphActivity& g) {
        w.add_graph_activity(g);
        pc.tick();
    });
}

}  // namespace

std::int64_t StoreWriter::copy_run(const StoreReader& from, std::int64_t run_id,
                                   const trace::ProgressFn& progress) {
    if (*run_open_) throw StoreError(path_, "a run is already being written by this StoreWriter");
    trace::RunData light = from.load_run(run_id, {}, StoreReader::LoadParts::TotalsForActivities);
    // A run without stored totals (a file read as it is) is read whole: such files
    // predate section 17's sizes.
    if (!light.in_file) return write_run(light, progress);
    const trace::ActivitiesInFile& in_file = *light.in_file;
    detail::WriteProgress pc(
        progress, in_file.totals.activities() + in_file.launches + in_file.graph_activities);
    pc.report();
    detail::SqliteRunWriter w(conn_, light.info, options_, true, run_open_);
    try {
        copy_records(from, run_id, light, w, pc);
        w.finish();
    } catch (...) {
        w.abandon();
        throw;
    }
    pc.report();
    return w.run_id();
}

}  // namespace tokenscope::store
