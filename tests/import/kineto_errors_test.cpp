// Bad input: every failure is an ImportError naming the file and the problem.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "import/import_error.h"
#include "import/kineto/kineto_importer.h"
#include "kineto_test_util.h"
#include "support/fixtures.h"

namespace {

using tokenscope::import::ImportError;
using tokenscope::import::KinetoImporter;

// Imports, expecting an ImportError whose message has the path and `reason`.
void expect_error(const std::string& path, const std::string& reason) {
    try {
        KinetoImporter().import(path, {}, {});
        ADD_FAILURE() << path << ": no error, expected one containing '" << reason << "'";
    } catch (const ImportError& e) {
        std::string what = e.what();
        EXPECT_EQ(e.path(), path);
        EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
        EXPECT_NE(what.find(reason), std::string::npos) << what;
    }
}

std::string fixture_bytes() {
    std::ifstream in(
        std::string(TOKENSCOPE_FIXTURES_DIR) + "/kineto/hta_v100_ns_resolution_rank0.json.gz",
        std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(KinetoErrors, EmptyFile) {
    expect_error(kineto_test::write_file("empty.json", ""), "empty file");
}

TEST(KinetoErrors, WhitespaceOnly) {
    expect_error(kineto_test::write_file("blank.json", "  \n "), "empty JSON document");
}

TEST(KinetoErrors, MissingFile) {
    expect_error(kineto_test::temp_dir() + "/does_not_exist.json", "cannot open");
}

TEST(KinetoErrors, TruncatedGzip) {
    TOKENSCOPE_NEED_FIXTURE("kineto/hta_v100_ns_resolution_rank0.json.gz");
    std::string gz = fixture_bytes();
    ASSERT_GT(gz.size(), 100000u);
    expect_error(kineto_test::write_file("cut.json.gz", gz.substr(0, gz.size() / 2)),
                 "truncated gzip");
}

TEST(KinetoErrors, TruncatedJsonInsideAnEvent) {
    std::string doc =
        R"({"traceEvents": [{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":1},{"ph":"X","cat":"ker)";
    expect_error(kineto_test::write_file("cut.json", doc), "truncated JSON");
}

TEST(KinetoErrors, TruncatedJsonAfterLastEvent) {
    std::string doc =
        R"({"traceEvents": [{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":1})";
    expect_error(kineto_test::write_file("cut2.json", doc), "truncated JSON");
}

TEST(KinetoErrors, ObjectOfAnotherShape) {
    expect_error(kineto_test::write_file("foo.json", R"({"foo": 1})"),
                 "not a Kineto trace: no \"traceEvents\" array");
}

TEST(KinetoErrors, TraceEventsNotAnArray) {
    expect_error(kineto_test::write_file("notarray.json", R"({"traceEvents": {"a": 1}})"),
                 "\"traceEvents\" is not an array");
}

TEST(KinetoErrors, TopLevelList) {
    expect_error(kineto_test::write_file("list.json", "[1, 2, 3]"), "top-level JSON is an array");
}

TEST(KinetoErrors, EventThatIsNotAnObject) {
    expect_error(kineto_test::write_file("num.json", R"({"traceEvents": [1]})"),
                 "trace event is not an object");
}

TEST(KinetoErrors, SyntaxErrorGivesTheByteOffset) {
    // The missing ':' is noticed at the '"' of "X", byte 23 (0-based) of the document.
    expect_error(kineto_test::write_file("syntax.json", R"({"traceEvents": [{"ph" "X"}]})"),
                 "invalid JSON at byte 23: expected ':'");
}

TEST(KinetoErrors, TrailingGarbage) {
    expect_error(kineto_test::write_file("trail.json", R"({"traceEvents": []} extra)"),
                 "unexpected data after the document");
}

TEST(KinetoErrors, NotJsonAtAll) {
    expect_error(kineto_test::write_file("text.json", "hello"), "invalid JSON at byte 0");
}

TEST(KinetoErrors, BadStepPattern) {
    std::string path = kineto_test::write_file("ok.json", R"({"traceEvents": []})");
    tokenscope::import::ImportOptions options;
    options.step_pattern = "(unclosed";
    EXPECT_THROW(KinetoImporter().import(path, options, {}), ImportError);
    // A well-formed empty trace is a run with no activities, not an error.
    EXPECT_TRUE(KinetoImporter().import(path, {}, {}).activities.empty());
}

}  // namespace
