#include "result_files.h"

#include <algorithm>
#include <filesystem>

#include "import/client/client_importer.h"
#include "import/file_source.h"
#include "import/import_error.h"
#include "serving_importer.h"

namespace tokenscope::import::serving {
namespace {

namespace fs = std::filesystem;

bool has_result_extension(const std::string& name) {
    for (const char* ext : {".json", ".jsonl", ".json.gz", ".jsonl.gz"})
        if (name.ends_with(ext)) return true;
    return false;
}

bool exists_beside(const fs::path& file, const std::string& name) {
    std::error_code ec;
    return fs::is_regular_file(file.parent_path() / name, ec);
}

// A summary the importer of the records beside it reads (client/tool_figures.h).
bool summary_beside_records(const fs::path& file) {
    const std::string name = file.filename().string();
    for (const auto& [suffix, records] :
         {std::pair<std::string, std::string>{"_aiperf.json", ".jsonl"},
          {"_genai_perf.json", ".json"}})
        if (name.ends_with(suffix) &&
            exists_beside(file, name.substr(0, name.size() - suffix.size()) + records))
            return true;
    for (const char* records : {"individual_responses", "individual"})
        if (auto at = name.find("summary"); at != std::string::npos) {
            std::string other = name;
            if (exists_beside(file, other.replace(at, 7, records))) return true;
        }
    return false;
}

bool is_result(const fs::path& file) {
    try {
        FileSource source(file.string());
        std::string_view head = source.head(64 * 1024);
        return ClientImporter::detect(head) != ClientImporter::Kind::None ||
               ServingImporter().accepts(head);
    } catch (const ImportError&) {
        return false;  // empty or unreadable: not a result
    }
}

std::vector<std::string> results_under(const std::string& dir) {
    std::vector<std::string> found;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec) || !has_result_extension(it->path().filename().string()))
            continue;
        if (it->path().parent_path().filename() == "aggregate") continue;  // AIPerf's
        if (!summary_beside_records(it->path()) && is_result(it->path()))
            found.push_back(it->path().string());
    }
    if (ec) throw ImportError(dir, "cannot read the folder: " + ec.message());
    std::sort(found.begin(), found.end());
    if (found.empty())
        throw ImportError(dir,
                          "no serving-benchmark or load-generator result in the folder (vLLM, "
                          "SGLang, guidellm, AIPerf, GenAI-Perf or LLMPerf JSON)");
    return found;
}

}  // namespace

std::vector<std::string> result_files(const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const auto& p : paths) {
        std::error_code ec;
        if (!fs::is_directory(p, ec)) {
            out.push_back(p);
            continue;
        }
        auto found = results_under(p);
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

}  // namespace tokenscope::import::serving
