// breakdown's GPU time per kernel role, through the built binary, on SGLang's real
// graph-mode decode trace (Qwen3-8B, batch 32, MI300X; ../shared/fixtures/engines).
// The expected totals are computed here from the JSON file with a rule of this test's
// own, written for this file's 555 kernels and 3 copies, not with Tokenscope's
// classifier. Run totals only: how steps are framed is another test's business.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_process.h"
#include "support/fixtures.h"

namespace {

const std::string kSglang = "engines/sglang_mi300x_qwen3_8b_graph_decode_bs32_step.json.gz";

using Totals = std::map<std::string, std::int64_t>;

bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// This file's names: Tensile GEMMs (Cijk_*), paged attention with its KV-cache store
// and FlashInfer index kernel, aiter's add+RMSNorm, the argmax sampler, ATen copies and
// casts; everything else (SiLU, rotary, clamp, gather, scan) is elementwise.
std::string role_of(const std::string& cat, const std::string& name) {
    if (cat != "kernel") return "copy";  // gpu_memcpy, gpu_memset
    if (name.rfind("Cijk_", 0) == 0) return "gemm";
    if (has(name, "attention") || has(name, "kvcache") || has(name, "kv_indices"))
        return "attention";
    if (has(name, "rmsnorm")) return "normalization";
    if (has(name, "ArgMax")) return "sampling";
    if (has(name, "copy") || has(name, "Copy")) return "copy";
    return "elementwise";
}

// Durations are microseconds with three decimals: exact nanoseconds.
Totals expected_totals(std::int64_t& gpu_ops) {
    const auto r =
        tokenscope::test::run_shell("gzip -dc '" + tokenscope::test::fixture_path(kSglang) + "'");
    const auto doc = nlohmann::json::parse(r.out);
    Totals t;
    gpu_ops = 0;
    for (const auto& e : doc.at("traceEvents")) {
        const std::string cat = e.value("cat", "");
        if (cat != "kernel" && cat != "gpu_memcpy" && cat != "gpu_memset") continue;
        ++gpu_ops;
        t[role_of(cat, e.at("name").get<std::string>())] +=
            std::llround(e.at("dur").get<double>() * 1000.0);
    }
    return t;
}

nlohmann::json cli_json(const std::string& args) {
    const auto r = tokenscope::test::run_cli(args + " --progress none");
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

TEST(KernelRolesCli, JsonRunTotalsAreTheFilesDurationsByRole) {
    TOKENSCOPE_NEED_FIXTURE(kSglang);
    std::int64_t ops = 0;
    const Totals want = expected_totals(ops);
    EXPECT_EQ(ops, 558);  // 555 kernels and 3 copies (README)
    std::int64_t want_all = 0;
    for (const auto& [role, ns] : want) want_all += ns;

    const auto out = cli_json("breakdown '" + tokenscope::test::fixture_path(kSglang) + "' --json");
    const auto& roles = out.at("runs").at(0).at("roles");
    EXPECT_EQ(roles.at("run_total_ns").get<std::int64_t>(), want_all);
    std::int64_t sum = 0;
    for (const auto& [role, ns] : roles.at("run_ns").items()) {
        const auto it = want.find(role);
        EXPECT_EQ(ns.get<std::int64_t>(), it == want.end() ? 0 : it->second) << role;
        sum += ns.get<std::int64_t>();
    }
    EXPECT_EQ(sum, want_all);
    EXPECT_EQ(roles.at("run_ns").size(), 8u);
    EXPECT_GT(want.at("gemm"), want.at("attention"));  // the decode is GEMM-heavy
    // Each phase carries its step count and per-role totals and means.
    for (const auto& p : roles.at("phases")) {
        EXPECT_GT(p.at("steps").get<std::int64_t>(), 0);
        EXPECT_EQ(p.at("total_ns").size(), 8u);
        EXPECT_EQ(p.at("mean_ns").size(), 8u);
    }
}

// The text table and --csv carry the same rows: a role per row, then the total.
TEST(KernelRolesCli, TextAndCsvShowTheRoleTable) {
    TOKENSCOPE_NEED_FIXTURE(kSglang);
    const std::string file = "'" + tokenscope::test::fixture_path(kSglang) + "'";
    const auto text = tokenscope::test::run_cli("breakdown " + file + " --progress none");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_TRUE(has(text.out, "GPU time per kernel role"));
    for (const char* label : {"GEMM", "Attention", "Communication", "Normalisation",
                              "Activation / elementwise", "Sampling", "Copy", "Other"})
        EXPECT_TRUE(has(text.out, std::string("\n") + label + " ")) << label;

    const auto csv = tokenscope::test::run_cli("breakdown " + file + " --progress none --csv");
    ASSERT_EQ(csv.status, 0) << csv.err;
    const auto at = csv.out.find("\nrole,");
    ASSERT_NE(at, std::string::npos) << csv.out;
    std::istringstream rows(csv.out.substr(at + 1));
    std::string line;
    std::getline(rows, line);
    EXPECT_EQ(line.substr(line.size() - std::string("run total ms,share").size()),
              "run total ms,share");
    std::vector<std::string> keys;
    std::string total_row;
    while (std::getline(rows, line) && !line.empty()) {
        keys.push_back(line.substr(0, line.find(',')));
        total_row = line;
    }
    EXPECT_EQ(keys,
              (std::vector<std::string>{"gemm", "attention", "communication", "normalization",
                                        "elementwise", "sampling", "copy", "other", "total"}));
    // The run's GPU time in ms with three decimals, then its share.
    std::int64_t ops = 0, all = 0;
    for (const auto& [role, ns] : expected_totals(ops)) all += ns;
    char ms[32];
    std::snprintf(ms, sizeof ms, ",%.3f,100.0%%", static_cast<double>(all) / 1e6);
    EXPECT_TRUE(has(total_row, ms)) << total_row << " vs " << ms;
}

}  // namespace
