#include "json_file.h"

#include <string_view>
#include <utility>

#include "file_source.h"
#include "import_error.h"
#include "trace/memory_budget.h"

namespace tokenscope::import {

std::string read_json_text(const std::string& path, const trace::ProgressFn& progress,
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
    // Whole where the budget lets FileSource inflate (or read) it in one piece: no
    // chunk is copied and the buffer already has simdjson's padding.
    if (source.take_whole(text, max_text)) {
        check(text.size());
    } else {
        for (std::string_view chunk = source.next_chunk(); !chunk.empty();
             chunk = source.next_chunk()) {
            check(text.size() + chunk.size());
            text.append(chunk);
            if (progress && !progress(source.file_consumed(), source.file_size()))
                throw trace::Cancelled();
        }
    }
    if (progress && !progress(source.file_size(), source.file_size())) throw trace::Cancelled();
    return text;
}

void throw_invalid_json(const std::string& path, const json::SyntaxError& e,
                        const std::string& where) {
    throw ImportError(path, where + "invalid JSON " + e.what());
}

json::Value parse_python_json(const std::string& path, json::Tree& tree, std::string text) {
    try {
        return tree.parse(std::move(text), {.python_non_finite = true});
    } catch (const json::SyntaxError& e) {
        throw_invalid_json(path, e);
    }
}

json::Value read_python_json(const std::string& path, json::Tree& tree,
                             const trace::ProgressFn& progress, std::uint64_t max_text) {
    return parse_python_json(path, tree, read_json_text(path, progress, max_text));
}

}  // namespace tokenscope::import
