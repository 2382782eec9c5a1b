#include "kineto_importer.h"

#include <sys/stat.h>

#include <regex>
#include <stdexcept>

#include "import/import_error.h"
#include "kineto_builder.h"
#include "trace_reader.h"

namespace tokenscope::import {
namespace {

// "rank0.pt.trace.json.gz" -> "rank0.pt.trace".
std::string run_name(const std::string& path) {
    std::string name = path.substr(path.find_last_of('/') + 1);
    for (std::string_view ext : {".gz", ".json"})
        if (name.size() > ext.size() && name.ends_with(ext)) name.resize(name.size() - ext.size());
    return name;
}

std::int64_t file_mtime_ns(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return 0;
    return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

}  // namespace

bool KinetoImporter::accepts(std::string_view head) const {
    std::size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || head[first] != '{') return false;
    if (head.find("\"traceEvents\"") != std::string_view::npos) return true;
    // Kineto writes deviceProperties before traceEvents; with many GPUs the
    // events may start beyond the head.
    return head.find("\"schemaVersion\"") != std::string_view::npos &&
           head.find("\"deviceProperties\"") != std::string_view::npos;
}

trace::RunData KinetoImporter::import(const std::string& path, const ImportOptions& options,
                                      const trace::ProgressFn& progress) const {
    return import_with_launches(path, options, progress).run;
}

KinetoImport KinetoImporter::import_with_launches(const std::string& path,
                                                  const ImportOptions& options,
                                                  const trace::ProgressFn& progress) const {
    std::unique_ptr<kineto::KinetoBuilder> builder;
    try {
        builder = std::make_unique<kineto::KinetoBuilder>(options.step_pattern);
    } catch (const std::regex_error& e) {
        throw ImportError(path, "invalid step pattern '" + options.step_pattern + "': " + e.what());
    }
    kineto::TraceReader reader(path, progress, options.slice_bytes, options.window_bytes,
                               options.inflate_alongside);
    try {
        reader.read(*builder);
    } catch (const std::length_error& e) {
        throw ImportError(path, e.what());
    }
    KinetoImport out;
    out.stats = {builder->events(), builder->flow_events(), 0};
    out.run = builder->finish(&out.launches);
    out.stats.flows_bound = builder->flows_bound();
    out.stats.windows = reader.windows();
    out.stats.inflated_alongside = reader.inflated_alongside();
    out.run.info.name = run_name(path);
    out.run.info.created_ns = file_mtime_ns(path);
    return out;
}

}  // namespace tokenscope::import
