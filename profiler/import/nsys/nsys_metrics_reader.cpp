#include "nsys_metrics_reader.h"

#include <map>
#include <string>
#include <utility>

#include "nsys_database.h"
#include "nsys_lane_map.h"
#include "nsys_progress.h"

namespace tokenscope::import {

NsysMetricsReader::NsysMetricsReader(const NsysDatabase& db, NsysLaneMap& lanes,
                                     NsysProgress& progress, trace::RunData& run)
    : db_(db), lanes_(lanes), progress_(progress), run_(run) {}

bool NsysMetricsReader::wanted(const std::string& name) {
    return name.find("PCIe") != std::string::npos || name.find("NVLink") != std::string::npos ||
           name.find("SM Active") != std::string::npos;
}

void NsysMetricsReader::read() {
    if (!db_.has_table("GPU_METRICS") || !db_.has_table("TARGET_INFO_GPU_METRICS")) return;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> names;  // (typeId, metricId)
    db_.for_each_row("SELECT DISTINCT typeId, metricId, metricName FROM TARGET_INFO_GPU_METRICS",
                     [&names](sqlite3_stmt* s) {
                         const auto* n = sqlite3_column_text(s, 2);
                         std::string name = n ? reinterpret_cast<const char*>(n) : "";
                         if (wanted(name))
                             names[{sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1)}] = name;
                         return true;
                     });
    if (names.empty()) return;
    std::map<std::pair<std::int64_t, std::int64_t>, std::uint16_t> lanes;
    for (const auto& [key, name] : names) {
        auto device = static_cast<std::int32_t>(key.first & 0xFF);
        lanes[key] = lanes_.counter(device, key.second, name);
    }
    db_.for_each_row(
        "SELECT timestamp, typeId, metricId, value FROM GPU_METRICS", [&](sqlite3_stmt* s) {
            progress_.row();
            auto it = lanes.find({sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2)});
            if (it == lanes.end()) return true;
            run_.counters.push_back(trace::CounterSample{it->second, sqlite3_column_int64(s, 0),
                                                         sqlite3_column_double(s, 3)});
            return true;
        });
}

}  // namespace tokenscope::import
