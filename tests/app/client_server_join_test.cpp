// The client/server join through the real tokenscope-cli, against the ground truth of
// our own runs: `run` makes a decode run (every token of a batch comes out when its
// iteration ends), `export --client --server` writes it as AIPerf's per-request JSONL
// and an engine trace with a chosen clock offset and jitter, `import --join` joins
// them. The true iteration of each token and the true offset come from the original
// run and the offset asked for, never from the join's output.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_process.h"
#include "store/store_reader.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using tokenscope::test::CliResult;
using tokenscope::test::run_cli;
namespace trace = tokenscope::trace;

constexpr std::int64_t kMaxLagNs = 50'000'000;  // the join's default

trace::RunData load(const std::string& path) {
    tokenscope::store::StoreReader reader(path);
    auto runs = reader.runs();
    EXPECT_EQ(runs.size(), 1u) << path;
    return reader.load_run(runs.front().info.id);
}

bool is_token(const trace::Step& s) {
    return !s.is_iteration() && s.request != 0;
}

// Token (request's rank by id, index) -> the rank of its iteration among all iterations
// by end. In the original run an iteration is an instant at which tokens came out; in
// the joined run it is the last iteration step ending at or before the emission, within
// the lag (docs/engine-traces.md), or -1.
using TokenKey = std::pair<std::size_t, std::int32_t>;

std::map<TokenKey, int> ranks_of(const trace::RunData& run, std::vector<std::int64_t> ends,
                                 bool joined) {
    std::sort(ends.begin(), ends.end());
    std::vector<std::int64_t> ids;
    for (const auto& s : run.steps)
        if (is_token(s)) ids.push_back(s.request);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::map<TokenKey, int> out;
    for (const auto& s : run.steps) {
        if (!is_token(s)) continue;
        auto after = std::upper_bound(ends.begin(), ends.end(), s.end_ns);
        int rank = static_cast<int>(after - ends.begin()) - 1;
        if (joined && (rank < 0 || s.end_ns - ends[static_cast<std::size_t>(rank)] > kMaxLagNs))
            rank = -1;
        const auto request = static_cast<std::size_t>(
            std::lower_bound(ids.begin(), ids.end(), s.request) - ids.begin());
        out[{request, s.index}] = rank;
    }
    return out;
}

std::map<TokenKey, int> true_iterations(const trace::RunData& run) {
    std::vector<std::int64_t> ends;
    for (const auto& s : run.steps)
        if (is_token(s)) ends.push_back(s.end_ns);
    std::sort(ends.begin(), ends.end());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    return ranks_of(run, ends, false);
}

std::vector<std::int64_t> iteration_ends(const trace::RunData& run) {
    std::vector<std::int64_t> ends;
    for (const auto& s : run.steps)
        if (s.is_iteration()) ends.push_back(s.end_ns);
    std::sort(ends.begin(), ends.end());
    return ends;
}

const trace::Diagnostic* diagnostic(const trace::RunData& run, const std::string& name) {
    for (const auto& d : run.diagnostics)
        if (d.name == name) return &d;
    return nullptr;
}

class ClientServerJoin : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = fs::temp_directory_path() / ("tokenscope_join_test_" + std::to_string(getpid()));
        fs::create_directories(dir_);
        model_ = path("model.tokenscope");
        CliResult r = run_cli("run --backend model --batch 16 --tokens 96 --out " + model_ +
                              " --quiet --progress none");
        ASSERT_EQ(r.status, 0) << r.err;
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }
    static std::string path(const std::string& name) { return (dir_ / name).string(); }

    // export RUN --client --server with the options, then import --join; the CLI result.
    static CliResult export_and_join(const std::string& run, const std::string& tag,
                                     const std::string& export_options) {
        const std::string client = path(tag + ".jsonl"), server = path(tag + ".json");
        CliResult e = run_cli("export " + run + " --client " + client + " --server " + server +
                              " " + export_options + " --progress none");
        EXPECT_EQ(e.status, 0) << e.err;
        return run_cli("import " + client + " " + server + " --join --out " + path(tag) +
                       ".tokenscope --progress none");
    }

    // Offset within 50 us of the truth, >= 99.9% of tokens on their true iteration.
    static void expect_recovered(const std::string& run, const std::string& tag,
                                 double clock_offset_s) {
        CliResult r = export_and_join(
            run, tag,
            "--clock-offset " + std::to_string(clock_offset_s) + " --jitter 100 --seed 3");
        ASSERT_EQ(r.status, 0) << r.err;
        const trace::RunData original = load(run);
        const trace::RunData joined = load(path(tag) + ".tokenscope");
        const trace::Diagnostic* offset = diagnostic(joined, "join_clock_offset_ns");
        ASSERT_NE(offset, nullptr);
        // The client's clock runs clock_offset_s ahead: server = client - that.
        EXPECT_NEAR(offset->value, -clock_offset_s * 1e9, 50e3);
        const auto truth = true_iterations(original);
        const std::vector<std::int64_t> ends = iteration_ends(joined);
        int instants = 0;
        for (const auto& [key, rank] : truth) instants = std::max(instants, rank + 1);
        ASSERT_EQ(ends.size(), static_cast<std::size_t>(instants));
        const auto found = ranks_of(joined, ends, true);
        ASSERT_EQ(found.size(), truth.size());
        std::size_t right = 0;
        for (const auto& [key, rank] : truth) right += found.at(key) == rank ? 1 : 0;
        EXPECT_GE(static_cast<double>(right), 0.999 * static_cast<double>(truth.size()))
            << right << " of " << truth.size();
        const trace::Diagnostic* share = diagnostic(joined, "join_matched_token_share");
        ASSERT_NE(share, nullptr);
        EXPECT_GE(share->value, 0.999);
    }

    static fs::path dir_;
    static std::string model_;
};

fs::path ClientServerJoin::dir_;
std::string ClientServerJoin::model_;

}  // namespace

TEST_F(ClientServerJoin, ModelRunWithTheClientTenSecondsAhead) {
    expect_recovered(model_, "ahead", 10.0);
}

TEST_F(ClientServerJoin, ModelRunWithTheClientTenSecondsBehind) {
    expect_recovered(model_, "behind", -10.0);
}

TEST_F(ClientServerJoin, CpuRun) {
    const std::string cpu = path("cpu.tokenscope");
    // A 64-token prompt: the default 512 x 8 fp32 prefill alone takes minutes under
    // AddressSanitizer, and the join only needs the decode's emissions.
    CliResult r = run_cli("run --backend cpu --batch 8 --prompt 64 --tokens 40 --out " + cpu +
                          " --quiet --progress none");
    ASSERT_EQ(r.status, 0) << r.err;
    expect_recovered(cpu, "cpu_joined", 10.0);
}

TEST_F(ClientServerJoin, ExportedServerTraceHasOneIterationPerEmissionInstant) {
    const trace::RunData original = load(model_);
    CliResult r = export_and_join(model_, "shape", "");
    ASSERT_EQ(r.status, 0) << r.err;
    const trace::RunData joined = load(path("shape.tokenscope"));
    std::vector<std::int64_t> instants;
    for (const auto& s : original.steps)
        if (is_token(s)) instants.push_back(s.end_ns);
    std::sort(instants.begin(), instants.end());
    instants.erase(std::unique(instants.begin(), instants.end()), instants.end());
    const std::vector<std::int64_t> ends = iteration_ends(joined);
    ASSERT_EQ(ends.size(), instants.size());
    for (std::size_t k = 0; k < ends.size(); ++k)  // same spacing, to the nanosecond
        EXPECT_EQ(ends[k] - ends[0], instants[k] - instants[0]) << k;
    // 16 requests with 512-token prompts prefill together, then decode 16 at a time.
    std::vector<trace::Step> iterations;
    for (const auto& s : joined.steps)
        if (s.is_iteration()) iterations.push_back(s);
    std::sort(iterations.begin(), iterations.end(),
              [](const trace::Step& a, const trace::Step& b) { return a.end_ns < b.end_ns; });
    EXPECT_EQ(iterations.front().batch, (trace::BatchComposition{16, 16 * 512, 0, 0}));
    EXPECT_EQ(iterations.back().batch, (trace::BatchComposition{0, 0, 16, 16}));
    // No jitter, no offset: every token lands exactly on its iteration's end.
    const trace::Diagnostic* residual = diagnostic(joined, "join_clock_residual_ns");
    ASSERT_NE(residual, nullptr);
    EXPECT_EQ(residual->value, 0.0);
}

TEST_F(ClientServerJoin, ExportedClientFileRoundTripsThroughTheAiperfImporter) {
    const std::string client = path("round.jsonl");
    CliResult e = run_cli("export " + model_ + " --client " + client + " --progress none");
    ASSERT_EQ(e.status, 0) << e.err;
    CliResult i =
        run_cli("import " + client + " --out " + path("round.tokenscope") + " --progress none");
    ASSERT_EQ(i.status, 0) << i.err;
    const trace::RunData original = load(model_);
    const trace::RunData back = load(path("round.tokenscope"));
    ASSERT_EQ(back.requests.size(), original.requests.size());
    auto by_id = [](std::vector<trace::Request> v) {
        std::sort(v.begin(), v.end(),
                  [](const trace::Request& a, const trace::Request& b) { return a.id < b.id; });
        return v;
    };
    const auto a = by_id(original.requests), b = by_id(back.requests);
    for (std::size_t k = 0; k < a.size(); ++k) {  // TTFT and E2E to the nanosecond
        EXPECT_EQ(b[k].first_token_ns - b[k].arrival_ns, a[k].first_token_ns - a[k].arrival_ns);
        EXPECT_EQ(b[k].done_ns - b[k].arrival_ns, a[k].done_ns - a[k].arrival_ns);
        EXPECT_EQ(b[k].output_len, a[k].output_len);
        EXPECT_EQ(b[k].input_len, a[k].input_len);
    }
    // Epoch times: the importer takes the first arrival as the creation time.
    EXPECT_GT(back.info.created_ns, 978'307'200'000'000'000LL);
}

TEST_F(ClientServerJoin, ClientTimesBeforeEveryIterationAreRefused) {
    CliResult r = export_and_join(model_, "early", "--clock-offset -3600");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.err.find("precede every iteration"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(path("early.jsonl")), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(path("early.tokenscope")));
}

TEST_F(ClientServerJoin, BadPairsNameTheFile) {
    CliResult ok = export_and_join(model_, "pair", "");
    ASSERT_EQ(ok.status, 0) << ok.err;
    const std::string client = path("pair.jsonl"), server = path("pair.json");
    CliResult two_servers =
        run_cli("import " + server + " " + server + " --join --out " + path("x.tokenscope"));
    EXPECT_EQ(two_servers.status, 1);
    EXPECT_NE(two_servers.err.find(server + ": an engine trace"), std::string::npos)
        << two_servers.err;
    CliResult two_clients =
        run_cli("import " + client + " " + client + " --join --out " + path("x.tokenscope"));
    EXPECT_EQ(two_clients.status, 1);
    EXPECT_NE(two_clients.err.find(client + ": a client's per-request results"), std::string::npos)
        << two_clients.err;
    // LLMPerf's individual responses carry latencies but no start times.
    json responses = json::array();
    for (int k = 0; k < 3; ++k)
        responses.push_back({{"error_code", nullptr},
                             {"error_msg", ""},
                             {"ttft_s", 0.1},
                             {"end_to_end_latency_s", 1.0},
                             {"inter_token_latency_s", 0.01},
                             {"number_input_tokens", 100},
                             {"number_output_tokens", 90}});
    const std::string llmperf = path("llama_individual_responses.json");
    std::ofstream(llmperf) << responses.dump();
    CliResult relative =
        run_cli("import " + llmperf + " " + server + " --join --out " + path("x.tokenscope"));
    EXPECT_EQ(relative.status, 1);
    EXPECT_NE(relative.err.find(llmperf + ": no absolute times"), std::string::npos)
        << relative.err;
    CliResult one = run_cli("import " + client + " --join --out " + path("x.tokenscope"));
    EXPECT_EQ(one.status, 1);
    EXPECT_NE(one.err.find("exactly two inputs"), std::string::npos) << one.err;
    EXPECT_FALSE(fs::exists(path("x.tokenscope")));
}

TEST_F(ClientServerJoin, InfoShowsTheJoinDiagnostics) {
    CliResult r = export_and_join(model_, "info", "--clock-offset 2 --jitter 50");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("clock offset: server clock = client clock + -2000"), std::string::npos)
        << r.out;
    CliResult info = run_cli("info " + path("info.tokenscope"));
    ASSERT_EQ(info.status, 0) << info.err;
    for (const char* name :
         {"join_clock_offset_ns", "join_clock_residual_ns", "join_matched_token_share"})
        EXPECT_NE(info.out.find(name), std::string::npos) << name << "\n" << info.out;
}
