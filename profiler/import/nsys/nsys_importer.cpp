#include "nsys_importer.h"

#include <algorithm>
#include <vector>

#include "import/file_source.h"
#include "import/import_error.h"
#include "import/trace_start_backlog.h"
#include "nsys_cuda_reader.h"
#include "nsys_database.h"
#include "nsys_lane_map.h"
#include "nsys_metrics_reader.h"
#include "nsys_nvtx_reader.h"
#include "nsys_progress.h"
#include "nsys_run_info.h"
#include "nsys_schema.h"
#include "nsys_strings.h"
#include "trace/activity_order.h"
#include "trace/memory_budget.h"

namespace tokenscope::import {
namespace {

std::int64_t total_rows(const NsysDatabase& db) {
    std::int64_t n = 0;
    for (const char* t :
         {"CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
          "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
          "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "NVTX_EVENTS", "GPU_METRICS"})
        n += db.count_rows(t);
    return n;
}

void add_schema_diagnostics(const NsysDatabase& db, const NsysSchema& schema, trace::RunData& run) {
    auto missing = schema.missing_optional_tables(db);
    if (!missing.empty()) {
        std::string list;
        for (const auto& t : missing) list += (list.empty() ? "" : ", ") + t;
        run.count_diagnostic("nsys_missing_tables", trace::Severity::Info,
                             static_cast<double>(missing.size()),
                             "not in this export (nothing of that kind was traced): " + list);
    }
    if (schema.version().empty())
        run.count_diagnostic("nsys_old_schema", trace::Severity::Info, 1,
                             "no META_DATA_EXPORT table: an export older than schema 2.x; "
                             "columns were probed one by one");
    if (int gpus = NsysRunInfo::gpu_count(db); gpus > 1)
        run.count_diagnostic("nsys_gpus", trace::Severity::Info, gpus,
                             "GPUs in the export; run info describes the lowest device id");
}

// The store and the views expect activities grouped by lane in start order.
// Tables arrive nearly in time order, so a stable bucket pass by lane plus a
// check per lane is much cheaper than a general sort of millions of rows.
void sort_by_lane(std::vector<trace::Activity>& activities, std::size_t lanes) {
    std::vector<std::size_t> offset(lanes + 1, 0);
    for (const auto& a : activities) ++offset[a.lane + 1];
    for (std::size_t i = 1; i <= lanes; ++i) offset[i] += offset[i - 1];
    std::vector<trace::Activity> sorted(activities.size());
    std::vector<std::size_t> next(offset.begin(), offset.end() - 1);
    for (const auto& a : activities) sorted[next[a.lane]++] = a;
    for (std::size_t l = 0; l < lanes; ++l) {
        auto first = sorted.begin() + static_cast<std::ptrdiff_t>(offset[l]);
        auto last = sorted.begin() + static_cast<std::ptrdiff_t>(offset[l + 1]);
        if (!std::is_sorted(first, last, trace::starts_before))
            std::stable_sort(first, last, trace::starts_before);
    }
    activities = std::move(sorted);
}

}  // namespace

bool NsysImporter::accepts(std::string_view head) const {
    return is_sqlite_header(head);
}

bool NsysImporter::accepts_file(const std::string& path, std::string_view head) const {
    if (!accepts(head)) return false;
    try {
        NsysDatabase db(path, NsysDatabase::Checks::Schema);  // import() checks the rest
        return NsysSchema::is_nsys_export(db);
    } catch (const ImportError&) {
        return false;  // an unreadable database is not ours; the caller reports it
    }
}

trace::RunData NsysImporter::import(const std::string& path, const ImportOptions& options,
                                    const trace::ProgressFn& progress) const {
    NsysDatabase db(path);
    if (!NsysSchema::is_nsys_export(db))
        throw ImportError(path,
                          "an SQLite database but not an Nsight Systems export (no StringIds "
                          "and CUPTI_ACTIVITY_KIND_* / NVTX_EVENTS tables)");
    NsysSchema schema(db);
    trace::RunData run;
    run.info = NsysRunInfo::read(db, path);
    std::int64_t total = total_rows(db);
    NsysProgress rows(progress, total);
    rows.report();
    // Every row becomes an in-memory activity (twice while sorted by lane), and
    // every name of StringIds an interned string: refused before any is read.
    trace::MemoryBudget(path).require(
        static_cast<std::uint64_t>(total) * 2 * sizeof(trace::Activity) +
            static_cast<std::uint64_t>(db.count_rows("StringIds")) * trace::kBytesPerString,
        "this Nsight Systems export's " + std::to_string(total) + " rows");
    run.activities.reserve(static_cast<std::size_t>(total));
    NsysStrings strings(db, run.strings);
    NsysLaneMap lanes(db, run);
    NsysCudaReader(db, schema, strings, lanes, rows, run).read_all();
    NsysNvtxReader(db, strings, lanes, rows, run, options.step_pattern).read();
    NsysMetricsReader(db, lanes, rows, run).read();
    add_schema_diagnostics(db, schema, run);
    note_trace_start_backlog(run);
    sort_by_lane(run.activities, run.lanes.size());
    rows.report();
    return run;
}

}  // namespace tokenscope::import
