#pragma once

#include <string>
#include <vector>

namespace tokenscope::import::serving {

// The result files a sweep reads from its arguments: a file as given; a directory
// searched recursively, in path order, for the files a serving benchmark or load
// generator writes (vLLM, SGLang, guidellm, AIPerf, GenAI-Perf, LLMPerf results, told
// apart by content), leaving out the other files (inputs.json, CSV exports, AIPerf's
// aggregate/) and the summaries that sit beside per-request records (LLMPerf's
// *_summary.json, profile_export_aiperf.json, profile_export_genai_perf.json): the
// records' importer reads those. Throws ImportError for a directory without results.
std::vector<std::string> result_files(const std::vector<std::string>& paths);

}  // namespace tokenscope::import::serving
