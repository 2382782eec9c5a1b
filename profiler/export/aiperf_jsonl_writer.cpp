#include "aiperf_jsonl_writer.h"

#include <algorithm>
#include <fstream>
#include <ostream>
#include <random>
#include <unordered_map>
#include <vector>

#include "export_error.h"

namespace tokenscope::exporter {
namespace {

struct Token {
    std::int32_t index;
    std::int64_t end_ns;
};

void metric(std::string& line, const char* tag, std::int64_t value, const char* unit) {
    line += '"';
    line += tag;
    line += "\":{\"value\":" + std::to_string(value) + ",\"unit\":\"" + unit + "\"}";
}

}  // namespace

void AiperfJsonlWriter::write(std::ostream& out, const trace::ProgressFn& progress) const {
    std::unordered_map<std::int64_t, std::vector<Token>> tokens;
    for (const auto& s : run_.steps)
        if (!s.is_iteration() && s.request != 0) tokens[s.request].push_back({s.index, s.end_ns});
    std::vector<const trace::Request*> requests;
    for (const auto& r : run_.requests) requests.push_back(&r);
    std::sort(requests.begin(), requests.end(),
              [](const trace::Request* a, const trace::Request* b) { return a->id < b->id; });
    std::mt19937_64 rng(view_.seed);
    std::uniform_int_distribution<std::int64_t> hop(0,
                                                    std::max<std::int64_t>(0, view_.jitter_ns - 1));
    const std::int64_t shift = view_.shift_ns + view_.clock_offset_ns;
    std::string line;
    std::int64_t done = 0;
    for (const trace::Request* r : requests) {
        auto it = tokens.find(r->id);
        if (!r->failed && it == tokens.end()) continue;  // nothing the client would have seen
        const std::int64_t start = r->arrival_ns + shift;
        line = "{\"metadata\":{\"session_num\":" + std::to_string(done) +
               ",\"x_request_id\":\"request-" + std::to_string(r->id) +
               "\",\"benchmark_phase\":\"profiling\",\"request_start_ns\":" + std::to_string(start);
        if (r->failed || it == tokens.end()) {
            line += ",\"request_end_ns\":" + std::to_string(r->done_ns + shift) +
                    ",\"was_cancelled\":false},\"metrics\":{},\"error\":{\"code\":500,\"type\":"
                    "\"RequestFailed\",\"message\":\"the run marks this request failed\"}}\n";
        } else {
            auto& list = it->second;
            std::sort(list.begin(), list.end(),
                      [](const Token& a, const Token& b) { return a.index < b.index; });
            std::vector<std::int64_t> seen;
            seen.reserve(list.size());
            for (const Token& t : list) {
                const std::int64_t at = t.end_ns + shift + (view_.jitter_ns > 0 ? hop(rng) : 0);
                seen.push_back(std::max(at, seen.empty() ? start : seen.back()));
            }
            line += ",\"request_end_ns\":" + std::to_string(seen.back()) +
                    ",\"was_cancelled\":false},\"metrics\":{";
            metric(line, "input_sequence_length", r->input_len, "tokens");
            line += ',';
            metric(line, "output_sequence_length", static_cast<std::int64_t>(seen.size()),
                   "tokens");
            line += ',';
            metric(line, "time_to_first_token", seen.front() - start, "ns");
            line += ',';
            metric(line, "request_latency", seen.back() - start, "ns");
            line += ",\"inter_chunk_latency\":{\"value\":[";
            for (std::size_t k = 1; k < seen.size(); ++k) {
                if (k > 1) line += ',';
                line += std::to_string(seen[k] - seen[k - 1]);
            }
            line += "],\"unit\":\"ns\"}},\"error\":null}\n";
        }
        out.write(line.data(), static_cast<std::streamsize>(line.size()));
        ++done;
        if (progress && (done & 0xFF) == 0 &&
            !progress(done, static_cast<std::int64_t>(requests.size())))
            throw trace::Cancelled();
    }
    out.flush();
}

void AiperfJsonlWriter::write_file(const std::string& path,
                                   const trace::ProgressFn& progress) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw ExportError(path, "cannot create the client results file");
    write(out, progress);
    if (!out) throw ExportError(path, "write error (disk full?)");
}

}  // namespace tokenscope::exporter
