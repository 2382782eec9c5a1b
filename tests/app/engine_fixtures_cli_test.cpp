// The real engine traces of ../shared/fixtures/engines opened as a user opens them: the
// built tokenscope-cli, no step pattern. Expected figures are read from the JSON here
// (nlohmann::json over the gunzipped file), never from Tokenscope's output.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_process.h"
#include "support/fixtures.h"
#include "support/gzip_file.h"

namespace {

using tokenscope::test::run_cli;

const std::string kFullGraph = "engines/vllm_v1_mi300x_fullgraph_decode_bs32_step.json.gz";
const std::string kSglang = "engines/sglang_mi300x_qwen3_8b_graph_decode_bs32_step.json.gz";

nlohmann::json cli_json(const std::string& args) {
    auto r = run_cli(args);
    EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
}

// The duration of the file's one marker starting with `prefix`, in ns.
std::int64_t marker_ns(const std::string& path, const std::string& prefix) {
    const auto doc = nlohmann::json::parse(tokenscope::test::gunzip(path));
    for (const auto& e : doc["traceEvents"])
        if (e.value("cat", "") == "user_annotation" && e.value("name", "").rfind(prefix, 0) == 0)
            return static_cast<std::int64_t>(std::llround(e["dur"].get<double>() * 1000.0));
    ADD_FAILURE() << "no marker " << prefix << " in " << path;
    return 0;
}

TEST(EngineFixturesCli, FullGraphDecodeIsOneIterationOverItsGpuWork) {
    TOKENSCOPE_NEED_FIXTURE(kFullGraph);
    const std::string path = tokenscope::test::fixture_path(kFullGraph);
    const auto j = cli_json("breakdown --json --steps " + path);
    ASSERT_FALSE(j.is_discarded());
    const auto& run = j["runs"][0];
    ASSERT_EQ(run["steps"], 1);
    const auto& row = run["step_rows"][0];
    // The window is longer than the 2.4 ms marker: its graph's kernels ran until 19.1 ms.
    const std::int64_t marker = marker_ns(path, "execute_32_context_0(");
    const std::int64_t start = row["start_ns"];
    EXPECT_EQ(row["marker_end_ns"].get<std::int64_t>() - start, marker);
    EXPECT_GT(row["end_ns"].get<std::int64_t>() - start, 7 * marker);
    EXPECT_NE(run["verdict"]["primary"], "cpu-bound") << run["verdict"].dump();
    EXPECT_GT(run["assigned_ns"]["gpu_compute"].get<std::int64_t>() +
                  run["assigned_ns"]["gpu_memory"].get<std::int64_t>(),
              run["assigned_ns"]["cpu"].get<std::int64_t>());
    EXPECT_EQ(row["batch"]["decode_requests"], 32);
}

TEST(EngineFixturesCli, InfoNamesThePresetAndTheMarkerKind) {
    TOKENSCOPE_NEED_FIXTURE(kSglang);
    auto r = run_cli("info " + tokenscope::test::fixture_path(kSglang));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("vllm-sq preset"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 user annotation"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("iteration_window"), std::string::npos) << r.out;
}

TEST(EngineFixturesCli, AStepPatternMatchesPythonFunctions) {
    TOKENSCOPE_NEED_FIXTURE(kFullGraph);
    const auto j = cli_json("info --json --steps-from 'gpu_model_runner.py' " +
                            tokenscope::test::fixture_path(kFullGraph));
    ASSERT_FALSE(j.is_discarded());
    const auto& run = j.contains("runs") ? j["runs"][0] : j;
    EXPECT_EQ(run["steps"], 1);
}

}  // namespace
