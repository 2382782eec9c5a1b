// Hand-made serving-benchmark results; every time is worked out in the comments.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "import/import_error.h"
#include "import/serving/serving_importer.h"
#include "support/temp_dir.h"

namespace {

using tokenscope::import::ImportError;
using tokenscope::import::ServingImporter;
using tokenscope::trace::Phase;
using tokenscope::trace::Request;
using tokenscope::trace::RunData;
using tokenscope::trace::Severity;
using tokenscope::trace::Step;

std::string write_file(const std::string& name, const std::string& text) {
    static const tokenscope::test::TempDir dir("tokenscope-serving");
    return dir.write(name, text);
}

// Three requests at request_rate 2/s, the third failed. NaN as Python writes it.
const char* kResults = R"({
  "date": "20240115-103000", "backend": "vllm", "model_id": "meta-llama/Llama-3-8B",
  "num_prompts": 3, "request_rate": 2.0, "max_concurrency": 8, "duration": 3.5,
  "completed": 2, "total_input_tokens": 30, "mean_ttft_ms": NaN,
  "input_lens": [10, 20, 30], "output_lens": [3, 2, 0],
  "ttfts": [0.25, 0.5, 0.0],
  "itls": [[0.02, 0.03], [0.04], []],
  "generated_texts": ["a b c", "d e", ""],
  "errors": ["", "", "Connection reset by peer"]
})";

const tokenscope::trace::Diagnostic* diagnostic(const RunData& run, std::string_view name) {
    for (const auto& d : run.diagnostics)
        if (d.name == name) return &d;
    return nullptr;
}

constexpr std::int64_t ms = 1'000'000;

TEST(ServingImporter, RebuildsRequestsAndTokenSteps) {
    std::string path = write_file("bench_results.json", kResults);
    RunData run = ServingImporter().import(path, {}, {});
    // Arrivals synthesised at 1 / 2.0 s spacing: 0, 500 ms, 1000 ms.
    ASSERT_EQ(run.requests.size(), 3u);
    // Request 1: first token 0 + 250 = 250 ms; emissions 250, 270, 300 ms.
    EXPECT_EQ(run.requests[0], (Request{1, 0, 250 * ms, 300 * ms, 10, 3, false}));
    // Request 2: arrival 500, first token 500 + 500 = 1000 ms, then 1040 ms.
    EXPECT_EQ(run.requests[1], (Request{2, 500 * ms, 1000 * ms, 1040 * ms, 20, 2, false}));
    // Request 3 failed: no tokens, times collapse to its arrival.
    EXPECT_TRUE(run.requests[2].failed);
    EXPECT_EQ(run.requests[2].arrival_ns, 1000 * ms);
    EXPECT_EQ(run.requests[2].output_len, 0);

    std::vector<Step> expected = {
        {1, 0, Phase::Prefill, 0, 250 * ms, 0},
        {1, 1, Phase::Decode, 250 * ms, 270 * ms, 0},
        {1, 2, Phase::Decode, 270 * ms, 300 * ms, 0},
        {2, 0, Phase::Prefill, 500 * ms, 1000 * ms, 0},
        {2, 1, Phase::Decode, 1000 * ms, 1040 * ms, 0},
    };
    EXPECT_EQ(run.steps, expected);
    EXPECT_TRUE(run.activities.empty());

    const auto* failed = diagnostic(run, "failed_requests");
    ASSERT_NE(failed, nullptr);
    EXPECT_EQ(failed->severity, Severity::DataLoss);
    EXPECT_EQ(failed->value, 1.0);
    EXPECT_NE(failed->text.find("Connection reset by peer"), std::string::npos);
    const auto* synthesised = diagnostic(run, "synthesised_arrival_times");
    ASSERT_NE(synthesised, nullptr);
    EXPECT_EQ(synthesised->severity, Severity::Info);
}

TEST(ServingImporter, RunInfoHoldsTheHeader) {
    RunData run = ServingImporter().import(write_file("hdr.json", kResults), {}, {});
    EXPECT_EQ(run.info.source, tokenscope::trace::Source::Bench);
    EXPECT_EQ(run.info.clock, tokenscope::trace::ClockDomain::SourceFile);
    EXPECT_EQ(run.info.name, "hdr");
    auto header = nlohmann::json::parse(run.info.workload_json);
    EXPECT_EQ(header["model_id"], "meta-llama/Llama-3-8B");
    EXPECT_EQ(header["backend"], "vllm");
    EXPECT_EQ(header["request_rate"], 2.0);
    EXPECT_EQ(header["max_concurrency"], 8);
    EXPECT_TRUE(header["mean_ttft_ms"].is_null());                 // NaN became null
    EXPECT_FALSE(header.contains("ttfts"));                        // per-request arrays stay out
    EXPECT_EQ(run.info.created_ns, 1705314600LL * 1'000'000'000);  // 2024-01-15 10:30:00 UTC
}

TEST(ServingImporter, UsesRecordedStartTimes) {
    std::string text = R"({"backend": "vllm", "model_id": "m", "request_rate": "inf",
        "start_times": [100.0, 100.125, 100.5], "output_lens": [1, 2, 1],
        "ttfts": [0.1, 0.2, 0.05], "itls": [[], [0.01], []], "errors": ["", "", ""]})";
    RunData run = ServingImporter().import(write_file("starts.json", text), {}, {});
    ASSERT_EQ(run.requests.size(), 3u);
    EXPECT_EQ(run.requests[0].arrival_ns, 0);  // relative to the first start
    EXPECT_EQ(run.requests[1].arrival_ns, 125 * ms);
    EXPECT_EQ(run.requests[2].arrival_ns, 500 * ms);
    EXPECT_EQ(run.requests[1].first_token_ns, 325 * ms);
    EXPECT_EQ(run.requests[1].done_ns, 335 * ms);
    EXPECT_EQ(run.requests[0].done_ns, 100 * ms);  // one token: done = first token
    EXPECT_EQ(diagnostic(run, "synthesised_arrival_times"), nullptr);
    EXPECT_EQ(diagnostic(run, "failed_requests"), nullptr);
}

TEST(ServingImporter, InfiniteRateWithoutStartsPutsAllArrivalsAtZero) {
    std::string text = R"({"backend": "vllm", "model_id": "m", "request_rate": "inf",
        "output_lens": [1, 0], "ttfts": [0.1, null], "itls": [[], []], "errors": ["", ""]})";
    RunData run = ServingImporter().import(write_file("inf.json", text), {}, {});
    ASSERT_EQ(run.requests.size(), 2u);
    EXPECT_EQ(run.requests[1].arrival_ns, 0);
    EXPECT_TRUE(run.requests[1].failed);  // no ttft, no output, even without an error text
    EXPECT_EQ(diagnostic(run, "failed_requests")->value, 1.0);
}

void expect_error(const std::string& path, const std::string& reason) {
    try {
        ServingImporter().import(path, {}, {});
        ADD_FAILURE() << "no error for " << path;
    } catch (const ImportError& e) {
        std::string what = e.what();
        EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
        EXPECT_NE(what.find(reason), std::string::npos) << what;
    }
}

TEST(ServingImporter, BadInput) {
    expect_error(write_file("list.json", "[1, 2]"), "top-level JSON is not an object");
    expect_error(write_file("summary.json", R"({"backend": "vllm", "mean_ttft_ms": 12.5})"),
                 "--save-detailed");
    expect_error(write_file("other.json", R"({"foo": 1})"), "no \"ttfts\" array");
    expect_error(write_file("cut.json", R"({"ttfts": [0.1, )"), "invalid JSON");
    expect_error(write_file("empty.json", ""), "empty file");
}

// One error style for every JSON reader: the file, the byte offset, what was expected.
TEST(ServingImporter, SyntaxErrorsSayTheByteAndWhatWasExpected) {
    // {"ttfts": [0.1, 0.2 }}: the '}' is byte 20 (0-based), where the array wants ',' or ']'.
    expect_error(write_file("brace.json", R"({"ttfts": [0.1, 0.2 }})"),
                 "invalid JSON at byte 20: expected ',' or ']'");
    // SGLang's JSONL, its second line cut: the offset counts from the file's start.
    const std::string first = R"({"backend": "sglang", "ttfts": [0.1], "itls": [[]]})";
    const std::string second = R"({"ttfts": [0.2)";
    expect_error(write_file("cut.jsonl", first + "\n" + second + "\n"),
                 "line 2: invalid JSON at byte " +
                     std::to_string(first.size() + 1 + second.size()) + ": unexpected end of data");
}

TEST(ServingImporter, AcceptsResultsHeadsOnly) {
    ServingImporter s;
    EXPECT_TRUE(s.accepts(R"({"date": "20240101-000000", "backend": "vllm", "model_id": "m")"));
    EXPECT_TRUE(s.accepts(R"({"ttfts": [0.1])"));
    EXPECT_FALSE(s.accepts(R"({"traceEvents": [], "ttfts": []})"));
    EXPECT_FALSE(s.accepts("[1, 2]"));
}

}  // namespace
