#pragma once
// Helpers shared by the kineto_*_test.cpp files: temp files, gzip members, runs compared.

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "import/kineto/kineto_importer.h"
#include "support/temp_dir.h"

namespace kineto_test {

// One directory for the test program, removed when it exits.
inline std::string temp_dir() {
    static const tokenscope::test::TempDir dir("tokenscope-kineto");
    return dir.path().string();
}

inline std::string write_file(const std::string& name, const std::string& bytes) {
    std::string path = temp_dir() + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// One gzip member per part: gzopen in append mode starts a new member.
inline std::string write_gzip_members(const std::string& name,
                                      std::initializer_list<std::string> parts) {
    std::string path = temp_dir() + "/" + name;
    std::filesystem::remove(path);
    for (const std::string& part : parts) {
        gzFile f = gzopen(path.c_str(), "ab");
        EXPECT_NE(f, nullptr);
        gzwrite(f, part.data(), static_cast<unsigned>(part.size()));
        gzclose(f);
    }
    return path;
}

// The same run, whichever way the trace was read (whole, in slices, in windows).
inline void expect_same_run(const tokenscope::import::KinetoImport& a,
                            const tokenscope::import::KinetoImport& b) {
    EXPECT_EQ(a.stats.events, b.stats.events);
    EXPECT_EQ(a.run.activities, b.run.activities);
    EXPECT_EQ(a.run.lanes, b.run.lanes);
    EXPECT_EQ(a.run.counters, b.run.counters);
    EXPECT_EQ(a.run.diagnostics, b.run.diagnostics);
    EXPECT_EQ(a.run.steps.size(), b.run.steps.size());
    EXPECT_EQ(a.run.info.gpu, b.run.info.gpu);
    EXPECT_EQ(a.run.info.workload_json, b.run.info.workload_json);
    EXPECT_EQ(a.launches, b.launches);
}

}  // namespace kineto_test
