#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "arg_parser.h"
#include "capture/backend_registry.h"
#include "capture/memory_run_writer.h"
#include "capture/model/model_workload.h"
#include "capture/serving/serving_workload.h"
#include "capture/sweep/sweep_grid.h"
#include "capture/sweep/sweep_point.h"
#include "capture/workload_json.h"
#include "commands.h"
#include "input_runs.h"
#include "store/store_writer.h"
#include "store/sweep_store.h"
#include "sweep_progress.h"

namespace tokenscope::cli {
namespace {

// Parameters whose value is one item even with commas in it.
const std::set<std::string> kNotAxes = {"tenants"};

ArgParser make_parser() {
    ArgParser p("sweep", "--out FILE [--AXIS VALUES]... [options]",
                "Runs every point of a grid, W warm-up runs (discarded) and R counted runs per "
                "point, and stores each counted run with the sweep table in FILE. VALUES is a "
                "list of items separated by commas, each a value or a range FROM:TO:xFACTOR or "
                "FROM:TO:+STEP (e.g. --batch 1,8,32 --prompt 128:4096:x2 --qps 1:40:+2). Giving "
                "qps, arrival or concurrency runs the serving model (continuous batching over "
                "the cost model): a model, labelled so, whatever --backend says. Ctrl-C keeps "
                "every finished run; --resume continues the file's last sweep.");
    p.option("out", "FILE", "the .tokenscope file to add the sweep to");
    p.option("backend", "NAME", "decode points: model, cpu or cuda", capture::kDefaultBackend);
    p.option("warmup", "W", "warm-up runs per point, discarded", "2");
    p.option("repeats", "R", "counted runs per point", "5");
    p.option("name", "TEXT", "sweep name (default: its axes)");
    p.option("progress", "MODE", "auto, bar, json (JSON lines on stdout) or none", "auto");
    p.flag("resume", "continue the last sweep of FILE: only (point, repeat) pairs not yet stored");
    p.option("preset", "SHAPES", "workload shapes (llama-1b, llama-8b, llama-70b, tiny)");
    p.option("gpu", "PRESETS", "GPU presets (H100-SXM5, H200, A100-80GB, L40S)");
    p.option("batch", "N", "decode: requests decoded together");
    p.option("prompt", "N", "prompt length in tokens");
    p.option("tokens", "N", "new tokens per request");
    p.option("strategy", "S", "greedy, topk[:K], beam[:K], speculative[:DRAFT_LAYERS[:GAMMA]]");
    p.option("acceptance", "P", "speculative decoding: modelled acceptance rate");
    p.option("seed", "N", "base seed (repeat r uses seed + r)", "1");
    p.option("qps", "RATE", "serving: Poisson arrival rate, requests/s");
    p.option("arrival", "A", "serving: poisson:RATE, gamma:RATE:BURSTINESS or closed:CONCURRENCY");
    p.option("concurrency", "N", "serving: closed loop with N requests in flight");
    p.option("burstiness", "B", "serving: gamma arrivals with this burstiness (1 = Poisson)");
    p.option("max-num-seqs", "N", "serving: most sequences in one iteration (256)");
    p.option("token-budget", "N", "serving: tokens per iteration, prefill and decode (8192)");
    p.option("chunked-prefill", "on|off", "serving: split prompts over iterations (off)");
    p.option("length-spread", "F", "serving: lengths uniform in [(1-F)L, (1+F)L] (0)");
    p.option("duration", "T", "serving: arrival window, e.g. 60s, 10m (60s)");
    p.option("policy", "P", "serving: fcfs, static or dynamic admission across tenants (fcfs)");
    p.option("tenants", "LIST", "serving: NAME:WEIGHT:SHARE:TTFT_MS:TPOT_MS,... classes");
    p.option("summary", "on|off|requests",
             "serving: on keeps requests and token steps but no kernels; requests keeps only "
             "requests, iterations and counters (off)");
    return p;
}

struct Plan {
    std::vector<capture::SweepAxis> axes;  // more than one value each
    capture::PointParams fixed;            // everything given once
};

Plan plan_from(const ArgParser& p) {
    Plan plan;
    for (const auto& name : capture::point_param_names()) {
        if (!p.has(name) && name != "seed") continue;
        const std::string text = p.get(name);
        std::vector<std::string> values;
        try {
            values = kNotAxes.contains(name) ? std::vector<std::string>{text}
                                             : capture::expand_axis(text);
        } catch (const std::invalid_argument& e) {
            throw UsageError{"sweep: --" + name + ": " + e.what()};
        }
        if (values.size() == 1)
            plan.fixed[name] = values[0];
        else
            plan.axes.push_back({name, values});
    }
    return plan;
}

capture::PointParams params_of(const Plan& plan, const capture::SweepGrid& grid, std::int64_t i) {
    capture::PointParams params = plan.fixed;
    const auto values = grid.point(i);
    for (std::size_t a = 0; a < plan.axes.size(); ++a) params[plan.axes[a].name] = values[a];
    return params;
}

nlohmann::json params_json(const capture::PointParams& params) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : params) {
        // Numbers stay numbers so readers can sort and plot them.
        nlohmann::json n = nlohmann::json::parse(v, nullptr, false);
        j[k] = !n.is_discarded() && n.is_number() ? n : nlohmann::json(v);
    }
    return j;
}

std::string describe(const capture::PointParams& params, const Plan& plan) {
    std::string out;
    for (const auto& a : plan.axes)
        out += (out.empty() ? "" : " ") + a.name + "=" + params.at(a.name);
    return out.empty() ? "single point" : out;
}

// Every point resolves before the first run, so a typo fails at once, not hours in.
std::vector<capture::PointConfig> resolve_all(const Plan& plan, const capture::SweepGrid& grid,
                                              const capture::Backend& backend) {
    std::vector<capture::PointConfig> out;
    for (std::int64_t i = 0; i < grid.size(); ++i) {
        const auto params = params_of(plan, grid, i);
        try {
            out.push_back(capture::resolve_point(params));
            capture::resolve_model_run(out.back().capture);  // shape, GPU and decode config
            if (out.back().serving) capture::validate_serving_config(*out.back().serving);
            const std::string refusal =
                out.back().serving ? std::string() : backend.refusal(out.back().capture);
            if (!refusal.empty()) throw std::invalid_argument(refusal);
        } catch (const std::invalid_argument& e) {
            throw UsageError{"sweep: point " + describe(params, plan) + ": " + e.what()};
        }
    }
    return out;
}

std::int64_t new_sweep(store::SweepStore& sweeps, const std::vector<std::string>& args,
                       const ArgParser& p, const Plan& plan) {
    nlohmann::json spec;
    spec["args"] = args;
    nlohmann::json axes = nlohmann::json::array();
    for (const auto& a : plan.axes) axes.push_back({{"name", a.name}, {"values", a.values}});
    spec["axes"] = axes;
    spec["fixed"] = params_json(plan.fixed);
    spec["backend"] = p.get("backend");
    spec["warmup"] = p.get_int("warmup");
    spec["repeats"] = p.get_int("repeats");
    store::SweepInfo info;
    info.name = p.has("name") ? p.get("name") : "sweep";
    if (!p.has("name"))
        for (const auto& a : plan.axes) info.name += " " + a.name;
    info.created_ns = capture::wall_clock_ns();
    info.spec_json = spec.dump();
    return sweeps.add_sweep(info);
}

struct Job {
    std::string out, backend;
    std::int64_t sweep_id = 0, warmup = 0, repeats = 0;
    std::uint64_t seed = 1;
};

std::int64_t run_one(const Job& job, capture::PointConfig config, std::int64_t repeat, bool warmup,
                     const std::string& name, store::StoreWriter* store) {
    // Repeat r runs with seed + r; warm-ups with seeds no counted run uses.
    config.capture.decode.seed =
        job.seed + static_cast<std::uint64_t>(warmup ? 1'000'000 + repeat : repeat);
    TerminalProgress cancel("sweep", TerminalProgress::Mode::None);
    if (warmup) {
        capture::MemoryRunWriter discard;
        capture::run_point(job.backend, config, discard, cancel.callback());
        return 0;
    }
    config.capture.run_name = name;
    trace::RunInfo info;
    info.name = name;
    auto writer = store->begin_run(info);
    capture::run_point(job.backend, config, *writer, cancel.callback());
    return writer->run_id();
}

}  // namespace

int cmd_sweep(const std::vector<std::string>& args) {
    ArgParser p = make_parser();
    if (!parse_or_help(p, args)) return kExitOk;
    if (!p.has("out")) throw UsageError{"sweep: --out FILE is required"};
    Job job;
    job.out = p.get("out");
    // A new sweep touches FILE only once every point resolved; --resume reads it first.
    std::unique_ptr<store::SweepStore> store_for_resume;
    std::vector<std::string> sweep_args = args;
    if (p.has("resume")) {
        store_for_resume = std::make_unique<store::SweepStore>(job.out, /*read_only=*/false);
        auto all = store_for_resume->sweeps();
        if (all.empty()) throw UsageError{"sweep: " + job.out + ": no sweep to resume"};
        job.sweep_id = all.back().id;
        sweep_args = nlohmann::json::parse(all.back().spec_json).at("args");
    }
    ArgParser sp = make_parser();  // the stored arguments give the same grid again
    sp.parse(sweep_args);
    job.backend = sp.get("backend");
    auto backend = capture::make_backend(job.backend);
    if (!backend) throw UsageError{"sweep: unknown backend '" + job.backend + "'"};
    Plan plan = plan_from(sp);
    // The backend's own default shape (the cpu backend cannot hold llama-8b).
    if (!sp.has("preset")) plan.fixed["preset"] = std::string(backend->default_preset());
    capture::SweepGrid grid(plan.axes);
    const auto configs = resolve_all(plan, grid, *backend);
    if (auto a = backend->available(); !a.ok) {
        std::cerr << "tokenscope-cli sweep: " << a.reason << '\n';
        return kExitNoGpu;
    }
    job.warmup = sp.get_int("warmup");
    job.repeats = sp.get_int("repeats");
    if (job.warmup < 0 || job.repeats < 1) throw UsageError{"sweep: --warmup >= 0, --repeats >= 1"};
    job.seed = static_cast<std::uint64_t>(sp.get_int("seed"));
    if (!store_for_resume)
        store_for_resume = std::make_unique<store::SweepStore>(job.out, /*read_only=*/false);
    store::SweepStore& sweeps = *store_for_resume;
    if (job.sweep_id == 0) job.sweep_id = new_sweep(sweeps, sweep_args, sp, plan);

    std::set<std::pair<std::int64_t, std::int64_t>> done;
    for (const auto& pt : sweeps.points(job.sweep_id)) done.insert({pt.point, pt.repeat});
    std::int64_t total = 0;
    for (std::int64_t i = 0; i < grid.size(); ++i) {
        std::int64_t missing = 0;
        for (std::int64_t r = 0; r < job.repeats; ++r) missing += done.contains({i, r}) ? 0 : 1;
        total += missing > 0 ? missing + job.warmup : 0;
    }
    store::StoreWriter store(job.out);
    SweepProgress progress(TerminalProgress::parse_mode(p.get("progress")), total);
    std::int64_t stored = 0, warmed = 0;
    for (std::int64_t i = 0; i < grid.size(); ++i) {
        std::vector<std::int64_t> todo;
        for (std::int64_t r = 0; r < job.repeats; ++r)
            if (!done.contains({i, r})) todo.push_back(r);
        if (todo.empty()) continue;
        const auto params = params_of(plan, grid, i);
        const auto& config = configs[static_cast<std::size_t>(i)];
        for (std::int64_t w = 0; w < job.warmup; ++w) {
            progress.start(i, grid.size(), w, true);
            run_one(job, config, w, true, {}, nullptr);
            progress.done(0);
            ++warmed;
        }
        for (std::int64_t r : todo) {
            progress.start(i, grid.size(), r, false);
            const std::string name = "sweep " + std::to_string(job.sweep_id) + " point " +
                                     std::to_string(i) + " repeat " + std::to_string(r) + ": " +
                                     describe(params, plan) + (config.serving ? " (model)" : "");
            const std::int64_t run_id = run_one(job, config, r, false, name, &store);
            sweeps.add_point(job.sweep_id,
                             {static_cast<std::int32_t>(i), static_cast<std::int32_t>(r), run_id,
                              params_json(params).dump()});
            progress.done(run_id);
            ++stored;
        }
    }
    progress.finish();
    std::cout << "sweep " << job.sweep_id << ": " << grid.size() << " points x " << job.repeats
              << " repeats; " << stored << " runs stored, " << warmed
              << " warm-up runs discarded, in " << job.out << '\n';
    return kExitOk;
}

}  // namespace tokenscope::cli
