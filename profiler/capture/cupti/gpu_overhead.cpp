#include "gpu_overhead.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>
#include <stdexcept>

#include "cuda_runner.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "token_steps.h"

namespace tokenscope::capture::cupti {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitNoGpu = 3;  // as tokenscope-cli's

struct Options {
    CaptureConfig config;
    int repeats = 5;
    std::string out;
};

Options parse(const std::vector<std::string>& args) {
    Options o;
    o.config.model = "tiny";
    o.out = "/tmp/tokenscope-gpu-overhead-" + std::to_string(getpid()) + ".tokenscope";
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--cuda-graphs") {
            o.config.cuda_graphs = true;
            continue;
        }
        if (i + 1 >= args.size()) throw std::invalid_argument("missing value after " + args[i]);
        const std::string& key = args[i];
        const std::string& value = args[++i];
        if (key == "--model") {
            o.config.model = value;
        } else if (key == "--out") {
            o.out = value;
        } else if (key == "--tokens" || key == "--batch" || key == "--repeats" ||
                   key == "--prompt") {
            const long n = std::stol(value);
            if (n < 1) throw std::invalid_argument(key + " must be at least 1");
            if (key == "--tokens") o.config.decode.new_tokens = n;
            if (key == "--batch") o.config.decode.batch = n;
            if (key == "--prompt") o.config.decode.prompt_len = n;
            if (key == "--repeats") o.repeats = static_cast<int>(n);
        } else {
            throw std::invalid_argument("unknown option " + key);
        }
    }
    return o;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

// Emission times back from the traced run's steps: a step ends at its token's emission.
double traced_tpot_ns(CudaBackend& backend, const Options& o) {
    std::int64_t run_id = 0;
    {
        store::StoreWriter store(o.out);
        auto writer = store.begin_run({});
        backend.run(o.config, *writer, {});
        run_id = writer->run_id();
    }
    store::StoreReader reader(o.out);
    std::map<std::int64_t, std::vector<std::int64_t>> by_request;
    reader.for_each_step(run_id, std::nullopt,
                         [&](const trace::Step& s) { by_request[s.request].push_back(s.end_ns); });
    std::vector<std::vector<std::int64_t>> emissions;
    for (auto& [request, ends] : by_request) emissions.push_back(std::move(ends));
    return median_tpot_ns(emissions);
}

}  // namespace

int gpu_overhead_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                      CudaBackend::ProbeFn probe) {
    Options o;
    try {
        o = parse(args);
    } catch (const std::exception& e) {
        err << "tokenscope-gpu-overhead: " << e.what() << '\n';
        return kExitUsage;
    }
    install_cuda_runner();
    CudaBackend backend(std::move(probe));
    if (const auto a = backend.available(); !a.ok) {
        err << "tokenscope-gpu-overhead: no GPU: " << a.reason << '\n';
        return kExitNoGpu;
    }
    try {
        run_untraced_workload(o.config);  // warm-up: module loading, clocks up
        std::vector<double> plain;
        std::vector<double> traced;
        // Alternating keeps clock and thermal drift out of the ratio.
        for (int i = 0; i < o.repeats; ++i) {
            plain.push_back(median_tpot_ns(run_untraced_workload(o.config)));
            traced.push_back(traced_tpot_ns(backend, o));
        }
        const double p = median(plain);
        const double t = median(traced);
        out << "model " << o.config.model << ", batch " << o.config.decode.batch << ", prompt "
            << o.config.decode.prompt_len << ", " << o.config.decode.new_tokens << " tokens"
            << (o.config.cuda_graphs ? ", decode as CUDA graphs" : "") << ", " << o.repeats
            << " runs each (traced runs in " << o.out << ")\n"
            << "median TPOT untraced_us " << p / 1e3 << "\n"
            << "median TPOT traced_us " << t / 1e3 << "\n"
            << "tpot_overhead_ratio " << (p > 0 ? t / p : 0.0) << '\n';
        return kExitOk;
    } catch (const std::exception& e) {
        err << "tokenscope-gpu-overhead: " << e.what() << '\n';
        return kExitFailed;
    }
}

}  // namespace tokenscope::capture::cupti
