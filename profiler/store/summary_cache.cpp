#include "summary_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "connection.h"
#include "schema.h"
#include "statement.h"
#include "store_error.h"
#include "summary_writer.h"

namespace tokenscope::store::detail {
namespace {

// "TkSs": a cache is not a .tokenscope file, and no opener takes it for one.
constexpr std::int32_t kCacheApplicationId = 0x546B5373;

struct Identity {
    std::string path;
    std::int64_t size = 0;
    std::int64_t mtime_ns = 0;
};

std::optional<Identity> identity_of(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    std::error_code ec;
    auto canonical = std::filesystem::weakly_canonical(path, ec);
    return Identity{
        ec ? path : canonical.string(), static_cast<std::int64_t>(st.st_size),
        static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

std::string cache_dir() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/tokenscope/summaries";
    const char* home = std::getenv("HOME");
    if (home != nullptr && home[0] == '/')
        return std::string(home) + "/.cache/tokenscope/summaries";
    return (std::filesystem::temp_directory_path() / "tokenscope-summaries").string();
}

// FNV-1a, 64 bits: a name, not a guard (the cache's identity row is checked on open).
std::uint64_t fnv1a(const std::string& text) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
    return h;
}

constexpr const char* kCacheTables = R"sql(
CREATE TABLE cache_source (path TEXT NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL);
CREATE TABLE run (id INTEGER PRIMARY KEY, summarized INTEGER NOT NULL DEFAULT 0);
)sql";

}  // namespace

std::string summary_cache_path(const std::string& source_path) {
    const auto id = identity_of(source_path);
    const std::string key =
        id ? id->path + '\0' + std::to_string(id->size) + '\0' + std::to_string(id->mtime_ns)
           : source_path;
    char name[32];
    std::snprintf(name, sizeof name, "%016llx.summaries",
                  static_cast<unsigned long long>(fnv1a(key)));
    return cache_dir() + "/" + name;
}

void build_summary_cache(const Connection& source, const std::string& source_path,
                         const std::vector<std::int64_t>& runs, const std::string& cache_path,
                         const trace::ProgressFn& progress) {
    const auto id = identity_of(source_path);
    if (!id) throw StoreError(source_path, "cannot read the file's size and time");
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(cache_path).parent_path(), ec);
    const std::string building = cache_path + ".building-" + std::to_string(::getpid());
    std::filesystem::remove(building, ec);
    std::int64_t total = 0, done = 0;
    for (std::int64_t run : runs) {
        Statement st(source,
                     "SELECT coalesce(sum(count), 0) FROM activity_chunk WHERE run_id = ?1");
        st.bind_int(1, run);
        if (st.step()) total += st.int64(0);
    }
    try {
        Connection cache(building, /*read_only=*/false);
        cache.write_transaction([&] {
            cache.exec(kCacheTables);
            create_summary_tables(cache);
            Statement(cache, "INSERT INTO cache_source VALUES (?1, ?2, ?3)")
                .bind_text(1, id->path)
                .bind_int(2, id->size)
                .bind_int(3, id->mtime_ns)
                .run();
            for (std::int64_t run : runs) {
                Statement(cache, "INSERT INTO run (id) VALUES (?1)").bind_int(1, run).run();
                build_summaries(source, cache, run, [&](std::int64_t n) {
                    done += n;
                    if (progress && !progress(done, total)) throw trace::Cancelled();
                });
            }
            cache.exec(("PRAGMA application_id = " + std::to_string(kCacheApplicationId) +
                        "; PRAGMA user_version = " + std::to_string(kSchemaVersion))
                           .c_str());
        });
    } catch (...) {
        std::filesystem::remove(building, ec);
        throw;
    }
    std::filesystem::rename(building, cache_path, ec);
    if (ec) {
        std::filesystem::remove(building, ec);
        throw StoreError(cache_path, "cannot keep the summary cache: " + ec.message());
    }
}

std::unique_ptr<Connection> open_summary_cache(const std::string& source_path,
                                               const std::string& cache_path) {
    std::error_code ec;
    if (!std::filesystem::exists(cache_path, ec)) return nullptr;
    const auto id = identity_of(source_path);
    if (!id) return nullptr;
    try {
        auto cache = std::make_unique<Connection>(cache_path, /*read_only=*/true);
        if (cache->query_int("PRAGMA application_id") != kCacheApplicationId ||
            cache->query_int("PRAGMA user_version") != kSchemaVersion)
            return nullptr;
        Statement st(*cache, "SELECT path, size, mtime_ns FROM cache_source");
        if (!st.step() || st.text(0) != id->path || st.int64(1) != id->size ||
            st.int64(2) != id->mtime_ns)
            return nullptr;
        return cache;
    } catch (const StoreError&) {
        return nullptr;  // a cache that cannot be read is rebuilt, never an error
    }
}

}  // namespace tokenscope::store::detail
