#include "gpu_decode.h"

#include <algorithm>
#include <exception>
#include <ostream>
#include <vector>

#include "cuda_decode_runner.h"
#include "kernels/decode_config.h"
#include "kernels/model_shape.h"

namespace tokenscope::kernels::cuda {
namespace {

struct DecodeOptions {
    ModelShape shape;
    DecodeConfig config;
    int repeats = 3;
    bool cuda_graphs = false;
};

std::string parse(std::span<const std::string> args, DecodeOptions& o) {
    o.shape = *find_model_preset("llama-1b");
    o.config.batch = 8;
    o.config.prompt_len = 512;
    o.config.new_tokens = 64;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--cuda-graphs") {
            o.cuda_graphs = true;
            continue;
        }
        if (i + 1 >= args.size()) return "option " + a + " needs a value (or is unknown)";
        const std::string& v = args[++i];
        try {
            if (a == "--model") {
                auto p = find_model_preset(v);
                if (!p) return "unknown model '" + v + "'";
                o.shape = *p;
            } else if (a == "--batch") {
                o.config.batch = std::stoll(v);
            } else if (a == "--prompt") {
                o.config.prompt_len = std::stoll(v);
            } else if (a == "--tokens") {
                o.config.new_tokens = std::stoll(v);
            } else if (a == "--repeats") {
                o.repeats = std::stoi(v);
                if (o.repeats < 1) return "--repeats must be at least 1";
            } else {
                return "unknown option " + a;
            }
        } catch (const std::exception&) {
            return "option " + a + ": '" + v + "' is not a number";
        }
    }
    return o.config.validate(o.shape);
}

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

struct RunFigures {
    double ttft_us = 0.0;
    double tpot_us = 0.0;
};

// Medians over requests: TTFT from the prefill's start, TPOT between first and last token.
RunFigures figures(const DecodeResult& r) {
    const std::int64_t arrival =
        r.iterations.empty() ? r.run_begin_ns : r.iterations.front().begin_ns;
    std::vector<double> ttft, tpot;
    for (const auto& e : r.emission_ns) {
        if (e.empty()) continue;
        ttft.push_back(static_cast<double>(e.front() - arrival) / 1e3);
        if (e.size() >= 2)
            tpot.push_back(static_cast<double>(e.back() - e.front()) /
                           static_cast<double>(e.size() - 1) / 1e3);
    }
    return {median(ttft), median(tpot)};
}

}  // namespace

int run_gpu_decode(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
    DecodeOptions o;
    if (auto e = parse(args, o); !e.empty()) {
        err << "tokenscope-gpu-decode: " << e << "\n";
        return 1;
    }
    if (CudaDecodeRunner::device_count() == 0) {
        err << "tokenscope-gpu-decode: no GPU\n";
        return 3;
    }
    try {
        CudaDecodeRunner runner(o.shape, o.config);
        runner.set_cuda_graphs(o.cuda_graphs);
        out << "gpu: " << CudaDecodeRunner::device_name(0) << "\n"
            << "model " << o.shape.name << " " << to_string(o.shape.dtype) << ", batch "
            << o.config.batch << ", prompt " << o.config.prompt_len << ", " << o.config.new_tokens
            << " tokens greedy" << (o.cuda_graphs ? ", decode as CUDA graphs" : ", eager launches")
            << "\n"
            << "kernels: " << runner.kernels_description() << "\n";
        runner.run();  // warm-up: module loading, library heuristics, clocks up
        std::vector<double> ttft, tpot;
        for (int i = 0; i < o.repeats; ++i) {
            const RunFigures f = figures(runner.run());
            out << "run " << i + 1 << ": ttft_us " << f.ttft_us << " tpot_us " << f.tpot_us << "\n";
            ttft.push_back(f.ttft_us);
            tpot.push_back(f.tpot_us);
        }
        out << "median ttft_us " << median(ttft) << "\n"
            << "median tpot_us " << median(tpot) << "\n";
        return 0;
    } catch (const std::exception& e) {
        err << "tokenscope-gpu-decode: " << e.what() << "\n";
        return 2;
    }
}

}  // namespace tokenscope::kernels::cuda
