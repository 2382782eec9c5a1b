#include "importer_registry.h"

#include "file_source.h"
#include "import_error.h"
#include "nsys/nsys_importer.h"

// The JSON importers live in folders another module fills in; the registry
// builds with or without them.
#if __has_include("import/kineto/kineto_importer.h")
#include "import/kineto/kineto_importer.h"
#define TOKENSCOPE_HAVE_KINETO 1
#endif
#if __has_include("import/client/client_importer.h")
#include "import/client/client_importer.h"
#define TOKENSCOPE_HAVE_CLIENT 1
#endif
#if __has_include("import/serving/serving_importer.h")
#include "import/serving/serving_importer.h"
#define TOKENSCOPE_HAVE_SERVING 1
#endif

namespace tokenscope::import {

// The JSON importers may sit in tokenscope::import or a sub-namespace named
// after their folder; these directives find them either way.
namespace kineto {}
namespace serving {}

void ImporterRegistry::register_importer(std::unique_ptr<Importer> importer) {
    if (importer) importers_.push_back(std::move(importer));
}

const Importer* ImporterRegistry::find(std::string_view format) const {
    for (const auto& i : importers_)
        if (i->format() == format) return i.get();
    return nullptr;
}

const Importer* ImporterRegistry::pick(const std::string& path, std::string_view head) const {
    for (const auto& i : importers_)
        if (i->accepts(head) && i->accepts_file(path, head)) return i.get();
    return nullptr;
}

const Importer& ImporterRegistry::pick(const std::string& path) const {
    FileSource source(path);
    std::string_view head = source.head(kHeadBytes);
    if (const Importer* importer = pick(path, head)) return *importer;
    std::string problem =
        "not a recognised trace format (expected Tokenscope, Nsight Systems SQLite, Kineto JSON "
        "serving-benchmark JSON or client benchmark results: AIPerf, GenAI-Perf, guidellm, "
        "LLMPerf)";
    if (head.starts_with(std::string_view("SQLite format 3\0", 16)))
        problem += "; it is an SQLite database without Nsight Systems or Tokenscope tables";
    throw ImportError(path, problem);
}

trace::RunData ImporterRegistry::import(const std::string& path, const ImportOptions& options,
                                        const trace::ProgressFn& progress) const {
    return pick(path).import(path, options, progress);
}

std::vector<std::string_view> ImporterRegistry::formats() const {
    std::vector<std::string_view> names;
    for (const auto& i : importers_) names.push_back(i->format());
    return names;
}

ImporterRegistry& default_registry() {
    static ImporterRegistry registry = [] {
        using namespace kineto;   // NOLINT: see the namespace note above
        using namespace serving;  // NOLINT
        ImporterRegistry r;
        r.register_importer(std::make_unique<NsysImporter>());
#ifdef TOKENSCOPE_HAVE_CLIENT
        // Its detection is specific and steps aside for Kineto and vLLM bench files.
        r.register_importer(std::make_unique<ClientImporter>());
#endif
#ifdef TOKENSCOPE_HAVE_KINETO
        r.register_importer(std::make_unique<KinetoImporter>());
#endif
#ifdef TOKENSCOPE_HAVE_SERVING
        r.register_importer(std::make_unique<ServingImporter>());
#endif
        return r;
    }();
    return registry;
}

}  // namespace tokenscope::import
