#pragma once

#include <cstdint>
#include <string>

namespace tokenscope::store {

// "TkSc": PRAGMA application_id of every .tokenscope file.
inline constexpr std::int32_t kApplicationId = 0x546B5363;
// PRAGMA user_version of files this build writes. Version 1 lacked the
// counter_sample table, step.floor_ns and run.clock; version 2 lacked the
// kernel_launch table, version 3 the sweep tables, version 4 the step's batch
// composition, version 5 the lane's rank and the run's UTC origin, version 6 the
// graph_activity table (CUDA graph nodes), version 7 the launch_config and
// launch_chunk tables (launch facts as chunks), version 8 the step's key tokens and
// marker end (iteration windows), version 9 the timeline summaries (summary_chunk,
// run.summarized), version 10 the duration histograms, version 11 the activity totals;
// docs/file-format.md.
inline constexpr int kSchemaVersion = 12;

namespace detail {

class Connection;

// run's columns after id, in the order writer and reader bind and read them.
inline constexpr const char* kRunColumns =
    "name, source, created_ns, host, gpu_name, gpu_sm_count, gpu_peak_bandwidth, "
    "gpu_peak_flops, gpu_pcie_generation, gpu_pcie_width, gpu_nvlink_links, "
    "gpu_nvlink_bandwidth, driver_version, cuda_version, workload_json, clock, origin_utc_ns";
inline constexpr int kRunColumnCount = 17;

// Creates the current schema in an empty database and stamps its ids.
void create_schema(const Connection& conn);
// The summary_chunk, duration_histogram and activity_total tables with their indexes (a
// file's, or a summary cache's: summary_cache.h), together or one each
// (summary_schema.cpp).
void create_summary_tables(const Connection& conn);
void create_summary_chunk_table(const Connection& conn);
void create_histogram_table(const Connection& conn);
void create_activity_total_table(const Connection& conn);
// Brings a file of an older version to kSchemaVersion in one transaction.
void migrate(const Connection& conn);
// True when the file has the kernel_launch table (a version 2 file opened
// without migrating has none: its runs simply have no launches).
bool has_launch_table(const Connection& conn);
// True when the file has the launch_chunk and launch_config tables (a version 7 file
// read without migrating has only kernel_launch rows).
bool has_launch_chunks(const Connection& conn);
// True when the file has the graph_activity table (a version 6 file read without
// migrating has none: its activities ran outside CUDA graphs as far as it says).
bool has_graph_table(const Connection& conn);
// True when step has the batch composition columns (a version 4 file read
// without migrating has none: its steps read as of unknown composition).
bool has_step_batch(const Connection& conn);
// True when steps have their key tokens and marker end (version 9).
bool has_step_windows(const Connection& conn);
// True when the file has the summary_chunk table and run.summarized (version 10).
bool has_summary_tables(const Connection& conn);
// True when the file has the duration_histogram table (version 11).
bool has_histogram_table(const Connection& conn);
// True when the file has the activity_total table (version 12).
bool has_activity_total_table(const Connection& conn);
// The optional step_attribution table (summary_schema.cpp), made by its first writer.
void create_step_attribution_table(const Connection& conn);
bool has_step_attribution_table(const Connection& conn);
// kRunColumns as a SELECT list for this file: a version 5 file read without migrating
// has no run.origin_utc_ns, which then reads as NULL (unknown).
std::string run_select_columns(const Connection& conn);
// lane's rank column for a SELECT: "rank", or "-1" for a file without it (version 5).
const char* lane_rank_column(const Connection& conn);
// True when the file has the sweep tables (a version 3 file read without migrating has none).
bool has_sweep_tables(const Connection& conn);
// Checks application_id and user_version; returns the version (1..kSchemaVersion),
// or 0 for a fresh empty database. Throws StoreError for a foreign or newer file.
int check_identity(const Connection& conn);

}  // namespace detail
}  // namespace tokenscope::store
