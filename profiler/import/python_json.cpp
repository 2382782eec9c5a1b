#include "python_json.h"

#include <string_view>
#include <utility>

#include "file_source.h"
#include "import_error.h"
#include "trace/memory_budget.h"

namespace tokenscope::import {

// One pass into a new string: replacing in place shifted the rest of the text
// at each word, quadratic in a file of many NaNs.
void null_non_finite(std::string& text) {
    if (text.find_first_of("NI") == std::string::npos) return;
    std::string out;
    out.reserve(text.size());
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            out += c;
            if (c == '\\' && i + 1 < text.size())
                out += text[++i];
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        bool replaced = false;
        for (std::string_view word : {"-Infinity", "Infinity", "NaN"}) {
            if (text.compare(i, word.size(), word) == 0) {
                out += "null";
                i += word.size() - 1;
                replaced = true;
                break;
            }
        }
        if (!replaced) out += c;
    }
    text = std::move(out);
}

nlohmann::json read_python_json(const std::string& path, const trace::ProgressFn& progress,
                                std::uint64_t max_text) {
    trace::MemoryBudget budget(path);
    FileSource source(path);
    auto check = [&](std::uint64_t text_bytes) {
        if (text_bytes > max_text)
            throw ImportError(path, "JSON document larger than " + trace::format_bytes(max_text) +
                                        "; it is read whole and refused beyond that");
        budget.require(text_bytes * kJsonWorkingSetFactor,
                       "a " + trace::format_bytes(text_bytes) + " JSON document");
    };
    // A plain file's size is known up front: refused before anything is read.
    if (!source.is_gzip()) check(static_cast<std::uint64_t>(source.file_size()));
    std::string text;
    for (std::string_view chunk = source.next_chunk(); !chunk.empty();
         chunk = source.next_chunk()) {
        check(text.size() + chunk.size());
        text.append(chunk);
        if (progress && !progress(source.file_consumed(), source.file_size()))
            throw trace::Cancelled();
    }
    return parse_python_json(path, std::move(text));
}

nlohmann::json parse_python_json(const std::string& path, std::string text) {
    null_non_finite(text);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        // parse_error, and out_of_range for a number beyond double (41e308; found by fuzzing).
        throw ImportError(path, std::string("invalid JSON: ") + e.what());
    }
}

}  // namespace tokenscope::import
