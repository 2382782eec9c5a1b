// FileSource (plain and gzip, streaming, errors), open_any and import_files.

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "import/file_source.h"
#include "import/import_error.h"
#include "import/open_any.h"
#include "nsys_test_db.h"
#include "support/fixtures.h"

namespace tokenscope::import {
namespace {

using testing::temp_path;

const std::string kFixture = TOKENSCOPE_FIXTURES_DIR "/nsys/pipit_a100x4_cloverleaf.sqlite";

std::string pattern_text(std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += static_cast<char>('a' + (i * 7 + i / 13) % 26);
    return s;
}

void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Appends one gzip member holding `text` (mode "ab" starts a new member).
void append_gzip_member(const std::string& path, const std::string& text) {
    gzFile f = gzopen(path.c_str(), "ab");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(gzwrite(f, text.data(), static_cast<unsigned>(text.size())),
              static_cast<int>(text.size()));
    gzclose(f);
}

std::string read_in_chunks(FileSource& src) {
    std::string all;
    for (auto piece = src.next_chunk(); !piece.empty(); piece = src.next_chunk()) all += piece;
    return all;
}

std::string error_of(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const ImportError& e) {
        return e.what();
    }
    return "no error";
}

TEST(FileSource, PlainFileInSmallChunksWithHeadPeek) {
    std::string path = temp_path("plain.json"), text = pattern_text(10000);
    write_file(path, text);
    FileSource src(path, 7);  // a chunk size that divides nothing evenly
    EXPECT_FALSE(src.is_gzip());
    EXPECT_EQ(src.head(20), text.substr(0, 20));
    EXPECT_EQ(read_in_chunks(src), text);  // the peeked head is not lost
    EXPECT_EQ(src.file_consumed(), 10000);
    EXPECT_EQ(src.file_size(), 10000);
}

TEST(FileSource, GzipWithSeveralMembersReadsAsOneStream) {
    std::string path = temp_path("multi.json.gz");
    std::filesystem::remove(path);
    std::string a = pattern_text(5000), b = "second member", c = pattern_text(300);
    append_gzip_member(path, a);
    append_gzip_member(path, b);
    append_gzip_member(path, c);
    FileSource src(path, 16);
    EXPECT_TRUE(src.is_gzip());
    EXPECT_EQ(src.head(5), a.substr(0, 5));
    EXPECT_EQ(read_in_chunks(src), a + b + c);
    EXPECT_EQ(src.file_consumed(), static_cast<std::int64_t>(std::filesystem::file_size(path)));
    FileSource whole(path);
    EXPECT_EQ(whole.read_all(), a + b + c);
}

// What libdeflate inflates whole, zlib streams byte for byte the same: one member
// whose trailer gives its size, several (the buffer grows from the last one's
// size), zero padding after them; under a small memory budget the file streams.
TEST(FileSource, WholeInflateAndStreamingAgree) {
    std::string path = temp_path("whole.json.gz");
    std::filesystem::remove(path);
    std::string a = pattern_text(300000), b = pattern_text(70000) + "end";
    append_gzip_member(path, a);
    {
        FileSource one(path);
        EXPECT_EQ(one.read_all(), a);
        EXPECT_TRUE(one.inflated_whole());
    }
    append_gzip_member(path, b);
    { std::ofstream(path, std::ios::binary | std::ios::app) << std::string(512, '\0'); }
    FileSource whole(path, 4096);
    EXPECT_EQ(whole.head(10), a.substr(0, 10));
    std::string got;
    std::int64_t last_consumed = 0;
    for (auto piece = whole.next_chunk(); !piece.empty(); piece = whole.next_chunk()) {
        EXPECT_LE(piece.size(), 4096u);
        got += piece;
        EXPECT_GE(whole.file_consumed(), last_consumed);  // progress moves, never back
        last_consumed = whole.file_consumed();
    }
    EXPECT_TRUE(whole.inflated_whole());
    EXPECT_EQ(got, a + b);
    EXPECT_EQ(whole.file_consumed(), whole.file_size());

    ::setenv("TOKENSCOPE_MEMORY_LIMIT", "64K", 1);
    FileSource streamed(path, 4096);
    std::string streamed_text = read_in_chunks(streamed);
    ::unsetenv("TOKENSCOPE_MEMORY_LIMIT");
    EXPECT_FALSE(streamed.inflated_whole());
    EXPECT_EQ(streamed_text, a + b);
}

// Data after the last member is refused in zlib's words, whichever reader met it first.
TEST(FileSource, DataAfterTheLastMemberIsReported) {
    std::string path = temp_path("trailing.json.gz");
    std::filesystem::remove(path);
    append_gzip_member(path, pattern_text(5000));
    { std::ofstream(path, std::ios::binary | std::ios::app) << "garbage"; }
    std::string msg = error_of([&] {
        FileSource src(path);
        src.read_all();
    });
    EXPECT_NE(msg.find(path + ": corrupt gzip stream: unexpected data after member at byte"),
              std::string::npos)
        << msg;
}

TEST(FileSource, TruncatedGzipIsReported) {
    std::string path = temp_path("cut.json.gz");
    std::filesystem::remove(path);
    append_gzip_member(path, pattern_text(50000));
    std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
    std::string msg = error_of([&] {
        FileSource src(path);
        src.read_all();
    });
    EXPECT_NE(msg.find(path + ": truncated gzip stream"), std::string::npos) << msg;
}

TEST(FileSource, CorruptGzipIsReported) {
    std::string path = temp_path("corrupt.json.gz");
    std::filesystem::remove(path);
    append_gzip_member(path, pattern_text(50000));
    std::string bytes;
    {
        std::ifstream in(path, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    for (std::size_t i = 20; i < 60; ++i) bytes[i] = static_cast<char>(~bytes[i]);
    write_file(path, bytes);
    std::string msg = error_of([&] {
        FileSource src(path);
        src.read_all();
    });
    EXPECT_NE(msg.find(path + ": corrupt gzip stream"), std::string::npos) << msg;
}

TEST(FileSource, OpenErrorsNameTheFile) {
    std::string missing = temp_path("missing.json");
    EXPECT_NE(
        error_of([&] { FileSource s(missing); }).find(missing + ": cannot open: No such file"),
        std::string::npos);
    std::string empty = temp_path("empty.json");
    write_file(empty, "");
    EXPECT_EQ(error_of([&] { FileSource s(empty); }), empty + ": empty file");
}

TEST(FileSource, ReadAllReportsProgressAndCancels) {
    std::string path = temp_path("progress.json");
    write_file(path, pattern_text(100));
    FileSource src(path, 10);
    EXPECT_THROW(src.read_all([](std::int64_t, std::int64_t) { return false; }), trace::Cancelled);
}

TEST(OpenAny, NsysFixtureGivesOneRun) {
    TOKENSCOPE_NEED_FIXTURE_FILE(kFixture);
    auto runs = open_any(kFixture);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].info.source, trace::Source::Nsys);
    std::size_t kernels = 0;
    for (const auto& a : runs[0].activities) kernels += a.kind == trace::ActivityKind::Kernel;
    EXPECT_EQ(kernels, 1312u);  // fixture README
}

TEST(OpenAny, ImportFilesWritesATokenscopeFileThatOpensAgain) {
    TOKENSCOPE_NEED_FIXTURE_FILE(kFixture);
    std::string out = temp_path("imported.tokenscope");
    std::filesystem::remove(out);
    auto ids = import_files({kFixture, kFixture}, out);
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_NE(ids[0], ids[1]);
    std::string head;
    {
        FileSource src(out);
        head = std::string(src.head(100));
    }
    EXPECT_TRUE(is_tokenscope_head(head));
    auto runs = open_any(out);
    ASSERT_EQ(runs.size(), 2u);
    for (const auto& run : runs) {
        EXPECT_EQ(run.info.source, trace::Source::Nsys);
        EXPECT_EQ(run.activities.size(), 1312u + 279u + 3048u + 1312u);  // README + sync rows
    }
}

TEST(OpenAny, ImportFilesWithABadInputWritesNothing) {
    TOKENSCOPE_NEED_FIXTURE_FILE(kFixture);
    std::string out = temp_path("never.tokenscope");
    std::filesystem::remove(out);
    std::string bad = temp_path("bad.json");
    write_file(bad, "this is not a trace");
    EXPECT_THROW(import_files({kFixture, bad}, out), ImportError);
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(OpenAny, SqliteHeaderWithoutTokenscopeIdIsNotAStore) {
    std::string head("SQLite format 3\0", 16);
    head.resize(100, '\0');
    EXPECT_FALSE(is_tokenscope_head(head));
    head[68] = 0x54, head[69] = 0x6B, head[70] = 0x53, head[71] = 0x63;  // "TkSc"
    EXPECT_TRUE(is_tokenscope_head(head));
}

}  // namespace
}  // namespace tokenscope::import
