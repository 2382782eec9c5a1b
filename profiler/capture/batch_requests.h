#pragma once

#include <cstdint>

#include "kernels/decode_config.h"
#include "store/run_writer.h"
#include "trace/request.h"

namespace tokenscope::capture {

// The built-in workload's requests where the whole batch moves in lockstep (the
// model simulator and the cpu recorder): ids 1..batch, one arrival, one first
// token and one end for all, the configured prompt and output lengths.
inline void add_batch_requests(store::RunWriter& writer, const kernels::DecodeConfig& decode,
                               std::int64_t arrival_ns, std::int64_t first_token_ns,
                               std::int64_t done_ns) {
    for (std::int64_t r = 1; r <= decode.batch; ++r) {
        trace::Request req;
        req.id = r;
        req.arrival_ns = arrival_ns;
        req.first_token_ns = first_token_ns;
        req.done_ns = done_ns;
        req.input_len = static_cast<std::int32_t>(decode.prompt_len);
        req.output_len = static_cast<std::int32_t>(decode.new_tokens);
        writer.add_request(req);
    }
}

}  // namespace tokenscope::capture
