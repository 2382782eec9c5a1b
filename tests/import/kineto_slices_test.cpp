// A Kineto trace larger than half the memory budget is read in slices
// (json::ObjectSlicer) instead of whole: the run and every error must be the
// same either way. TOKENSCOPE_MEMORY_LIMIT makes a trace "large".
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "import/import_error.h"
#include "import/kineto/kineto_importer.h"
#include "kineto_test_util.h"
#include "support/fixtures.h"

namespace {

using tokenscope::import::ImportError;
using tokenscope::import::KinetoImport;
using tokenscope::import::KinetoImporter;

// Imports with TOKENSCOPE_MEMORY_LIMIT set to `limit` ("" for none).
KinetoImport import_under(const std::string& path, const char* limit) {
    if (*limit != '\0') ::setenv("TOKENSCOPE_MEMORY_LIMIT", limit, 1);
    struct Unset {
        ~Unset() { ::unsetenv("TOKENSCOPE_MEMORY_LIMIT"); }
    } unset;
    return KinetoImporter().import_with_launches(path, {}, {});
}

std::string error_under(const std::string& path, const char* limit) {
    try {
        import_under(path, limit);
    } catch (const ImportError& e) {
        return e.what();
    }
    return "no error";
}

KinetoImport import_in_slices(const std::string& path, std::size_t slice_bytes) {
    tokenscope::import::ImportOptions options;
    options.slice_bytes = slice_bytes;
    return KinetoImporter().import_with_launches(path, options, {});
}

// The V100 fixture (15 MB of JSON) under a 24 MiB budget streams through zlib and
// is cut into 1.5 MiB slices; it is the same run as the one read whole.
TEST(KinetoSlices, FixtureReadInSlicesIsTheSameRun) {
    TOKENSCOPE_NEED_FIXTURE("kineto/hta_v100_ns_resolution_rank0.json.gz");
    const std::string path =
        std::string(TOKENSCOPE_FIXTURES_DIR) + "/kineto/hta_v100_ns_resolution_rank0.json.gz";
    KinetoImport whole = import_under(path, "");
    KinetoImport sliced = import_under(path, "24M");
    ASSERT_EQ(whole.run.activities.size(), 45422u);
    kineto_test::expect_same_run(whole, sliced);
}

// Every shared trace, in slices as small as one event and larger: the same run.
TEST(KinetoSlices, EveryFixtureInSmallSlicesIsTheSameRun) {
    for (const char* name :
         {"kineto/hta_inference_rank_1.json.gz", "kineto/hta_a100_cupti_profiler.json.gz",
          "engines/vllm_v1_mi300x_fullgraph_decode_bs32_step.json.gz",
          "engines/sglang_mi300x_qwen3_8b_graph_decode_bs32_step.json.gz",
          "engines/vllm_v1_mi300x_piecewise_mixed_step.json.gz"}) {
        TOKENSCOPE_NEED_FIXTURE(name);
        SCOPED_TRACE(name);
        const std::string path = std::string(TOKENSCOPE_FIXTURES_DIR) + "/" + name;
        KinetoImport whole = import_under(path, "");
        for (std::size_t slice : {1, 4096, 1 << 20})
            kineto_test::expect_same_run(whole, import_in_slices(path, slice));
    }
}

// Members before and after the events, an escaped key, strings holding brackets,
// braces, quotes and commas, events split across slices and chunks.
TEST(KinetoSlices, MembersAndTrickyStringsAreTheSameInSlices) {
    std::string events;
    for (int i = 0; i < 60000; ++i) {
        events += std::string(i == 0 ? "" : ",\n") +
                  R"({"ph":"X","cat":"kernel","name":"k]},{\"x\":[)" + std::to_string(i % 7) +
                  R"(\\","pid":0,"tid":7,"ts":)" + std::to_string(1000 + i * 10) +
                  R"(.5,"dur":5,"args":{"device":0,"stream":7,"grid":[1,2,3],"correlation":)" +
                  std::to_string(i) + "}}";
    }
    const std::string doc = R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": )"
                            R"("NVIDIA H100 80GB HBM3", "numSms": 132}], "trace\u0045vents": [],)"
                            R"( "traceEvents": [)" +
                            events + R"(], "traceName": "t{]", "displayTimeUnit": "ms"})" + "\n";
    const std::string path = kineto_test::write_file("sliced.json", doc);
    ASSERT_GT(doc.size(), std::size_t{4} << 20);
    KinetoImport whole = import_under(path, "");
    KinetoImport sliced = import_under(path, "12M");
    ASSERT_EQ(whole.run.activities.size(), 60000u);
    kineto_test::expect_same_run(whole, sliced);
}

// Every error names the same byte with the same words, read whole or in slices:
// 5 MiB of white space first makes each document larger than half of 8 MiB.
TEST(KinetoSlices, ErrorsAreTheSameInSlices) {
    const std::vector<std::string> docs = {
        R"({"traceEvents": [{"ph" "X"}]})",
        R"({"traceEvents": [{"ph":"X","cat":"ker)",
        R"({"traceEvents": [{"ph":"X"})",
        R"({"traceEvents": [{"ph":"X"}],)",
        R"({"traceEvents": []} extra)",
        R"({"traceEvents": [1]})",
        R"({"traceEvents": {"a": 1}})",
        R"({"foo": 1})",
        R"({"traceEvents": [{"ph":"X"},]})",
        R"({"traceEvents": [{"ph":"X"} {"ph":"X"}]})",
        R"({"traceEvents": [{"name": "bad \q escape"}]})",
        R"({"traceEvents": [{"ts": 1.2.3}]})",
        R"({, "traceEvents": []})",
        R"({"traceEvents": [], })",
        R"({"traceEvents": [{"ph":"X","args":{"a":[}}]})",
    };
    const std::string pad(std::size_t{5} << 20, ' ');
    for (std::size_t i = 0; i < docs.size(); ++i) {
        const std::string path =
            kineto_test::write_file("bad" + std::to_string(i) + ".json", pad + docs[i]);
        const std::string whole = error_under(path, "");
        const std::string sliced = error_under(path, "8M");
        EXPECT_EQ(whole, sliced) << docs[i];
        EXPECT_NE(whole, "no error") << docs[i];
        // Without the padding, in slices of one event.
        const std::string bare = kineto_test::write_file("bare.json", docs[i]);
        std::string in_slices = "no error";
        try {
            import_in_slices(bare, 1);
        } catch (const ImportError& e) {
            in_slices = e.what();
        }
        EXPECT_EQ(error_under(bare, ""), in_slices) << docs[i];
    }
    // What a reader skips is checked for its strings and its depth only (simdjson
    // On-Demand), read whole or in slices alike.
    for (std::string doc :
         {R"({"foo": tru, "traceEvents": []})", R"({"a": [1, 2}, "traceEvents": []})"}) {
        const std::string path = kineto_test::write_file("lenient.json", pad + doc);
        EXPECT_EQ(error_under(path, ""), "no error") << doc;
        EXPECT_EQ(error_under(path, "8M"), "no error") << doc;
    }
}

}  // namespace
