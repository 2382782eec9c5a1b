#include "capture/sweep/sweep_point.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "capture/backend_registry.h"
#include "capture/serving/serving_simulator.h"
#include "capture/sweep/sweep_grid.h"

namespace tokenscope::capture {
namespace {

[[noreturn]] void bad(const std::string& name, const std::string& value, const std::string& why) {
    throw std::invalid_argument(name + " '" + value + "': " + why);
}

double to_double(const std::string& name, const std::string& text) {
    double v = 0.0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size() || !std::isfinite(v))
        bad(name, text, "not a number");
    return v;
}

std::int64_t to_int(const std::string& name, const std::string& text) {
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size()) bad(name, text, "not an integer");
    return v;
}

bool to_bool(const std::string& name, const std::string& text) {
    if (text == "on" || text == "true" || text == "1" || text == "yes") return true;
    if (text == "off" || text == "false" || text == "0" || text == "no") return false;
    bad(name, text, name == "summary" ? "expected on, off or requests" : "expected on or off");
}

void apply_strategy(const std::string& text, kernels::DecodeConfig& d) {
    auto parts = split_fields(text, ':');
    std::string kind = parts[0] == "spec" ? "speculative" : parts[0];
    auto s = kernels::strategy_from_string(kind);
    if (!s) bad("strategy", text, "expected greedy, topk[:K], beam[:K] or speculative[:L[:G]]");
    d.strategy = *s;
    if (parts.size() > 3 || (parts.size() > 2 && *s != kernels::Strategy::Speculative))
        bad("strategy", text, "too many ':' fields");
    if (parts.size() > 1 && *s == kernels::Strategy::TopK) d.top_k = to_int("strategy", parts[1]);
    if (parts.size() > 1 && *s == kernels::Strategy::Beam) d.beams = to_int("strategy", parts[1]);
    if (parts.size() > 1 && *s == kernels::Strategy::Greedy)
        bad("strategy", text, "greedy takes no value");
    if (*s == kernels::Strategy::Speculative) {
        if (parts.size() > 1) d.draft_layers = to_int("strategy", parts[1]);
        if (parts.size() > 2) d.gamma = to_int("strategy", parts[2]);
    }
}

void apply_arrival(const std::string& text, ArrivalSpec& a) {
    auto parts = split_fields(text, ':');
    if (parts[0] == "poisson" && parts.size() == 2) {
        a = {ArrivalKind::Poisson, to_double("arrival", parts[1]), 1.0, 0};
    } else if (parts[0] == "gamma" && parts.size() == 3) {
        a = {ArrivalKind::Gamma, to_double("arrival", parts[1]), to_double("arrival", parts[2]), 0};
    } else if (parts[0] == "closed" && parts.size() == 2) {
        a = {ArrivalKind::Closed, 0.0, 1.0, to_int("arrival", parts[1])};
    } else {
        bad("arrival", text, "expected poisson:RATE, gamma:RATE:BURSTINESS or closed:CONCURRENCY");
    }
}

std::vector<TenantClass> parse_tenants(const std::string& text) {
    std::vector<TenantClass> out;
    for (const auto& item : split_fields(text, ',')) {
        auto f = split_fields(item, ':');
        if (f.size() != 5 || f[0].empty())
            bad("tenants", item, "expected NAME:WEIGHT:SHARE:TTFT_MS:TPOT_MS");
        out.push_back({f[0], to_double("tenants", f[1]), to_double("tenants", f[2]),
                       std::llround(to_double("tenants", f[3]) * 1e6),
                       std::llround(to_double("tenants", f[4]) * 1e6)});
    }
    return out;
}

AdmissionPolicy parse_policy(const std::string& text) {
    if (text == "fcfs") return AdmissionPolicy::Fcfs;
    if (text == "static") return AdmissionPolicy::StaticShare;
    if (text == "dynamic") return AdmissionPolicy::DynamicBudget;
    bad("policy", text, "expected fcfs, static or dynamic");
}

bool is_serving(const PointParams& p) {
    return p.contains("qps") || p.contains("arrival") || p.contains("concurrency");
}

ServingConfig serving_from(const PointParams& p, const CaptureConfig& c) {
    ServingConfig s;
    s.prompt_len = c.decode.prompt_len;
    s.output_len = c.decode.new_tokens;
    if (auto it = p.find("arrival"); it != p.end()) apply_arrival(it->second, s.arrival);
    if (auto it = p.find("qps"); it != p.end()) {
        s.arrival.kind = ArrivalKind::Poisson;
        s.arrival.rate = to_double("qps", it->second);
    }
    if (auto it = p.find("burstiness"); it != p.end()) {
        s.arrival.burstiness = to_double("burstiness", it->second);
        if (s.arrival.kind == ArrivalKind::Poisson) s.arrival.kind = ArrivalKind::Gamma;
    }
    if (auto it = p.find("concurrency"); it != p.end())
        s.arrival = {ArrivalKind::Closed, 0.0, 1.0, to_int("concurrency", it->second)};
    auto get = [&](const char* name, auto fn) {
        if (auto it = p.find(name); it != p.end()) fn(it->second);
    };
    get("max-num-seqs", [&](const std::string& v) { s.max_num_seqs = to_int("max-num-seqs", v); });
    get("token-budget", [&](const std::string& v) { s.token_budget = to_int("token-budget", v); });
    get("chunked-prefill",
        [&](const std::string& v) { s.chunked_prefill = to_bool("chunked-prefill", v); });
    get("length-spread",
        [&](const std::string& v) { s.length_spread = to_double("length-spread", v); });
    get("duration", [&](const std::string& v) {
        s.duration_s = static_cast<double>(parse_duration_ns(v)) / 1e9;
    });
    get("policy", [&](const std::string& v) { s.policy = parse_policy(v); });
    get("tenants", [&](const std::string& v) { s.tenants = parse_tenants(v); });
    get("summary", [&](const std::string& v) {
        s.token_steps = v != "requests";
        s.summary = !s.token_steps || to_bool("summary", v);
    });
    return s;
}

}  // namespace

const std::vector<std::string>& point_param_names() {
    static const std::vector<std::string> names = {
        "preset",        "gpu",        "batch",        "prompt",       "tokens",
        "strategy",      "acceptance", "seed",         "qps",          "arrival",
        "concurrency",   "burstiness", "max-num-seqs", "token-budget", "chunked-prefill",
        "length-spread", "duration",   "policy",       "tenants",      "summary"};
    return names;
}

std::int64_t parse_duration_ns(const std::string& text) {
    static const std::pair<const char*, double> units[] = {{"ns", 1.0}, {"us", 1e3}, {"ms", 1e6},
                                                           {"s", 1e9},  {"m", 60e9}, {"h", 3600e9}};
    for (const auto& [suffix, scale] : units) {
        const std::string s(suffix);
        if (text.size() > s.size() && text.ends_with(s) &&
            (s != "s" || !(text.ends_with("ms") || text.ends_with("us") || text.ends_with("ns")))) {
            const double v = to_double("duration", text.substr(0, text.size() - s.size()));
            if (!(v >= 0.0)) bad("duration", text, "must not be negative");
            return std::llround(v * scale);
        }
    }
    const double v = to_double("duration", text);  // bare seconds
    if (!(v >= 0.0)) bad("duration", text, "must not be negative");
    return std::llround(v * 1e9);
}

PointConfig resolve_point(const PointParams& p) {
    for (const auto& [name, value] : p) {
        const auto& known = point_param_names();
        if (std::find(known.begin(), known.end(), name) == known.end())
            throw std::invalid_argument("unknown sweep parameter '" + name + "'");
    }
    PointConfig out;
    CaptureConfig& c = out.capture;
    auto& d = c.decode;
    if (auto it = p.find("preset"); it != p.end()) c.model = it->second;
    if (auto it = p.find("gpu"); it != p.end()) c.gpu = it->second;
    if (auto it = p.find("batch"); it != p.end()) d.batch = to_int("batch", it->second);
    if (auto it = p.find("prompt"); it != p.end()) d.prompt_len = to_int("prompt", it->second);
    if (auto it = p.find("tokens"); it != p.end()) d.new_tokens = to_int("tokens", it->second);
    if (auto it = p.find("strategy"); it != p.end()) apply_strategy(it->second, d);
    if (auto it = p.find("acceptance"); it != p.end())
        d.acceptance = to_double("acceptance", it->second);
    if (auto it = p.find("seed"); it != p.end())
        d.seed = static_cast<std::uint64_t>(to_int("seed", it->second));
    if (is_serving(p)) {
        // The serving model's iterations sample greedily; a strategy would be ignored.
        if (d.strategy != kernels::Strategy::Greedy)
            bad("strategy", p.at("strategy"),
                "the serving model decodes greedily; strategies apply to decode points");
        out.serving = serving_from(p, c);
    }
    return out;
}

void run_point(const std::string& backend, const PointConfig& config, store::RunWriter& writer,
               const trace::ProgressFn& progress) {
    if (config.serving) {
        run_serving_model(config.capture, *config.serving, writer, progress);
        return;
    }
    auto b = make_backend(backend);
    if (!b) throw std::invalid_argument("unknown backend '" + backend + "'");
    b->run(config.capture, writer, progress);
}

}  // namespace tokenscope::capture
