#include "workload_json.h"

#include <unistd.h>

#include <chrono>

namespace tokenscope::capture {

std::string host_name() {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
    return buf;
}

std::int64_t wall_clock_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

nlohmann::json shape_json(const kernels::ModelShape& s) {
    return {{"name", s.name},   {"layers", s.layers},     {"hidden", s.hidden},
            {"heads", s.heads}, {"kv_heads", s.kv_heads}, {"head_dim", s.head_dim},
            {"ffn", s.ffn},     {"vocab", s.vocab},       {"dtype", kernels::to_string(s.dtype)}};
}

nlohmann::json decode_json(const kernels::DecodeConfig& d) {
    nlohmann::json j = {{"batch", d.batch},
                        {"prompt_len", d.prompt_len},
                        {"new_tokens", d.new_tokens},
                        {"strategy", kernels::to_string(d.strategy)},
                        {"seed", d.seed}};
    switch (d.strategy) {
        case kernels::Strategy::TopK:
            j["top_k"] = d.top_k;
            break;
        case kernels::Strategy::Beam:
            j["beams"] = d.beams;
            break;
        case kernels::Strategy::Speculative:
            j["draft_layers"] = d.draft_layers;
            j["gamma"] = d.gamma;
            break;
        case kernels::Strategy::Greedy:
            break;
    }
    return j;
}

}  // namespace tokenscope::capture
