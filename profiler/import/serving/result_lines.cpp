#include "result_lines.h"

#include <string_view>

#include "import/import_error.h"
#include "import/json_file.h"

namespace tokenscope::import::serving {
namespace {

constexpr json::Tree::Options kPython{.python_non_finite = true};

// The non-blank lines of a text that holds more than one JSON document.
std::vector<json::Value> parse_lines(const std::string& path, std::string_view text,
                                     std::deque<json::Tree>& trees) {
    std::vector<json::Value> docs;
    std::size_t from = 0, line = 0;
    while (from <= text.size()) {
        std::size_t nl = text.find('\n', from);
        if (nl == std::string_view::npos) nl = text.size();
        const std::string_view s = text.substr(from, nl - from);
        const std::size_t start = from;
        ++line;
        from = nl + 1;
        if (s.find_first_not_of(" \t\r") == std::string_view::npos) continue;
        const std::string where = "line " + std::to_string(line) + ": ";
        json::Value doc;
        try {
            doc = trees.emplace_back().parse_copy(s, kPython, start);
        } catch (const json::SyntaxError& e) {
            throw_invalid_json(path, e, where);
        }
        if (!doc.is_object())
            throw ImportError(path, "line " + std::to_string(line) +
                                        " is not a JSON object (a JSONL file of results holds "
                                        "one result per line)");
        docs.push_back(doc);
    }
    return docs;
}

}  // namespace

std::vector<json::Value> read_result_documents(const std::string& path,
                                               const trace::ProgressFn& progress,
                                               std::deque<json::Tree>& trees) {
    json::Tree& whole = trees.emplace_back();
    try {
        return {whole.parse(read_json_text(path, progress), kPython)};
    } catch (const json::SyntaxError& e) {
        // Several documents, one per line, fail as one document at the second line;
        // anything else keeps its first error.
        const std::string_view text = whole.text();
        const std::size_t first_nl = text.find('\n');
        if (first_nl == std::string_view::npos) throw_invalid_json(path, e);
        try {
            (void)trees.emplace_back().parse_copy(text.substr(0, first_nl), kPython);
        } catch (const json::SyntaxError&) {
            throw_invalid_json(path, e);
        }
        return parse_lines(path, text, trees);
    }
}

}  // namespace tokenscope::import::serving
