#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "trace/progress.h"
#include "trace/run_data.h"

namespace tokenscope::exporter {

// How the client saw the run: its clock and the hop from an iteration's end to the
// moment the client got the token.
struct ClientView {
    std::int64_t shift_ns = 0;         // added to the run's times (see unix_time_shift)
    std::int64_t clock_offset_ns = 0;  // the client's clock runs this far ahead of the server's
    std::int64_t jitter_ns = 0;        // each token is seen U[0, jitter) after its iteration
    std::uint64_t seed = 1;
};

// Writes a decode run's requests as AIPerf's per-record export (profile_export.jsonl),
// one MetricRecordInfo per line in the layout of ai-dynamo/aiperf's record_models.py:
// metadata.request_start_ns / request_end_ns (epoch ns), metrics.time_to_first_token,
// inter_chunk_latency (one per later token), request_latency, input/output_sequence_
// length, in integer ns so the importer rebuilds every emission to the nanosecond.
// Failed requests get an error object. Requests in id order; a request's tokens in
// index order, each at its step's end + shift + clock offset + jitter (never before the
// previous token). Streams; throws ExportError naming the file when it cannot be written,
// trace::Cancelled when progress returns false.
class AiperfJsonlWriter {
  public:
    AiperfJsonlWriter(const trace::RunData& run, const ClientView& view) : run_(run), view_(view) {}

    void write(std::ostream& out, const trace::ProgressFn& progress = {}) const;
    void write_file(const std::string& path, const trace::ProgressFn& progress = {}) const;

  private:
    const trace::RunData& run_;
    ClientView view_;
};

}  // namespace tokenscope::exporter
