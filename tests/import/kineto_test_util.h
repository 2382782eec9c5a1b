#pragma once
// Helpers shared by the kineto_*_test.cpp files: temp files, gzip members.

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>

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

}  // namespace kineto_test
