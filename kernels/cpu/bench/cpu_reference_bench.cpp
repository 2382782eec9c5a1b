// Speed of the fp32 CPU reference: the "tiny" preset decoding 64 tokens at batch 2
// must take well under a second on one core. Prints medians of repeated runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "kernels/cpu/reference_decoder.h"

namespace {

using namespace tokenscope::kernels;
using Clock = std::chrono::steady_clock;

struct Timing {
    double prefill_ms = 0.0;
    double decode_ms = 0.0;
    double flops = 0.0;
};

Timing run_once(const cpu::ModelWeights& weights, const DecodeConfig& config) {
    cpu::ReferenceDecoder decoder(weights, config);
    Timing t;
    while (!decoder.done()) {
        const auto start = Clock::now();
        const auto r = decoder.step();
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        (r.prefill ? t.prefill_ms : t.decode_ms) += ms;
        for (const auto& k : decoder.last_kernels()) t.flops += static_cast<double>(k.flops);
    }
    return t;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void bench(const char* label, const DecodeConfig& config, int repeats) {
    const auto shape = *find_model_preset("tiny");
    const cpu::ModelWeights weights(shape, config.seed);
    std::vector<double> prefill, decode, total, gflops;
    for (int i = 0; i < repeats; ++i) {
        const Timing t = run_once(weights, config);
        prefill.push_back(t.prefill_ms);
        decode.push_back(t.decode_ms);
        total.push_back(t.prefill_ms + t.decode_ms);
        gflops.push_back(t.flops / ((t.prefill_ms + t.decode_ms) * 1e6));
    }
    const double per_token = median(decode) / static_cast<double>(config.new_tokens - 1);
    std::printf(
        "%-34s total %8.1f ms  prefill %7.1f ms  decode %7.1f ms (%.2f ms/iter)  %.2f GFLOP/s\n",
        label, median(total), median(prefill), median(decode), per_token, median(gflops));
}

}  // namespace

int main() {
    std::printf("cpu reference, preset tiny, medians of 5 runs (one thread)\n");
    DecodeConfig c;
    c.batch = 2;
    c.new_tokens = 64;
    c.prompt_len = 16;
    bench("greedy batch 2, prompt 16, 64 tok", c, 5);
    c.prompt_len = 128;
    bench("greedy batch 2, prompt 128, 64 tok", c, 5);
    c.prompt_len = 512;
    bench("greedy batch 2, prompt 512, 64 tok", c, 5);
    c.prompt_len = 128;
    c.strategy = Strategy::Beam;
    c.beams = 4;
    bench("beam 4, batch 2, prompt 128, 64 tok", c, 5);
    c.strategy = Strategy::Speculative;
    c.draft_layers = 1;
    bench("spec g4 d1, batch 2, prompt 128", c, 5);
    return 0;
}
