#include "result_lines.h"

#include <string_view>

#include "import/file_source.h"
#include "import/import_error.h"
#include "import/python_json.h"

namespace tokenscope::import::serving {
namespace {

// The non-blank lines of a text that holds more than one JSON document.
std::vector<nlohmann::json> parse_lines(const std::string& path, const std::string& text) {
    std::vector<nlohmann::json> docs;
    std::size_t from = 0, line = 0;
    while (from <= text.size()) {
        std::size_t nl = text.find('\n', from);
        if (nl == std::string::npos) nl = text.size();
        std::string_view s(text.data() + from, nl - from);
        ++line;
        from = nl + 1;
        if (s.find_first_not_of(" \t\r") == std::string_view::npos) continue;
        nlohmann::json doc = nlohmann::json::parse(s, nullptr, false);
        if (doc.is_discarded() || !doc.is_object())
            throw ImportError(path, "line " + std::to_string(line) +
                                        " is not a JSON object (a JSONL file of results holds "
                                        "one result per line)");
        docs.push_back(std::move(doc));
    }
    return docs;
}

}  // namespace

std::vector<nlohmann::json> read_result_documents(const std::string& path,
                                                  const trace::ProgressFn& progress) {
    std::vector<nlohmann::json> docs;
    try {
        docs.push_back(read_python_json(path, progress));
        return docs;
    } catch (const ImportError& whole) {
        // Several documents, one per line, fail as one document at the second line;
        // anything else keeps its first error.
        if (std::string_view(whole.what()).find("invalid JSON") == std::string_view::npos) throw;
        // read_python_json's size checks passed: the text again, as lines.
        std::string text = FileSource(path).read_all();
        null_non_finite(text);
        std::size_t first_nl = text.find('\n');
        if (first_nl == std::string::npos ||
            nlohmann::json::parse(std::string_view(text).substr(0, first_nl), nullptr, false)
                .is_discarded())
            throw;
        return parse_lines(path, text);
    }
}

}  // namespace tokenscope::import::serving
