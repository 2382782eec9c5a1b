// A Kineto trace read whole is parsed in windows cut at newlines
// (kineto/trace_reader_windows.cpp): the run and every error must be those of the
// document parsed in one piece, whatever the layout and wherever the cuts fall.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "import/import_error.h"
#include "import/kineto/kineto_importer.h"
#include "kineto_test_util.h"
#include "support/fixtures.h"
#include "support/gzip_file.h"

namespace {

using tokenscope::import::ImportError;
using tokenscope::import::KinetoImport;
using tokenscope::import::KinetoImporter;

constexpr std::size_t kOneDocument = std::size_t{1} << 40;  // larger than any test trace

KinetoImport import_in_windows(const std::string& path, std::size_t window_bytes,
                               bool alongside = true,
                               const tokenscope::trace::ProgressFn& progress = {}) {
    tokenscope::import::ImportOptions options;
    options.window_bytes = window_bytes;
    options.inflate_alongside = alongside;
    return KinetoImporter().import_with_launches(path, options, progress);
}

std::string error_in_windows(const std::string& path, std::size_t window_bytes,
                             bool alongside = true) {
    try {
        import_in_windows(path, window_bytes, alongside);
    } catch (const ImportError& e) {
        return e.what();
    }
    return "no error";
}

// Every shared trace: the same run in windows far smaller than one event (each
// window grows until an event fits), about one event, and many events.
TEST(KinetoWindows, EveryFixtureIsTheSameRunInWindows) {
    for (const char* name :
         {"kineto/hta_inference_rank_1.json.gz", "kineto/hta_a100_cupti_profiler.json.gz",
          "kineto/hta_v100_ns_resolution_rank0.json.gz",
          "engines/vllm_v1_mi300x_fullgraph_decode_bs32_step.json.gz",
          "engines/sglang_mi300x_qwen3_8b_graph_decode_bs32_step.json.gz",
          "engines/vllm_v1_mi300x_piecewise_mixed_step.json.gz",
          "engines/hf_transformers_qwen1.5_0.5b_h100_forward_profilerstep.json.gz"}) {
        TOKENSCOPE_NEED_FIXTURE(name);
        SCOPED_TRACE(name);
        const std::string path = std::string(TOKENSCOPE_FIXTURES_DIR) + "/" + name;
        const KinetoImport whole = import_in_windows(path, kOneDocument);
        ASSERT_GT(whole.run.activities.size(), 0u);
        EXPECT_EQ(whole.stats.windows, 0);
        // Some of the shared traces were written on one line: no newline to cut at,
        // so they are parsed in one piece.
        const std::string json = tokenscope::test::gunzip(path);
        const bool one_line = json.find('\n') == std::string::npos;
        for (std::size_t window : {std::size_t{64}, std::size_t{700}, std::size_t{1} << 16}) {
            const KinetoImport windowed = import_in_windows(path, window);
            kineto_test::expect_same_run(whole, windowed);
            if (one_line) {
                EXPECT_EQ(windowed.stats.windows, 0) << window;
            } else if (json.size() > 2 * window) {
                EXPECT_GT(windowed.stats.windows, 1) << window;
            }
        }
    }
}

// `count` kernels, written with `separator` between them, each with `member` (a
// member's text and its ',') before its args; names hold brackets, braces and quotes.
std::string kernels(int count, const std::string& separator, const std::string& member) {
    std::string out;
    for (int i = 0; i < count; ++i) {
        out += (i == 0 ? "" : separator) +
               R"({"ph":"X","cat":"kernel","name":"k]},{\"x\":[\n","pid":0,"tid":7,"ts":)" +
               std::to_string(1000 + i * 10) + R"(,"dur":5,)" + member +
               R"("args":{"device":0,"stream":7,"correlation":)" + std::to_string(i + 1) + "}}";
    }
    return out;
}

struct Layout {
    const char* name;
    std::string doc;
};

// Layouts other writers use, and ones made to put the cuts where they hurt: an
// event's members on lines of their own, nested values spread over lines indented
// like events, comma-first lines, CRLF, no newline at the end or after the array,
// one line only (no cut at all), members after the array, a second "traceEvents".
std::vector<Layout> layouts() {
    const std::string nested = "\n  {\"a\": [\n  {\"b\": 1},\n  {\"c\": [2,\n3]}\n  ]},\n  ";
    const std::string head = R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": )"
                             R"("NVIDIA H100 80GB HBM3", "numSms": 132}],)"
                             "\n"
                             R"("traceEvents": [)";
    return {
        {"pretty", head + "\n  " + kernels(300, ",\n  ", "") + "\n  ]\n}\n"},
        {"nested values over lines",
         head + "\n" + kernels(300, ",\n", "\"n\":" + nested) + "\n]}\n"},
        {"comma first", head + "\n " + kernels(300, "\n,", "") + "\n]}"},
        {"crlf", head + "\r\n  " + kernels(300, ",\r\n  ", "") + "\r\n  ]\r\n}\r\n"},
        {"no newline after the array", head + "\n" + kernels(300, ",\n", "") + "]}"},
        {"one line", head + kernels(300, ",", "") + "]}"},
        {"members after", head + "\n" + kernels(300, ",\n", "") +
                              "\n],\n\"traceName\": \"t{]\",\n\"distributedInfo\": {\"rank\": "
                              "1},\n\"displayTimeUnit\": \"ns\"\n}\n"},
        {"a second traceEvents", head + "\n" + kernels(150, ",\n", "") +
                                     "\n],\n\"traceEvents\": [\n" + kernels(150, ",\n", "") +
                                     "\n]}\n"},
    };
}

TEST(KinetoWindows, EveryLayoutIsTheSameRunInWindows) {
    for (const Layout& layout : layouts()) {
        SCOPED_TRACE(layout.name);
        const std::string path = kineto_test::write_file("layout.json", layout.doc);
        const KinetoImport whole = import_in_windows(path, kOneDocument);
        // Each of the 300 kernels written is an activity (counted from the text).
        ASSERT_EQ(whole.run.activities.size(), 300u);
        for (std::size_t window : {1, 16, 100, 333, 1000, 4096}) {
            const KinetoImport windowed = import_in_windows(path, window);
            kineto_test::expect_same_run(whole, windowed);
            // In windows unless the events are on one line.
            if (std::string(layout.name) != "one line") {
                EXPECT_GT(windowed.stats.windows, 1);
            }
        }
    }
}

// Every error names the same byte with the same words as the document parsed in one
// piece: the broken part comes after kernels on lines of their own, so the windows
// hand some over first.
TEST(KinetoWindows, ErrorsAreTheSameInWindows) {
    const std::string events = "\n" + kernels(200, ",\n", "") + ",\n";
    const std::vector<std::string> docs = {
        R"({"traceEvents": [)" + events + R"({"ph" "X"}]})",
        R"({"traceEvents": [)" + events + R"({"ph":"X","cat":"ker)",
        R"({"traceEvents": [)" + events + R"({"ph":"X"})",
        R"({"traceEvents": [)" + events + R"({"ph":"X"}],)",
        R"({"traceEvents": [)" + events + R"({"ph":"X"}]} extra)",
        R"({"traceEvents": [)" + events + R"(1]})",
        R"({"traceEvents": [)" + events + R"({"ph":"X"},]})",
        R"({"traceEvents": [)" + events + R"({"ph":"X"})" + "\n" + R"({"ph":"X"}]})",
        R"({"traceEvents": [)" + events + R"({"name": "bad \q escape"}]})",
        R"({"traceEvents": [)" + events + R"({"ts": 1.2.3}]})",
        R"({"traceEvents": [)" + events + R"({"ph":"X","args":{"a":[}}]})",
        R"({"traceEvents": [)" + events + "{\"ph\":\"X\"}],\n\"x\": 1,\n}",
        "{\"big\": [\n" + events + "1],\n\"traceEvents\": {\"a\": 1}}",
        "{\"big\": [\n" + events + "1]\n}",
    };
    for (std::size_t i = 0; i < docs.size(); ++i) {
        SCOPED_TRACE(i);
        const std::string path = kineto_test::write_file("bad.json", docs[i]);
        const std::string whole = error_in_windows(path, kOneDocument);
        EXPECT_NE(whole, "no error");
        for (std::size_t window : {16, 300, 4096})
            EXPECT_EQ(error_in_windows(path, window), whole) << window;
    }
    // What a reader skips is checked for its strings and its depth only (simdjson
    // On-Demand): a member after the events with a mismatched bracket is no error,
    // in one piece or in windows.
    const std::string path = kineto_test::write_file(
        "lenient.json", R"({"traceEvents": [)" + events + "{\"ph\":\"X\"}],\n\"x\": [1,\n2}\n}");
    EXPECT_EQ(error_in_windows(path, kOneDocument), "no error");
    for (std::size_t window : {16, 300, 4096})
        EXPECT_EQ(error_in_windows(path, window), "no error");
}

// A gzipped trace inflated by zlib on a second thread while its windows are parsed
// is the same run as one inflated by libdeflate first.
TEST(KinetoWindows, InflatingAlongsideIsTheSameRun) {
    const bool two_cores = std::thread::hardware_concurrency() >= 2;
    for (const char* name :
         {"kineto/hta_a100_cupti_profiler.json.gz", "kineto/hta_v100_ns_resolution_rank0.json.gz",
          "engines/vllm_v1_mi300x_piecewise_mixed_step.json.gz",
          "engines/hf_transformers_qwen1.5_0.5b_h100_forward_profilerstep.json.gz"}) {
        TOKENSCOPE_NEED_FIXTURE(name);
        SCOPED_TRACE(name);
        const std::string path = std::string(TOKENSCOPE_FIXTURES_DIR) + "/" + name;
        const std::string json = tokenscope::test::gunzip(path);
        const KinetoImport first = import_in_windows(path, 700, false);
        EXPECT_FALSE(first.stats.inflated_alongside);
        for (std::size_t window : {std::size_t{700}, std::size_t{1} << 16}) {
            const KinetoImport alongside = import_in_windows(path, window);
            kineto_test::expect_same_run(first, alongside);
            // Not for a trace on one line: it is parsed in one piece.
            if (two_cores && json.find('\n') != std::string::npos && json.size() > 2 * window) {
                EXPECT_TRUE(alongside.stats.inflated_alongside) << window;
            }
        }
    }
}

// Two gzip members: the trailer tells the second one's size only, so the data outgrows
// the buffer; the rest inflates after the windows gave up, and the run is the same.
TEST(KinetoWindows, DataLargerThanTheTrailerSaysIsTheSameRun) {
    const std::string doc =
        std::string(R"({"traceEvents": [)") + "\n" + kernels(4000, ",\n", "") + "\n]}\n";
    const std::size_t half = doc.size() / 2;
    const std::string path =
        kineto_test::write_gzip_members("members.json.gz", {doc.substr(0, half), doc.substr(half)});
    const KinetoImport first = import_in_windows(path, 1000, false);
    ASSERT_EQ(first.run.activities.size(), 4000u);
    const KinetoImport alongside = import_in_windows(path, 1000);
    kineto_test::expect_same_run(first, alongside);
    EXPECT_FALSE(alongside.stats.inflated_alongside);
}

// A damaged or cut gzip stream gives the error it gives inflated first; a reader that
// stops (the progress callback said cancel) stops the inflating thread too.
TEST(KinetoWindows, BrokenAndCancelledInflatesAlongside) {
    const std::string doc =
        std::string(R"({"traceEvents": [)") + "\n" + kernels(4000, ",\n", "") + "\n]}\n";
    const std::string path = kineto_test::write_gzip_members("whole.json.gz", {doc});
    std::string gz;
    {
        std::ifstream in(path, std::ios::binary);
        gz.assign(std::istreambuf_iterator<char>(in), {});
    }
    ASSERT_GT(gz.size(), 1000u);
    std::string corrupt = gz;
    for (std::size_t i = gz.size() / 2; i < gz.size() / 2 + 64; ++i) corrupt[i] = '\x55';
    for (const std::string& bytes : {corrupt, gz.substr(0, gz.size() / 2)}) {
        const std::string broken = kineto_test::write_file("broken.json.gz", bytes);
        const std::string first = error_in_windows(broken, 1000, false);
        EXPECT_NE(first, "no error");
        EXPECT_EQ(error_in_windows(broken, 1000), first);
    }
    // Progress is reported every 4096 events: the first report, of 10000, cancels.
    const std::string many = kineto_test::write_gzip_members(
        "many.json.gz",
        {std::string(R"({"traceEvents": [)") + "\n" + kernels(10000, ",\n", "") + "\n]}\n"});
    int calls = 0;
    EXPECT_THROW(import_in_windows(many, 1000, true,
                                   [&](std::int64_t, std::int64_t) { return ++calls > 1; }),
                 tokenscope::trace::Cancelled);
    EXPECT_EQ(calls, 1);
}

}  // namespace
