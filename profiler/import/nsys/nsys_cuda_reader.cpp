#include "nsys_cuda_reader.h"

#include <algorithm>

#include "nsys_database.h"
#include "nsys_lane_map.h"
#include "nsys_progress.h"
#include "nsys_schema.h"
#include "nsys_strings.h"

namespace tokenscope::import {
namespace {

using trace::Activity;
using trace::ActivityKind;

constexpr const char* kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr const char* kKernel = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr const char* kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr const char* kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";
constexpr const char* kSync = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
// One row per graph launch in exports traced with --cuda-graph-trace=graph, whose
// kernels are then not in the kernel table.
constexpr const char* kGraphTrace = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE";

// Launch columns of the kernel table, in the order launch_at reads them. Exports too
// old to have one read it as 0; those without gridX have no launch facts at all.
std::string launch_columns(const NsysDatabase& db) {
    std::string cols;
    for (const char* c : {"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
                          "staticSharedMemory", "dynamicSharedMemory", "registersPerThread"})
        cols += ", " + db.column_or(kKernel, c, "0");
    return cols;
}

trace::KernelLaunch launch_at(sqlite3_stmt* s, int first, std::uint32_t correlation) {
    auto at = [&](int i) { return sqlite3_column_int64(s, first + i); };
    return trace::KernelLaunch::from_counts(correlation, {at(0), at(1), at(2)},
                                            {at(3), at(4), at(5)}, at(6), at(7), at(8));
}

// graphNodeId (NULL outside a graph) and graphId of a kernel, copy or memset row;
// older exports lack graphId, and the oldest graphNodeId too (read as NULL).
std::string graph_columns(const NsysDatabase& db, const char* table) {
    return ", " + db.column_or(table, "graphNodeId", "NULL") + ", " +
           db.column_or(table, "graphId", "NULL");
}

}  // namespace

NsysCudaReader::NsysCudaReader(const NsysDatabase& db, const NsysSchema& schema,
                               NsysStrings& strings, NsysLaneMap& lanes, NsysProgress& progress,
                               trace::RunData& run)
    : db_(db), schema_(schema), strings_(strings), lanes_(lanes), progress_(progress), run_(run) {
    if (db_.has_column(kRuntime, "globalTid")) {
        int processes = 0;
        db_.for_each_row(
            std::string("SELECT COUNT(DISTINCT (globalTid >> 24) & 16777215) FROM ") + kRuntime,
            [&processes](sqlite3_stmt* s) {
                processes = sqlite3_column_int(s, 0);
                return false;
            });
        multi_process_ = processes > 1;
    }
}

void NsysCudaReader::read_all() {
    read_runtime();
    read_kernels();
    read_memcpys();
    read_memsets();
    read_syncs();
    read_graph_launches();
    if (graph_activities_ > 0)
        run_.count_diagnostic("nsys_graph_node_activities", trace::Severity::Info,
                              static_cast<double>(graph_activities_),
                              "kernels, copies and memsets that ran as nodes of a CUDA graph "
                              "(graphNodeId set); they link to their cudaGraphLaunch");
    if (std::size_t dropped = run_.graphs.finish(); dropped > 0)
        run_.count_diagnostic("nsys_graph_node_repeated", trace::Severity::Info,
                              static_cast<double>(dropped),
                              "graph activities starting on the same stream at the same "
                              "nanosecond as another: the hover shows the first one's node");
}

// A node-level export names the graph only on kernels (and only from nsys 2023 on);
// a copy or memset of the same launch takes the graph id of its launch's kernels.
bool NsysCudaReader::graph_node(sqlite3_stmt* s, int first, const trace::Activity& a) {
    if (sqlite3_column_type(s, first) == SQLITE_NULL) return false;
    const std::int64_t node = sqlite3_column_int64(s, first);
    if (node <= 0) return false;
    std::int64_t graph =
        sqlite3_column_type(s, first + 1) == SQLITE_NULL ? 0 : sqlite3_column_int64(s, first + 1);
    if (graph > 0 && a.correlation != 0)
        graph_of_launch_.emplace(a.correlation, static_cast<std::uint32_t>(graph));
    if (graph <= 0)
        if (auto it = graph_of_launch_.find(a.correlation); it != graph_of_launch_.end())
            graph = it->second;
    const auto id = static_cast<std::uint32_t>(std::clamp<std::int64_t>(graph, 0, 0xffffffffLL));
    run_.graphs.add(a.lane, a.start_ns, {id, static_cast<std::uint64_t>(node)});
    ++graph_activities_;
    return true;
}

void NsysCudaReader::read_graph_launches() {
    if (!db_.has_table(kGraphTrace)) return;
    std::string sql = "SELECT " + stream_columns(kGraphTrace) + ", " +
                      db_.column_or(kGraphTrace, "graphId", "0") + " FROM " + kGraphTrace;
    std::unordered_map<std::int64_t, std::uint32_t> names;
    std::int64_t rows = 0;
    db_.for_each_row(sql, [&](sqlite3_stmt* s) {
        Activity a = stream_activity(s);
        const std::int64_t graph =
            std::clamp<std::int64_t>(sqlite3_column_int64(s, 6), 0, 0xffffffffLL);
        auto it = names.find(graph);
        if (it == names.end())
            it = names
                     .emplace(graph,
                              run_.strings.intern("[CUDA graph " + std::to_string(graph) + "]"))
                     .first;
        a.name = it->second;
        a.kind = ActivityKind::Kernel;
        push(a);
        run_.graphs.add(a.lane, a.start_ns, {static_cast<std::uint32_t>(graph), 0});
        ++rows;
        progress_.row();
        return true;
    });
    if (rows > 0)
        run_.count_diagnostic(
            "nsys_graph_level_trace", trace::Severity::Info, static_cast<double>(rows),
            "CUDA graph launches traced at graph level (--cuda-graph-trace=graph): "
            "each is one activity, its kernels are not in the export, and "
            "attribution counts it as an unclassified kernel (gpu_compute)");
}

std::uint32_t NsysCudaReader::correlation(std::int64_t global_id, std::int64_t correlation_id) {
    if (correlation_id <= 0) return 0;
    if (!multi_process_) return static_cast<std::uint32_t>(correlation_id);
    std::uint64_t key = (static_cast<std::uint64_t>(NsysLaneMap::pid_of(global_id)) << 32) |
                        static_cast<std::uint32_t>(correlation_id);
    auto [it, fresh] = remap_.emplace(key, static_cast<std::uint32_t>(remap_.size() + 1));
    (void)fresh;
    return it->second;
}

void NsysCudaReader::read_runtime() {
    if (!db_.has_table(kRuntime)) return;
    bool keep_lanes = db_.has_table(kSync);
    std::string sql = "SELECT start, end, " + db_.column_or(kRuntime, "globalTid", "0") + ", " +
                      db_.column_or(kRuntime, "correlationId", "0") + ", nameId FROM " + kRuntime;
    db_.for_each_row(sql, [&](sqlite3_stmt* s) {
        Activity a;
        a.start_ns = sqlite3_column_int64(s, 0);
        a.end_ns = sqlite3_column_int64(s, 1);
        std::int64_t tid = sqlite3_column_int64(s, 2);
        a.lane = lanes_.thread(tid);
        a.correlation = correlation(tid, sqlite3_column_int64(s, 3));
        a.name = strings_.intern_api(sqlite3_column_int64(s, 4));
        a.kind = ActivityKind::Api;
        push(a);
        if (keep_lanes && a.correlation != 0) api_lane_.emplace(a.correlation, a.lane);
        progress_.row();
        return true;
    });
}

std::string NsysCudaReader::stream_columns(const char* table) const {
    return "start, end, deviceId, streamId, " + db_.column_or(table, "correlationId", "0") + ", " +
           db_.column_or(table, "globalPid", "0");
}

trace::Activity NsysCudaReader::stream_activity(sqlite3_stmt* s) {
    Activity a;
    a.start_ns = sqlite3_column_int64(s, 0);
    a.end_ns = sqlite3_column_int64(s, 1);
    const std::int64_t device = sqlite3_column_int64(s, 2);
    const std::int64_t pid = sqlite3_column_int64(s, 5);
    a.lane = lanes_.stream(static_cast<std::int32_t>(device), sqlite3_column_int64(s, 3), pid);
    a.correlation = correlation(pid, sqlite3_column_int64(s, 4));
    return a;
}

void NsysCudaReader::read_kernels() {
    if (!db_.has_table(kKernel)) return;
    // demangledName is what Nsight and Kineto show; shortName drops template arguments.
    std::string name = db_.has_column(kKernel, "demangledName") ? "demangledName" : "shortName";
    const bool launches = db_.has_column(kKernel, "gridX");
    std::string sql = "SELECT " + stream_columns(kKernel) + ", " + name +
                      (launches ? launch_columns(db_) : std::string()) +
                      graph_columns(db_, kKernel) + " FROM " + kKernel;
    const int graph_at = launches ? 16 : 7;
    db_.for_each_row(sql, [&](sqlite3_stmt* s) {
        Activity a = stream_activity(s);
        a.name = strings_.intern(sqlite3_column_int64(s, 6));
        a.kind = ActivityKind::Kernel;
        push(a);
        // A graph's kernels share their launch's correlation id, the launch table's
        // key, so their launch facts could not be told apart: none are kept.
        const bool in_graph = graph_node(s, graph_at, a);
        if (launches && a.correlation != 0 && !in_graph)
            run_.launches.add(launch_at(s, 7, a.correlation));
        progress_.row();
        return true;
    });
    if (std::size_t dropped = run_.launches.finish(); dropped > 0)
        run_.count_diagnostic("nsys_launch_repeated_correlation", trace::Severity::Info,
                              static_cast<double>(dropped),
                              "kernels sharing a correlation id with an earlier kernel: the "
                              "hover shows the first one's launch");
}

void NsysCudaReader::read_memcpys() {
    if (!db_.has_table(kMemcpy)) return;
    std::string sql = "SELECT " + stream_columns(kMemcpy) + ", bytes, copyKind" +
                      graph_columns(db_, kMemcpy) + " FROM " + kMemcpy;
    std::unordered_map<std::int64_t, std::uint32_t> names;
    std::int64_t unknown = 0;
    db_.for_each_row(sql, [&](sqlite3_stmt* s) {
        Activity a = stream_activity(s);
        a.bytes = static_cast<std::uint64_t>(sqlite3_column_int64(s, 6));
        std::int64_t kind = sqlite3_column_int64(s, 7);
        auto copy = schema_.copy_kind(kind);
        if (!copy) ++unknown;
        a.copy = copy.value_or(trace::CopyKind::None);
        auto it = names.find(kind);
        if (it == names.end())
            it = names.emplace(kind, run_.strings.intern(schema_.copy_label(kind))).first;
        a.name = it->second;
        a.kind = ActivityKind::Memcpy;
        push(a);
        graph_node(s, 8, a);
        progress_.row();
        return true;
    });
    if (unknown > 0)
        run_.count_diagnostic("unknown_copy_kind", trace::Severity::DataLoss,
                              static_cast<double>(unknown),
                              "copies whose copyKind is not a known CUDA memcpy kind; imported "
                              "with copy kind none, so attribution cannot place them");
}

void NsysCudaReader::read_memsets() {
    if (!db_.has_table(kMemset)) return;
    std::string sql = "SELECT " + stream_columns(kMemset) + ", " +
                      db_.column_or(kMemset, "bytes", "0") + graph_columns(db_, kMemset) +
                      " FROM " + kMemset;
    std::uint32_t name = run_.strings.intern("[CUDA memset]");
    db_.for_each_row(sql, [&](sqlite3_stmt* s) {
        Activity a = stream_activity(s);
        a.bytes = static_cast<std::uint64_t>(sqlite3_column_int64(s, 6));
        a.name = name;
        a.kind = ActivityKind::Memset;
        push(a);
        graph_node(s, 7, a);
        progress_.row();
        return true;
    });
}

// CUPTI synchronization records are the host blocking in a sync call: they go
// on the thread of that call (matched by correlation), else a per-process lane.
void NsysCudaReader::read_syncs() {
    if (!db_.has_table(kSync)) return;
    std::string sql = "SELECT start, end, deviceId, " + db_.column_or(kSync, "correlationId", "0") +
                      ", " + db_.column_or(kSync, "globalPid", "0") + ", " +
                      db_.column_or(kSync, "syncType", "0") + " FROM " + kSync;
    std::unordered_map<std::int64_t, std::uint32_t> names;
    db_.for_each_row(sql, [&](sqlite3_stmt* s) {
        Activity a;
        a.start_ns = sqlite3_column_int64(s, 0);
        a.end_ns = sqlite3_column_int64(s, 1);
        // Column 2 (deviceId) is not kept: a sync sits on a host lane, whose device is -1.
        std::int64_t pid = sqlite3_column_int64(s, 4);
        a.correlation = correlation(pid, sqlite3_column_int64(s, 3));
        auto lane = api_lane_.find(a.correlation);
        // A global id with tid 0 stands for "some thread of this process".
        a.lane = lane != api_lane_.end() ? lane->second : lanes_.thread(pid & ~0xFFFFFFll);
        std::int64_t type = sqlite3_column_int64(s, 5);
        auto it = names.find(type);
        if (it == names.end())
            it = names.emplace(type, run_.strings.intern(schema_.sync_label(type))).first;
        a.name = it->second;
        a.kind = ActivityKind::Sync;
        push(a);
        progress_.row();
        return true;
    });
}

}  // namespace tokenscope::import
