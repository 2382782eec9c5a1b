// Bad input: every case ends in an ImportError whose message names the file
// and the problem; nothing crashes.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "import/import_error.h"
#include "import/importer_registry.h"
#include "import/nsys/nsys_importer.h"
#include "import/open_any.h"
#include "nsys_test_db.h"

namespace tokenscope::import {
namespace {

using testing::temp_path;

std::string error_of(const std::string& path) {
    try {
        open_any(path);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "no error";
}

void expect_error(const std::string& path, const std::string& problem) {
    std::string msg = error_of(path);
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find(problem), std::string::npos) << msg;
}

TEST(NsysBadInput, EmptyFile) {
    std::string path = temp_path("empty.sqlite");
    std::ofstream(path).close();
    expect_error(path, "empty file");
}

TEST(NsysBadInput, MissingFile) {
    expect_error(temp_path("does_not_exist.sqlite"), "No such file or directory");
}

TEST(NsysBadInput, DirectoryInsteadOfFile) {
    std::string dir = temp_path("a_directory.sqlite");
    std::filesystem::create_directories(dir);
    expect_error(dir, "is a directory");
}

TEST(NsysBadInput, RandomBytes) {
    std::string path = temp_path("random.sqlite");
    std::mt19937 rng(42);
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 10000; ++i) out.put(static_cast<char>(rng() & 0xFF));
    out.close();
    expect_error(path, "not a recognised trace format");
}

TEST(NsysBadInput, AnotherApplicationsSqliteDatabase) {
    std::string path = temp_path("other_app.db");
    {
        testing::TestDb db(path);
        db.exec(
            "CREATE TABLE customers(id INTEGER, name TEXT); INSERT INTO customers VALUES(1,'a');");
    }
    expect_error(path, "not a recognised trace format");
    expect_error(path, "SQLite database without Nsight Systems");
    // Called directly, the nsys importer refuses it with its own reason.
    try {
        NsysImporter().import(path, {}, {});
        FAIL();
    } catch (const ImportError& e) {
        EXPECT_EQ(e.path(), path);
        EXPECT_NE(e.problem().find("not an Nsight Systems export"), std::string::npos);
    }
}

TEST(NsysBadInput, TruncatedSqliteFile) {
    std::string full = temp_path("whole.sqlite");
    {
        testing::TestDb db(full);
        db.create_modern_schema();
        for (int i = 0; i < 200; ++i)
            db.exec("INSERT INTO StringIds VALUES (" + std::to_string(i) + ", '" +
                    std::string(100, 'x') + "');");
    }
    std::string cut = temp_path("truncated.sqlite");
    std::filesystem::copy_file(full, cut, std::filesystem::copy_options::overwrite_existing);
    std::filesystem::resize_file(cut, 1500);
    std::string msg = error_of(cut);
    EXPECT_NE(msg.find(cut), std::string::npos) << msg;
}

TEST(NsysBadInput, RegistryNamesTheFormatsItKnows) {
    auto formats = default_registry().formats();
    EXPECT_NE(std::find(formats.begin(), formats.end(), "nsys"), formats.end());
    EXPECT_NE(default_registry().find("nsys"), nullptr);
    EXPECT_EQ(default_registry().find("no-such-format"), nullptr);
}

}  // namespace
}  // namespace tokenscope::import
