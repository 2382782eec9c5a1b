#include <iostream>
#include <sstream>

#include "analysis/metrics/metrics.h"
#include "arg_parser.h"
#include "breakdown_report.h"
#include "capture/backend_registry.h"
#include "capture/capture_config.h"
#include "capture/gpu_presets.h"
#include "commands.h"
#include "input_runs.h"
#include "kernels/model_shape.h"
#include "stats_report.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "trace/run_info.h"

namespace tokenscope::cli {
namespace {

std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
}

// Without --preset each backend runs its own default shape, and says which.
std::string preset_of(const ArgParser& p, const capture::Backend& backend) {
    if (p.has("preset")) return p.get("preset");
    std::string preset(backend.default_preset());
    std::cerr << "tokenscope-cli run: preset " << preset << " (the " << backend.name()
              << " backend's default; --preset to choose)\n";
    return preset;
}

capture::CaptureConfig config_from(const ArgParser& p, const capture::Backend& backend) {
    capture::CaptureConfig c;
    c.gpu = p.get("gpu");
    if (!capture::find_gpu_preset(c.gpu))
        throw UsageError{"run: unknown GPU preset '" + c.gpu +
                         "' (known: " + join(capture::gpu_preset_names()) + ")"};
    c.model = preset_of(p, backend);
    if (!kernels::find_model_preset(c.model))
        throw UsageError{"run: unknown workload preset '" + c.model +
                         "' (known: " + join(kernels::model_preset_names()) + ")"};
    auto strategy = kernels::strategy_from_string(p.get("strategy"));
    if (!strategy)
        throw UsageError{"run: unknown strategy '" + p.get("strategy") +
                         "' (greedy, topk, beam, speculative)"};
    auto& d = c.decode;
    d.strategy = *strategy;
    d.batch = p.get_int("batch");
    d.prompt_len = p.get_int("prompt");
    d.new_tokens = p.get_int("tokens");
    d.top_k = p.get_int("top-k");
    d.beams = p.get_int("beams");
    d.draft_layers = p.get_int("draft-layers");
    d.gamma = p.get_int("gamma");
    d.acceptance = p.get_double("acceptance");
    d.seed = static_cast<std::uint64_t>(p.get_int("seed"));
    if (std::string problem = d.validate(*kernels::find_model_preset(c.model)); !problem.empty())
        throw UsageError{"run: " + problem};
    c.run_name = p.get("name");
    c.pm_sampling = p.has("pm-sampling");
    c.cuda_graphs = p.has("cuda-graphs");
    if (c.cuda_graphs && backend.name() != "cuda")
        throw UsageError{"run: --cuda-graphs needs --backend cuda (the " +
                         std::string(backend.name()) + " backend launches no CUDA kernels)"};
    if (std::string why = backend.refusal(c); !why.empty()) throw UsageError{"run: " + why};
    return c;
}

void report(const std::string& path, std::int64_t run_id) {
    store::StoreReader reader(path);
    LoadedRun run{path, reader.load_run(run_id)};
    print_stats(std::cout, run, analysis::compute_metrics(run.data), false);
    print_breakdown(std::cout, run, compute_breakdown(run.data), false);
}

// 0.7 as 0.7, not std::to_string's 0.700000.
std::string number_text(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

}  // namespace

int cmd_run(const std::vector<std::string>& args) {
    const capture::CaptureConfig defaults = capture::run_defaults();
    const kernels::DecodeConfig& d = defaults.decode;
    ArgParser p("run", "--out FILE [options]",
                "Makes a decode run of the built-in Llama-style workload and stores it as a new "
                "run in FILE. Backend 'model' is a cost model on a GPU preset (kernel time = "
                "max(FLOPs / peak, bytes / bandwidth) + launch overhead, seeded jitter): it is "
                "labelled a model everywhere and never shown as a measurement.");
    p.option("backend", "NAME", "capture backend: " + join(capture::backend_names()),
             capture::kDefaultBackend);
    p.option("gpu", "PRESET", "GPU preset: " + join(capture::gpu_preset_names()), defaults.gpu);
    p.option("preset", "SHAPE",
             "workload shape: " + join(kernels::model_preset_names()) +
                 " (default: the backend's own, " + defaults.model + "; tiny for cpu)");
    p.option("batch", "N", "requests decoded together", std::to_string(d.batch));
    p.option("prompt", "N", "prompt length in tokens", std::to_string(d.prompt_len));
    p.option("tokens", "N", "new tokens per request (the first comes from prefill)",
             std::to_string(d.new_tokens));
    p.option("strategy", "S", "greedy, topk, beam or speculative",
             std::string(kernels::to_string(d.strategy)));
    p.option("top-k", "K", "top-k sampling: k", std::to_string(d.top_k));
    p.option("beams", "K", "beam search: beams", std::to_string(d.beams));
    p.option("draft-layers", "N", "speculative decoding: layers of the draft model",
             std::to_string(d.draft_layers));
    p.option("gamma", "N", "speculative decoding: tokens proposed per iteration",
             std::to_string(d.gamma));
    p.option("acceptance", "P", "speculative decoding: modelled acceptance rate",
             number_text(d.acceptance));
    p.option("seed", "N", "seed of the jitter model", std::to_string(d.seed));
    p.option("name", "TEXT", "run name (default: describes workload and GPU)");
    p.option("out", "FILE", "the .tokenscope file to add the run to");
    p.option("progress", "MODE", "auto, bar, json (JSON lines on stdout) or none", "auto");
    p.flag("quiet", "do not print the report after the run");
    p.flag("pm-sampling",
           "cuda backend: also sample PCIe/NVLink bytes with CUPTI PM sampling (needs "
           "profiling privileges)");
    p.flag("cuda-graphs",
           "cuda backend: launch each decode iteration as a CUDA graph (stream capture, one "
           "cudaGraphLaunch per iteration; prefill stays eager), as serving engines do");
    if (!parse_or_help(p, args)) return kExitOk;
    if (!p.has("out")) throw UsageError{"run: --out FILE is required"};
    auto backend = capture::make_backend(p.get("backend"));
    if (!backend)
        throw UsageError{"run: unknown backend '" + p.get("backend") +
                         "' (known: " + join(capture::backend_names()) + ")"};
    if (auto a = backend->available(); !a.ok) {
        std::cerr << "tokenscope-cli run: " << a.reason << '\n';
        return kExitNoGpu;
    }
    capture::CaptureConfig config = config_from(p, *backend);
    const std::string out = p.get("out");
    auto mode = TerminalProgress::parse_mode(p.get("progress"));
    store::StoreWriter store(out);
    trace::RunInfo info;
    info.name = config.run_name;
    // The backend's own label from the first commit: a capture killed before the
    // backend names its run must not read as the default (a model run).
    if (auto source = trace::source_from_string(backend->name())) info.source = *source;
    auto writer = store.begin_run(info);
    {
        TerminalProgress bar("decoding", mode);
        backend->run(config, *writer, bar.callback());
    }
    std::int64_t run_id = writer->run_id();
    writer.reset();
    attribute_written_runs(out, {run_id}, mode);
    if (mode == TerminalProgress::Mode::Json)
        std::cout << "{\"done\":{\"file\":" << nlohmann::json(out).dump()
                  << ",\"run_id\":" << run_id << "}}" << std::endl;
    if (!p.has("quiet") && mode != TerminalProgress::Mode::Json) report(out, run_id);
    return kExitOk;
}

}  // namespace tokenscope::cli
