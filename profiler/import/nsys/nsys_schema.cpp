#include "nsys_schema.h"

#include <array>
#include <string_view>

#include "nsys_database.h"

namespace tokenscope::import {
namespace {

using trace::CopyKind;

// CUDA_MEMCPY_KIND_* as documented for the nsys export; array copies count as
// the device side they touch, unified-memory migrations as their direction.
struct CopyKindName {
    std::string_view suffix;
    CopyKind kind;
    std::string_view label;
};
constexpr std::array<CopyKindName, 13> kCopyKinds = {{
    {"HTOD", CopyKind::H2D, "Host-to-Device"},
    {"DTOH", CopyKind::D2H, "Device-to-Host"},
    {"HTOA", CopyKind::H2D, "Host-to-Array"},
    {"ATOH", CopyKind::D2H, "Array-to-Host"},
    {"ATOA", CopyKind::D2D, "Array-to-Array"},
    {"ATOD", CopyKind::D2D, "Array-to-Device"},
    {"DTOA", CopyKind::D2D, "Device-to-Array"},
    {"DTOD", CopyKind::D2D, "Device-to-Device"},
    {"HTOH", CopyKind::H2H, "Host-to-Host"},
    {"PTOP", CopyKind::P2P, "Peer-to-Peer"},
    {"UVM_HTOD", CopyKind::H2D, "Unified Host-to-Device"},
    {"UVM_DTOH", CopyKind::D2H, "Unified Device-to-Host"},
    {"UVM_DTOD", CopyKind::D2D, "Unified Device-to-Device"},
}};

bool ends_with_kind(std::string_view name, std::string_view suffix) {
    // "CUDA_MEMCPY_KIND_UVM_HTOD" must not match plain "HTOD".
    return name.ends_with("_KIND_" + std::string(suffix));
}

}  // namespace

bool NsysSchema::is_nsys_export(const NsysDatabase& db) {
    static constexpr std::array<std::string_view, 6> kMarkers = {"CUPTI_ACTIVITY_KIND_KERNEL",
                                                                 "CUPTI_ACTIVITY_KIND_RUNTIME",
                                                                 "CUPTI_ACTIVITY_KIND_MEMCPY",
                                                                 "NVTX_EVENTS",
                                                                 "TARGET_INFO_GPU",
                                                                 "TARGET_INFO_SESSION_START_TIME"};
    if (!db.has_table("StringIds")) return false;
    for (auto t : kMarkers)
        if (db.has_table(t)) return true;
    return false;
}

NsysSchema::NsysSchema(const NsysDatabase& db) {
    if (db.has_table("META_DATA_EXPORT")) {
        db.for_each_row("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION'",
                        [this](sqlite3_stmt* s) {
                            const auto* v = sqlite3_column_text(s, 0);
                            if (v != nullptr) version_ = reinterpret_cast<const char*>(v);
                            return false;
                        });
    }
    load_copy_kinds(db);
    load_sync_types(db);
}

void NsysSchema::load_copy_kinds(const NsysDatabase& db) {
    if (db.has_table("ENUM_CUDA_MEMCPY_OPER")) {
        db.for_each_row("SELECT id, name, " +
                            db.column_or("ENUM_CUDA_MEMCPY_OPER", "label", "name") +
                            " FROM ENUM_CUDA_MEMCPY_OPER",
                        [this](sqlite3_stmt* s) {
                            std::int64_t id = sqlite3_column_int64(s, 0);
                            const auto* n = sqlite3_column_text(s, 1);
                            const auto* l = sqlite3_column_text(s, 2);
                            std::string_view name = n ? reinterpret_cast<const char*>(n) : "";
                            if (l != nullptr) copy_labels_[id] = reinterpret_cast<const char*>(l);
                            for (const auto& k : kCopyKinds)
                                if (ends_with_kind(name, k.suffix)) copy_kinds_[id] = k.kind;
                            return true;
                        });
        if (!copy_kinds_.empty()) return;
    }
    // Documented values: 1 HtoD, 2 DtoH, 3 HtoA, ..., 8 DtoD, 9 HtoH, 10 PtoP, 11-13 UVM.
    for (std::size_t i = 0; i < kCopyKinds.size(); ++i) {
        auto id = static_cast<std::int64_t>(i + 1);
        copy_kinds_[id] = kCopyKinds[i].kind;
        copy_labels_[id] = std::string(kCopyKinds[i].label);
    }
}

void NsysSchema::load_sync_types(const NsysDatabase& db) {
    if (!db.has_table("ENUM_CUPTI_SYNC_TYPE")) return;
    db.for_each_row("SELECT id, " + db.column_or("ENUM_CUPTI_SYNC_TYPE", "label", "name") +
                        " FROM ENUM_CUPTI_SYNC_TYPE",
                    [this](sqlite3_stmt* s) {
                        const auto* l = sqlite3_column_text(s, 1);
                        if (l != nullptr)
                            sync_labels_[sqlite3_column_int64(s, 0)] =
                                reinterpret_cast<const char*>(l);
                        return true;
                    });
}

std::optional<trace::CopyKind> NsysSchema::copy_kind(std::int64_t value) const {
    auto it = copy_kinds_.find(value);
    if (it == copy_kinds_.end()) return std::nullopt;
    return it->second;
}

std::string NsysSchema::copy_label(std::int64_t value) const {
    auto it = copy_labels_.find(value);
    return "[CUDA memcpy " +
           (it != copy_labels_.end() ? it->second : "kind " + std::to_string(value)) + "]";
}

std::string NsysSchema::sync_label(std::int64_t value) const {
    auto it = sync_labels_.find(value);
    return it != sync_labels_.end() ? "[CUDA " + it->second + "]"
                                    : "[CUDA sync type " + std::to_string(value) + "]";
}

std::vector<std::string> NsysSchema::missing_optional_tables(const NsysDatabase& db) const {
    static constexpr std::array<std::string_view, 9> kOptional = {
        "CUPTI_ACTIVITY_KIND_KERNEL",
        "CUPTI_ACTIVITY_KIND_MEMCPY",
        "CUPTI_ACTIVITY_KIND_MEMSET",
        "CUPTI_ACTIVITY_KIND_RUNTIME",
        "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
        "NVTX_EVENTS",
        "TARGET_INFO_GPU",
        "GPU_METRICS",
        "ThreadNames"};
    std::vector<std::string> missing;
    for (auto t : kOptional)
        if (!db.has_table(t)) missing.emplace_back(t);
    return missing;
}

}  // namespace tokenscope::import
