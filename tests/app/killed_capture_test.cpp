// Captures killed with SIGKILL at random moments, then opened the way a user
// opens them: `tokenscope-cli info FILE --json`, the real binary. Every file
// must open, name its real backend, hold what was committed and say that the
// capture ended abnormally (a data_loss diagnostic). Also read from a directory
// the reader cannot write to, where SQLite cannot index the -wal in place.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_process.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;

constexpr int kMoments = 20;

using tokenscope::test::run_shell;

// Waits until FILE-wal holds at least `bytes`, or the child has exited; false then.
bool wait_for_wal(const std::string& file, std::uintmax_t bytes, pid_t pid) {
    const std::string wal = file + "-wal";
    for (int i = 0; i < 3000; ++i) {
        std::error_code ec;
        if (fs::file_size(wal, ec) >= bytes && !ec) return true;
        if (waitpid(pid, nullptr, WNOHANG) == pid) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

// Waits, polling without sleep, until FILE exists, or the child has exited; false then.
bool wait_for_file(const std::string& file, pid_t pid) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
        if (fs::exists(file)) return true;
        if (waitpid(pid, nullptr, WNOHANG) == pid) return false;
    }
    return false;
}

pid_t spawn_cli(std::vector<std::string> argv_s) {
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0 ? pid : -1;
}

// Starts `tokenscope-cli run ... --out FILE` and SIGKILLs it `delay` after the
// capture began writing (its first WAL page: the moment counts from there, not
// from the start of the process, so a slow start under a sanitizer or on a
// loaded machine does not turn every moment into a kill before the file exists),
// or once FILE-wal holds `wal_bytes` when that is set; returns the raw wait
// status (a run that finished first is reported, not hidden).
int run_and_kill(const std::vector<std::string>& args, std::chrono::milliseconds delay,
                 std::uintmax_t wal_bytes = 0) {
    std::vector<std::string> argv_s = {TOKENSCOPE_CLI, "run"};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    pid_t pid = spawn_cli(argv_s);
    if (pid < 0) return -1;
    if (!wait_for_wal(args.back(), wal_bytes == 0 ? 1 : wal_bytes, pid)) return 0;
    if (wal_bytes == 0) std::this_thread::sleep_for(delay);
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

class KilledCapture : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("tokenscope_killed_" + std::to_string(getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(dir_, ec);
    }

    nlohmann::json info(const fs::path& file, const std::string& prefix = {}) {
        auto r = run_shell(prefix + TOKENSCOPE_CLI + " info " + file.string() +
                           " --json --progress none");
        EXPECT_EQ(r.status, 0) << file << ": " << r.err;
        if (r.status != 0) return {};
        return nlohmann::json::parse(r.out);
    }

    // Kills a capture at kMoments random moments and checks each file.
    void kill_at_random_moments(const std::vector<std::string>& args, const std::string& source) {
        std::mt19937 rng(20261201);
        std::uniform_int_distribution<int> ms(50, 1200);
        int killed = 0;
        for (int i = 0; i < kMoments; ++i) {
            const fs::path file = dir_ / ("killed_" + std::to_string(i) + ".tokenscope");
            std::vector<std::string> a = args;
            a.insert(a.end(), {"--progress", "none", "--quiet", "--out", file.string()});
            int status = run_and_kill(a, std::chrono::milliseconds(ms(rng)));
            ASSERT_TRUE(fs::exists(file)) << "moment " << i;
            if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ++killed;
            check_killed(info(file), source, WIFSIGNALED(status), i);
            for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(file.string() + suffix);
        }
        // The runs are long enough that nearly every one is still writing when killed.
        EXPECT_GE(killed, kMoments - 2);
    }

    static void check_killed(const nlohmann::json& j, const std::string& source, bool was_killed,
                             int moment) {
        ASSERT_TRUE(j.contains("runs")) << j.dump();
        ASSERT_EQ(j["runs"].size(), 1u) << "moment " << moment;
        const auto& run = j["runs"][0];
        EXPECT_EQ(run["source"], source) << "moment " << moment;
        EXPECT_EQ(run["is_model"], source == "model");
        EXPECT_FALSE(run["name"].get<std::string>().empty()) << "moment " << moment;
        if (!was_killed) return;
        EXPECT_FALSE(run["complete"]) << "moment " << moment;
        bool data_loss = false;
        for (const auto& d : run["diagnostics"])
            data_loss |= d["severity"] == "data_loss" && d["name"] == "capture_incomplete";
        EXPECT_TRUE(data_loss) << "moment " << moment << ": " << run["diagnostics"].dump();
        // Lanes and steps may still be empty: a kill can come before the first
        // batch commits; LaterKillKeepsMoreCommittedSteps checks what a batch holds.
    }

    fs::path dir_;
};

const std::vector<std::string> kCpuArgs = {"--backend", "cpu",  "--preset", "tiny", "--batch", "2",
                                           "--tokens",  "2000", "--prompt", "16"};
const std::vector<std::string> kModelArgs = {"--backend", "model", "--preset", "llama-70b",
                                             "--batch",   "64",    "--tokens", "8000",
                                             "--prompt",  "512"};

TEST_F(KilledCapture, CpuBackendAtRandomMoments) {
    kill_at_random_moments(kCpuArgs, "cpu");
}

TEST_F(KilledCapture, ModelBackendAtRandomMoments) {
    kill_at_random_moments(kModelArgs, "model");
}

// Steps committed before the kill are all there: a later kill never has fewer.
TEST_F(KilledCapture, LaterKillKeepsMoreCommittedSteps) {
    std::vector<std::int64_t> steps;
    for (std::uintmax_t kb : {256, 1024}) {
        const fs::path file = dir_ / ("at_" + std::to_string(kb) + ".tokenscope");
        std::vector<std::string> a = kCpuArgs;
        a.insert(a.end(), {"--progress", "none", "--quiet", "--out", file.string()});
        run_and_kill(a, {}, kb * 1024);
        auto j = info(file);
        ASSERT_TRUE(j.contains("runs"));
        steps.push_back(j["runs"][0]["steps"].get<std::int64_t>());
    }
    EXPECT_GT(steps[1], steps[0]);
    EXPECT_GT(steps[0], 0);
}

// What lies beside a killed file, for a failure message: SQLite's -wal, -shm, -journal.
std::string sidecars(const fs::path& file) {
    std::string out;
    for (const char* suffix : {"-wal", "-shm", "-journal"}) {
        std::error_code ec;
        const auto size = fs::file_size(file.string() + suffix, ec);
        if (!ec) out += " " + file.filename().string() + suffix + "=" + std::to_string(size) + "B";
    }
    return out.empty() ? " (nothing beside it)" : out;
}

// Killed the instant the file has a name, before any batch: the file is a
// Tokenscope file already (its schema is made under another name and renamed
// into place, leaving nothing beside it), so it opens with its run, labelled
// with the real backend, or, killed before the run's first row, says it is an
// empty Tokenscope file. Before, most such kills left an SQLite file without
// tables that no opener recognised.
TEST_F(KilledCapture, KilledTheMomentTheFileAppears) {
    constexpr int kTries = 10;
    int with_run = 0;
    for (int i = 0; i < kTries; ++i) {
        const fs::path file = dir_ / ("early_" + std::to_string(i) + ".tokenscope");
        std::vector<std::string> argv = {TOKENSCOPE_CLI, "run"};
        argv.insert(argv.end(), kCpuArgs.begin(), kCpuArgs.end());
        argv.insert(argv.end(), {"--progress", "none", "--quiet", "--out", file.string()});
        pid_t pid = spawn_cli(argv);
        ASSERT_GT(pid, 0);
        const bool appeared = wait_for_file(file.string(), pid);
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        ASSERT_TRUE(appeared) << "try " << i << ": the capture exited before making its file";
        // The schema's sibling was renamed into place, not left beside the user's file.
        EXPECT_FALSE(fs::exists(file.string() + ".creating")) << "try " << i;
        auto r = run_shell(std::string(TOKENSCOPE_CLI) + " info " + file.string() +
                           " --json --progress none");
        if (r.status == 0) {
            auto j = nlohmann::json::parse(r.out);
            ASSERT_EQ(j["runs"].size(), 1u) << r.out;
            EXPECT_EQ(j["runs"][0]["source"], "cpu") << "try " << i;
            EXPECT_FALSE(j["runs"][0]["complete"]) << "try " << i;
            ++with_run;
        } else {
            EXPECT_NE(r.err.find("an empty Tokenscope file"), std::string::npos)
                << "try " << i << ": " << r.err << sidecars(file);
        }
    }
    std::cout << with_run << " of " << kTries << " early kills held their run\n";
}

// A writer killed inside a rollback-journal transaction leaves a hot journal (a
// capture's file used to be switched to WAL that way, just after it got its name):
// a read-only connection cannot roll it back and said "attempt to write a readonly
// database". The file opens from a private copy, rolled back there, with its run as
// committed, and the user's file and journal are left as they were.
TEST_F(KilledCapture, HotRollbackJournalOpensAsCommitted) {
    const fs::path file = dir_ / "hot.tokenscope";
    auto made =
        run_shell(std::string(TOKENSCOPE_CLI) + " run --backend cpu --preset tiny " +
                  "--batch 1 --tokens 8 --prompt 4 --progress none --quiet --out " + file.string());
    ASSERT_EQ(made.status, 0) << made.err;
    ASSERT_FALSE(fs::exists(file.string() + "-wal"));  // a finished file is one file
    const auto before = info(file);
    ASSERT_TRUE(before.contains("runs"));
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // A transaction larger than the page cache spills into the file before its
        // commit; the process then dies without committing or rolling back.
        sqlite3* db = nullptr;
        if (sqlite3_open(file.c_str(), &db) != SQLITE_OK) _exit(3);
        const char* sql =
            "PRAGMA cache_size = 2; BEGIN; CREATE TABLE junk(x); "
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) "
            "INSERT INTO junk SELECT randomblob(4000) FROM n; DELETE FROM run;";
        _exit(sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK ? 0 : 4);
    }
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    const std::string journal = file.string() + "-journal";
    ASSERT_GT(fs::file_size(journal), 0u) << "no hot journal was left";
    const auto journal_bytes = fs::file_size(journal);
    const auto file_bytes = fs::file_size(file);
    auto j = info(file);
    ASSERT_TRUE(j.contains("runs")) << j.dump();
    ASSERT_EQ(j["runs"].size(), 1u);  // the uncommitted DELETE is rolled back
    EXPECT_EQ(j["runs"][0]["source"], "cpu");
    EXPECT_TRUE(j["runs"][0]["complete"]);
    EXPECT_EQ(j["runs"][0]["steps"], before["runs"][0]["steps"]);
    EXPECT_GT(j["runs"][0]["steps"].get<std::int64_t>(), 0);
    EXPECT_EQ(fs::file_size(journal), journal_bytes);  // nothing rolled back in the user's file
    EXPECT_EQ(fs::file_size(file), file_bytes);
}

// Read by a user who cannot write next to the file (a read-only directory, a
// -shm they do not own): the reader must use a private copy, not fail, and
// leave the directory as it was.
TEST_F(KilledCapture, OpensFromReadOnlyDirectory) {
    const fs::path file = dir_ / "ro.tokenscope";
    std::vector<std::string> a = kCpuArgs;
    a.insert(a.end(), {"--progress", "none", "--quiet", "--out", file.string()});
    run_and_kill(a, {}, 256 * 1024);
    ASSERT_TRUE(fs::exists(file.string() + "-wal"));
    fs::remove(file.string() + "-shm");
    fs::permissions(dir_, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
    for (const char* f : {"ro.tokenscope", "ro.tokenscope-wal"})
        fs::permissions(dir_ / f, fs::perms::owner_read | fs::perms::owner_write |
                                      fs::perms::group_read | fs::perms::others_read);
    // As root every directory is writable; run the reader as nobody where we can.
    std::string prefix;
    if (geteuid() == 0) {
        ASSERT_EQ(run_shell("command -v setpriv").status, 0) << "setpriv (util-linux) needed";
        prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
    } else {
        fs::permissions(dir_, fs::perms::owner_write, fs::perm_options::remove);
    }
    auto before = std::distance(fs::directory_iterator(dir_), fs::directory_iterator());
    auto j = info(file, prefix);
    check_killed(j, "cpu", true, 0);
    EXPECT_GT(j["runs"][0]["steps"].get<std::int64_t>(), 0);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), before)
        << "the reader wrote next to the user's file";
}

}  // namespace
