#include "open_any.h"

#include <algorithm>
#include <memory>

#include "file_source.h"
#include "importer_registry.h"
#include "store/schema.h"
#include "store/store_error.h"
#include "store/store_reader.h"
#include "store/store_writer.h"

namespace tokenscope::import {
namespace {

// Scale of the combined progress of import_files: each input gets one share.
constexpr std::int64_t kShare = 1000;

// Maps one stage's (done, total) into [base, base + span) of an outer range.
trace::ProgressFn sub_progress(const trace::ProgressFn& outer, std::int64_t base, std::int64_t span,
                               std::int64_t total) {
    if (!outer) return {};
    return [&outer, base, span, total](std::int64_t done, std::int64_t of) {
        std::int64_t part = of > 0 ? span * std::min(done, of) / of : 0;
        return outer(base + part, total);
    };
}

// How run `id` is read: whole, or without its activities (ImportOptions).
store::StoreReader::LoadParts parts_of(const store::StoreReader& reader, std::int64_t id,
                                       const ImportOptions& options) {
    using Parts = store::StoreReader::LoadParts;
    if (!options.read_activities) return Parts::TotalsForActivities;
    if (options.leave_activities_from <= 0) return Parts::Everything;
    const auto totals = reader.activity_totals(id);
    return totals && totals->activities() >= options.leave_activities_from
               ? Parts::TotalsForActivities
               : Parts::Everything;
}

// A .tokenscope file (or a SQLite file whose -wal makes it one: a capture killed before
// its first checkpoint) opened for reading; nullptr for any other file. Throws StoreError
// naming the file for a damaged one.
std::unique_ptr<store::StoreReader> open_store(const std::string& path,
                                               store::ReaderOptions reader_options) {
    std::string head;
    {
        // The clear errors for missing, empty and directory paths; chunks of the head's
        // size, so a gzipped file inflates 64 KiB to be recognised, not a whole 1 MiB.
        FileSource source(path, ImporterRegistry::kHeadBytes);
        head = std::string(source.head(ImporterRegistry::kHeadBytes));
    }
    if (is_tokenscope_head(head)) return std::make_unique<store::StoreReader>(path, reader_options);
    // The application_id of a capture killed before its first checkpoint is only in the
    // -wal (with every committed batch): ask SQLite, which reads it.
    if (is_sqlite_header(head) && store::StoreReader::has_wal(path)) {
        try {
            return std::make_unique<store::StoreReader>(path, reader_options);
        } catch (const store::ForeignFileError&) {
            // another tool's database in WAL mode: its importer decides
        }
    }
    return nullptr;
}

void require_runs(const store::StoreReader& reader) {
    if (reader.run_ids().empty())
        throw store::StoreError(reader.path(),
                                "an empty Tokenscope file: the schema is there but it holds no "
                                "run (nothing was ever written to it)");
}

// One input of import_files: a foreign file's runs read whole, or a .tokenscope file
// whose runs are copied as they stream out of it.
struct Input {
    std::vector<trace::RunData> runs;
    std::unique_ptr<store::StoreReader> store;
};

std::vector<trace::RunData> read_store(const store::StoreReader& reader,
                                       const ImportOptions& options,
                                       const trace::ProgressFn& progress) {
    require_runs(reader);
    const auto ids = reader.run_ids();
    std::vector<trace::RunData> out;
    auto n = static_cast<std::int64_t>(ids.size());
    for (std::int64_t i = 0; i < n; ++i) {
        const auto id = ids[static_cast<std::size_t>(i)];
        auto p = sub_progress(progress, i * kShare, kShare, n * kShare);
        out.push_back(reader.load_run(id, p, parts_of(reader, id, options)));
    }
    return out;
}

}  // namespace

bool is_tokenscope_head(std::string_view head) {
    if (head.size() < 72 || !is_sqlite_header(head)) return false;
    // The SQLite header stores PRAGMA application_id big-endian at offset 68.
    std::uint32_t id = 0;
    for (int i = 68; i < 72; ++i) id = (id << 8) | static_cast<unsigned char>(head[i]);
    return id == static_cast<std::uint32_t>(store::kApplicationId);
}

std::vector<trace::RunData> open_any(const std::string& path, const ImportOptions& options,
                                     const trace::ProgressFn& progress) {
    // A run read without its activities needs only its rows and totals walked first; the
    // tables of a run read whole are walked before their first read all the same.
    const bool whole = options.read_activities && options.leave_activities_from <= 0;
    if (auto reader = open_store(path, {.check_whole_file = whole}))
        return read_store(*reader, options, progress);
    return default_registry().pick(path).import_all(path, options, progress);
}

std::vector<std::int64_t> import_files(const std::vector<std::string>& inputs,
                                       const std::string& out_path, const ImportOptions& options,
                                       const trace::ProgressFn& progress) {
    std::vector<std::int64_t> ids;
    if (inputs.empty()) return ids;
    auto n = static_cast<std::int64_t>(inputs.size());
    // Every input is read, or opened and walked whole (a .tokenscope file), before the
    // output is created: a bad input leaves no new (empty) .tokenscope file behind.
    std::vector<Input> all(inputs.size());
    for (std::int64_t i = 0; i < n; ++i) {
        const std::string& path = inputs[static_cast<std::size_t>(i)];
        Input& in = all[static_cast<std::size_t>(i)];
        // Not mapped: a copy reads every page once, and mapped ones count as resident.
        in.store = open_store(path, {.map_file = false});
        if (in.store)
            require_runs(*in.store);
        else
            in.runs = default_registry().pick(path).import_all(
                path, options, sub_progress(progress, i * kShare, kShare / 2, n * kShare));
    }
    store::StoreWriter writer(out_path);
    for (std::int64_t i = 0; i < n; ++i) {
        Input& in = all[static_cast<std::size_t>(i)];
        const std::vector<std::int64_t> stored =
            in.store ? in.store->run_ids() : std::vector<std::int64_t>{};
        const auto count = static_cast<std::int64_t>(in.store ? stored.size() : in.runs.size());
        for (std::int64_t k = 0; k < count; ++k) {
            auto p = sub_progress(progress, i * kShare + kShare / 2 + k * (kShare / 2) / count,
                                  (kShare / 2) / count, n * kShare);
            if (in.store) {
                ids.push_back(writer.copy_run(*in.store, stored[static_cast<std::size_t>(k)], p));
                continue;
            }
            auto& run = in.runs[static_cast<std::size_t>(k)];
            run.info.id = 0;
            ids.push_back(writer.write_run(run, p));
            run = trace::RunData{};  // frees the run as soon as it is stored
        }
        in.store.reset();
    }
    return ids;
}

}  // namespace tokenscope::import
