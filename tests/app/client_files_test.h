// What the client-result tests share: a folder of small files written for one
// suite, the real tokenscope-cli run on them, and its first run's JSON.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_process.h"

namespace tokenscope::test {

class ClientFilesTest : public ::testing::Test {
  protected:
    using Result = CliResult;
    using json = nlohmann::json;

    // One folder per suite and process: suites of one binary run one after another.
    static void make_dir(const std::string& prefix) {
        dir_ = std::filesystem::temp_directory_path() / (prefix + std::to_string(getpid()));
        std::filesystem::create_directories(dir_);
    }
    // TOKENSCOPE_KEEP_TEST_FILES keeps the files: the fuzz seeds of tests/fuzz/seeds are them.
    static void TearDownTestSuite() {
        if (std::getenv("TOKENSCOPE_KEEP_TEST_FILES") == nullptr) std::filesystem::remove_all(dir_);
    }

    static std::string write(const std::string& name, const std::string& text) {
        std::string path = (dir_ / name).string();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    static Result cli(const std::string& args) { return run_cli(args); }
    // The first run of `stats FILE --json` / `info FILE --json`.
    static json run_json(const std::string& command, const std::string& path) {
        Result r = cli(command + " " + path + " --json --progress none");
        EXPECT_EQ(r.status, 0) << path << ": " << r.err;
        json j = json::parse(r.out, nullptr, false);
        if (j.is_discarded() || !j.contains("runs") || j["runs"].empty()) return json::object();
        return j["runs"][0];
    }
    static const json* diagnostic(const json& info, const std::string& name) {
        for (const auto& d : info["diagnostics"])
            if (d["name"] == name) return &d;
        return nullptr;
    }

    static inline std::filesystem::path dir_;
};

}  // namespace tokenscope::test
