#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "trace/progress.h"
#include "trace/run_data.h"

namespace tokenscope::import {

struct ImportOptions {
    // Steps come from ranges whose name matches this ECMAScript regex (NVTX
    // ranges, user annotations); empty: the iteration presets of step_presets.h,
    // the first that matches (vLLM, TensorRT-LLM, SGLang, ProfilerStep#N, generic).
    std::string step_pattern;
    // Kineto: read the traceEvents array in slices of about this many bytes even when
    // the trace fits the memory budget whole (tests and fuzzing reach the slicing this
    // way); 0: whole when it fits, else slices sized by the budget.
    std::size_t slice_bytes = 0;
    // Kineto: parse a trace read whole in windows of about this many bytes (tests reach
    // the windows' edges with small ones); 0: kineto::TraceReader::kWindowBytes.
    std::size_t window_bytes = 0;
    // Kineto: a gzipped trace read whole is inflated by zlib on a second thread while
    // its windows are parsed, where two cores allow; false: by libdeflate first.
    bool inflate_alongside = true;
    // false: a .tokenscope run that stores its activity totals is read without its
    // activities (trace::RunData::in_file), for a command that needs only those totals;
    // foreign files and other runs are read whole all the same.
    bool read_activities = true;
    // > 0: a .tokenscope run storing its activity totals is read without its activities
    // when it holds at least this many, even with read_activities (the GUI's large runs:
    // their timeline reads what it shows from the file, DESIGN.md section 17).
    std::int64_t leave_activities_from = 0;
};

// One importer per foreign format (Perfetto's layout: one folder per format
// behind one interface). Chosen by content, never by file extension.
class Importer {
  public:
    virtual ~Importer() = default;
    virtual std::string_view format() const = 0;  // "nsys", "kineto", "bench"
    // Decides from the first bytes of the file (already un-gzipped when the file is gzip).
    virtual bool accepts(std::string_view head) const = 0;
    // A deeper check that may open the file (an SQLite head alone does not say
    // which application wrote it). Defaults to accepts(head).
    virtual bool accepts_file(const std::string& path, std::string_view head) const {
        (void)path;
        return accepts(head);
    }
    // Throws ImportError naming the file and the problem; trace::Cancelled on cancel.
    // Problems that do not stop the import become diagnostics of the run.
    virtual trace::RunData import(const std::string& path, const ImportOptions& options,
                                  const trace::ProgressFn& progress) const = 0;
    // Every run of a file that holds several results (one per load level: an SGLang
    // bench_serving JSONL, a guidellm report of several benchmarks); one run for the others.
    // open_any reads files this way.
    virtual std::vector<trace::RunData> import_all(const std::string& path,
                                                   const ImportOptions& options,
                                                   const trace::ProgressFn& progress) const {
        std::vector<trace::RunData> runs;
        runs.push_back(import(path, options, progress));
        return runs;
    }
};

}  // namespace tokenscope::import
