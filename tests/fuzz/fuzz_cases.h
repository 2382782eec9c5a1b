#pragma once

// The body of every fuzz target, shared by the libFuzzer programs in this
// folder and by the dev build's regression test, which replays each file of
// tests/fuzz/regressions/<target>/ through the same function. A hostile input
// may only end in the documented errors (trace::FileError: ImportError or
// StoreError naming the file); any other exception escaping, a crash, a hang
// or an allocation past the limits is a defect.

#include <sqlite3.h>
#include <unistd.h>
#include <zlib.h>

#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fleet/query_range_parser.h"
#include "import/client/client_importer.h"
#include "import/kineto/kineto_importer.h"
#include "import/nsys/nsys_importer.h"
#include "import/open_any.h"
#include "import/serving/serving_importer.h"
#include "store/store_reader.h"
#include "trace/file_error.h"

namespace tokenscope::fuzz {

// Importers read paths, not buffers: each input is written to one file per
// process and target, in /dev/shm where there is one (no disk traffic).
class InputFile {
  public:
    explicit InputFile(const std::string& name) {
        std::error_code ec;
        std::filesystem::path dir = "/dev/shm";
        if (!std::filesystem::is_directory(dir, ec) || ::access(dir.c_str(), W_OK) != 0)
            dir = std::filesystem::temp_directory_path();
        path_ = (dir / ("tokenscope-fuzz-" + std::to_string(::getpid()) + "-" + name)).string();
    }
    ~InputFile() { remove_all(); }
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    const std::string& write(std::string_view bytes) {
        remove_all();  // a -journal left by a store migration must not be replayed
        std::ofstream out(path_, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out.flush()) throw std::runtime_error("cannot write " + path_);
        return path_;
    }

  private:
    void remove_all() const {
        std::error_code ec;
        for (const char* suffix : {"", "-journal", "-wal", "-shm"})
            std::filesystem::remove(path_ + suffix, ec);
    }
    std::string path_;
};

// Runs fn, accepting only the errors a bad file is documented to raise.
template <typename Fn>
void expect_clean_failure(Fn&& fn) {
    try {
        fn();
    } catch (const trace::FileError&) {
    }
}

inline void nsys_case(std::string_view bytes) {
    static InputFile file("nsys.sqlite");
    const std::string& path = file.write(bytes);
    import::NsysImporter importer;
    expect_clean_failure([&] {
        if (importer.accepts_file(path, bytes)) (void)importer.import(path, {}, {});
    });
}

// What the SQL of an nsys_sql input may do: build tables, views, triggers and
// rows in its own file, nothing else (no ATTACH, PRAGMA or virtual tables).
inline int only_building(void*, int action, const char*, const char*, const char*, const char*) {
    switch (action) {
        case SQLITE_CREATE_TABLE:
        case SQLITE_CREATE_INDEX:
        case SQLITE_CREATE_VIEW:
        case SQLITE_CREATE_TRIGGER:
        case SQLITE_DROP_TABLE:
        case SQLITE_DROP_VIEW:
        case SQLITE_INSERT:
        case SQLITE_UPDATE:
        case SQLITE_DELETE:
        case SQLITE_READ:
        case SQLITE_SELECT:
        case SQLITE_FUNCTION:
        case SQLITE_TRANSACTION:
        case SQLITE_RECURSIVE:
        case SQLITE_ALTER_TABLE:
            return SQLITE_OK;
        default:
            return SQLITE_DENY;
    }
}

// Runs each statement of `sql` on a fresh database at `path`, skipping those
// that fail; bounded in value sizes and VM steps so an input stays fast.
inline void build_database(const std::string& path, std::string sql) {
    for (char& c : sql) c = c == '\0' ? ' ' : c;
    std::string lower = sql;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("vacuum") != std::string::npos) return;  // VACUUM INTO writes other files
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) throw std::runtime_error("open " + path);
    sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF", nullptr, nullptr,
                 nullptr);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_set_authorizer(db, only_building, nullptr);
    int budget = 200;  // progress callbacks of 1000 VM steps each
    sqlite3_progress_handler(
        db, 1000, [](void* b) -> int { return --*static_cast<int*>(b) < 0 ? 1 : 0; }, &budget);
    const char* next = sql.c_str();
    while (*next != '\0' && budget >= 0) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, next, -1, &st, &next) != SQLITE_OK) break;
        while (st != nullptr && sqlite3_step(st) == SQLITE_ROW) {
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
}

// Structure-aware Nsight Systems input: SQL that builds the export, so
// mutations reach the importer's handling of odd values (NULLs, huge or
// negative numbers, text for integers, dangling ids), not only broken pages.
inline void nsys_sql_case(std::string_view sql) {
    static InputFile file("nsys_sql.sqlite");
    const std::string& path = file.write({});
    build_database(path, std::string(sql));
    import::NsysImporter importer;
    std::string head(100, '\0');
    std::ifstream(path, std::ios::binary).read(head.data(), 100);
    expect_clean_failure([&] {
        if (importer.accepts_file(path, head)) (void)importer.import(path, {}, {});
    });
}

// Read whole (what a trace that fits memory gets), in windows of 32 bytes (what one
// of more than 2 MiB gets: cuts at newlines, brackets borrowed at the edges), then in
// slices of 256 bytes (what a trace larger than memory gets: json::ObjectSlicer's
// cuts, members and slices parsed alone).
inline void kineto_file_case(const std::string& path) {
    expect_clean_failure([&] { (void)import::KinetoImporter().import_with_launches(path, {}); });
    import::ImportOptions windows;
    windows.window_bytes = 32;
    expect_clean_failure(
        [&] { (void)import::KinetoImporter().import_with_launches(path, windows); });
    import::ImportOptions sliced;
    sliced.slice_bytes = 256;
    expect_clean_failure(
        [&] { (void)import::KinetoImporter().import_with_launches(path, sliced); });
}

inline void kineto_case(std::string_view bytes) {
    static InputFile file("kineto.json");
    kineto_file_case(file.write(bytes));
}

// The input compressed as two gzip members (split at its middle), so
// mutations act on the JSON inside and the member boundary moves with them.
inline std::string gzip_members(std::string_view bytes) {
    std::string out;
    for (std::string_view part :
         {bytes.substr(0, bytes.size() / 2), bytes.substr(bytes.size() / 2)}) {
        z_stream z{};
        if (deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            throw std::runtime_error("deflateInit2");
        std::string buf(deflateBound(&z, part.size()), '\0');
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(part.data()));
        z.avail_in = static_cast<uInt>(part.size());
        z.next_out = reinterpret_cast<Bytef*>(buf.data());
        z.avail_out = static_cast<uInt>(buf.size());
        int rc = deflate(&z, Z_FINISH);
        deflateEnd(&z);
        if (rc != Z_STREAM_END) throw std::runtime_error("deflate");
        out.append(buf.data(), buf.size() - z.avail_out);
    }
    return out;
}

inline void kineto_gzip_case(std::string_view bytes) {
    static InputFile file("kineto.json.gz");
    kineto_file_case(file.write(gzip_members(bytes)));
}

inline void serving_case(std::string_view bytes) {
    static InputFile file("serving.json");
    const std::string& path = file.write(bytes);
    import::ServingImporter importer;
    (void)importer.accepts(bytes);
    expect_clean_failure([&] { (void)importer.import(path, {}, {}); });
}

// The client benchmark results (profiler/import/client), recognised by
// content like the CLI does: one target per tool, each with its own seeds and
// dictionary, all through ClientImporter, so a mutation that turns one format
// into another is followed too. The name's extension only keeps the run name.
inline void client_case(std::string_view bytes, const char* name) {
    static std::map<std::string, InputFile> files;
    auto it = files.try_emplace(name, name).first;
    const std::string& path = it->second.write(bytes);
    import::ClientImporter importer;
    (void)importer.accepts(bytes);
    expect_clean_failure([&] { (void)importer.import(path, {}, {}); });
}
inline void aiperf_case(std::string_view bytes) {
    client_case(bytes, "profile_export.jsonl");
}
inline void genai_perf_case(std::string_view bytes) {
    client_case(bytes, "profile_export.json");
}
inline void guidellm_case(std::string_view bytes) {
    client_case(bytes, "benchmarks.json");
}
inline void llmperf_case(std::string_view bytes) {
    client_case(bytes, "run_individual_responses.json");
}

// Every lane's timeline summary at the level that fits 1600 bins, and one name's
// durations: what opening a large run from its summaries reads (DESIGN.md section 17).
inline void read_summaries(const std::string& path) {
    store::StoreReader reader(path);
    for (const std::int64_t run : reader.run_ids()) {
        (void)reader.duration_histogram(run, 1, 0, std::int64_t{1} << 50);
        for (std::uint16_t lane = 0; lane < 64; ++lane) {
            const auto bounds = reader.lane_bounds(run, lane);
            const auto levels = reader.summary_levels(run, lane);
            if (!bounds || levels.empty() || bounds->second < bounds->first) continue;
            const std::uint64_t span = static_cast<std::uint64_t>(bounds->second) -
                                       static_cast<std::uint64_t>(bounds->first);
            auto level = levels.begin();
            while (std::next(level) != levels.end() && (span >> level->bin_log2()) > 1600) ++level;
            (void)reader.summary_bins(run, lane, level->level, bounds->first, bounds->second);
        }
    }
}

// Opening a .tokenscope file goes through open_any, the path the CLI and the GUI take;
// then its summaries are read.
inline void store_case(std::string_view bytes) {
    static InputFile file("store.tokenscope");
    const std::string& path = file.write(bytes);
    expect_clean_failure([&] { (void)import::open_any(path); });
    expect_clean_failure([&] { read_summaries(path); });
}

// A Prometheus /api/v1/query_range answer, as the fleet client reads what a server sent:
// a hostile or broken answer may only end in the parser's two documented errors.
inline void prometheus_case(std::string_view bytes) {
    try {
        (void)fleet::parse_query_range(bytes);
    } catch (const fleet::ResponseError&) {
    } catch (const fleet::QueryError&) {
    }
}

// Every target by name: the regression test replays tests/fuzz/regressions/<name>/.
inline const std::map<std::string, std::function<void(std::string_view)>>& cases() {
    static const std::map<std::string, std::function<void(std::string_view)>> all = {
        {"nsys", nsys_case},
        {"nsys_sql", nsys_sql_case},
        {"kineto", kineto_case},
        {"kineto_gzip", kineto_gzip_case},
        {"serving", serving_case},
        {"store", store_case},
        {"aiperf", aiperf_case},
        {"genai_perf", genai_perf_case},
        {"guidellm", guidellm_case},
        {"llmperf", llmperf_case},
        {"prometheus", prometheus_case}};
    return all;
}

}  // namespace tokenscope::fuzz
