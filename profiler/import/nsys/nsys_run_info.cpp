#include "nsys_run_info.h"

#include <nlohmann/json.hpp>

#include "nsys_database.h"
#include "trace/gpu_catalog.h"

namespace tokenscope::import {
namespace {

std::string text_of(sqlite3_stmt* s, int col) {
    const auto* t = sqlite3_column_text(s, col);
    return t != nullptr ? reinterpret_cast<const char*>(t) : std::string();
}

const char* gpu_table(const NsysDatabase& db) {
    if (db.has_table("TARGET_INFO_GPU")) return "TARGET_INFO_GPU";
    if (db.has_table("TARGET_INFO_CUDA_GPU")) return "TARGET_INFO_CUDA_GPU";
    return nullptr;
}

// NvDriverVersion 52510517 is driver 525.105.17.
std::string driver_text(const std::string& raw) {
    if (raw.size() < 6 || raw.find_first_not_of("0123456789") != std::string::npos) return raw;
    std::string v = raw.substr(0, raw.size() - 5) + "." + raw.substr(raw.size() - 5, 3) + "." +
                    raw.substr(raw.size() - 2);
    return v;
}

}  // namespace

std::string NsysRunInfo::run_name(const std::string& path) {
    std::string name = path.substr(path.find_last_of('/') + 1);
    auto dot = name.find_last_of('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

int NsysRunInfo::gpu_count(const NsysDatabase& db) {
    const char* table = gpu_table(db);
    return table ? static_cast<int>(db.count_rows(table)) : 0;
}

trace::RunInfo NsysRunInfo::read(const NsysDatabase& db, const std::string& path) {
    trace::RunInfo info;
    info.name = run_name(path);
    info.source = trace::Source::Nsys;
    info.clock = trace::ClockDomain::SourceFile;
    info.complete = true;
    read_gpu(db, info);
    read_capture(db, info);
    return info;
}

void NsysRunInfo::read_gpu(const NsysDatabase& db, trace::RunInfo& info) {
    const char* table = gpu_table(db);
    if (table == nullptr) return;
    std::string sql = std::string("SELECT ") + db.column_or(table, "name", "''") + ", " +
                      db.column_or(table, "smCount", "0") + ", " +
                      db.column_or(table, "memoryBandwidth", "0") + " FROM " + table +
                      " ORDER BY " + db.column_or(table, "id", "rowid") + " LIMIT 1";
    db.for_each_row(sql, [&info](sqlite3_stmt* s) {
        info.gpu.name = text_of(s, 0);
        info.gpu.sm_count = sqlite3_column_int(s, 1);
        info.gpu.peak_bandwidth = sqlite3_column_double(s, 2);  // bytes/s
        return false;
    });
    // Peak FLOP/s, the host link and NVLink from the datasheet of the GPU it names.
    if (const auto* model = trace::find_gpu_model(info.gpu.name))
        info.gpu = trace::with_datasheet(std::move(info.gpu), *model);
}

void NsysRunInfo::read_capture(const NsysDatabase& db, trace::RunInfo& info) {
    if (db.has_column("TARGET_INFO_SESSION_START_TIME", "utcEpochNs"))
        db.for_each_row("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME",
                        [&info](sqlite3_stmt* s) {
                            info.created_ns = sqlite3_column_int64(s, 0);
                            // The export's times count from the session start.
                            info.origin_utc_ns = info.created_ns;
                            return false;
                        });
    if (db.has_column("TARGET_INFO_SYSTEM_ENV", "value"))
        db.for_each_row("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'NvDriverVersion'",
                        [&info](sqlite3_stmt* s) {
                            info.driver_version = driver_text(text_of(s, 0));
                            return false;
                        });
    if (!db.has_column("META_DATA_CAPTURE", "value")) return;
    std::string command;
    db.for_each_row(
        "SELECT name, value FROM META_DATA_CAPTURE WHERE name IN ('DEVICE_DISPLAY_NAME', "
        "'PROCESS_0:COMMAND') OR name LIKE 'PROCESS_0:ARGUMENT_%' ORDER BY rowid",
        [&](sqlite3_stmt* s) {
            std::string name = text_of(s, 0);
            if (name == "DEVICE_DISPLAY_NAME")
                info.host = text_of(s, 1);
            else
                command += (command.empty() ? "" : " ") + text_of(s, 1);
            return true;
        });
    if (!command.empty()) info.workload_json = nlohmann::json{{"command", command}}.dump();
}

}  // namespace tokenscope::import
