// `tokenscope-cli capture` without a GPU: the no-driver exit, and the whole
// fork/exec path with a stand-in injection library (any existing file: a program
// that makes no CUDA calls never loads it).
#include "capture/capture_command.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "store/store_reader.h"
#include "store/store_writer.h"

namespace tokenscope::capture {
namespace {

namespace fs = std::filesystem;

const char* const kNoDriver = "no NVIDIA driver found; use --backend cpu or --backend model";

fs::path self_exe() {
    return fs::read_symlink("/proc/self/exe");
}

class CaptureCommand : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("capture_command_test_" + std::to_string(getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // Options that get past the driver check and find an "injection library".
    CaptureCommandOptions with_driver(std::vector<std::string> argv) {
        CaptureCommandOptions o;
        o.out = (dir_ / "out.tokenscope").string();
        o.argv = std::move(argv);
        o.probe = [] {
            DriverStatus s;
            s.ok = true;
            s.device_count = 1;
            return s;
        };
        o.inject_library = self_exe().string();
        o.cupti_library = "/nonexistent/libcupti.so";
        o.log = &log_;
        return o;
    }

    fs::path dir_;
    std::ostringstream log_;
};

TEST_F(CaptureCommand, NoDriverExitsThreeWithTheProbeMessage) {
    CaptureCommandOptions o;
    o.out = (dir_ / "x.tokenscope").string();
    o.argv = {"true"};
    o.probe = [] {
        DriverStatus s;
        s.reason = kNoDriver;
        return s;
    };
    o.log = &log_;
    EXPECT_EQ(run_capture(o), 3);
    EXPECT_EQ(log_.str(), std::string("capture: ") + kNoDriver + "\n");
    EXPECT_FALSE(fs::exists(o.out)) << "nothing may be written without a driver";
}

TEST_F(CaptureCommand, RealProbeOnThisMachine) {
    if (DriverProbe().probe().ok) GTEST_SKIP() << "this machine has an NVIDIA driver";
    CaptureCommandOptions o;
    o.out = (dir_ / "x.tokenscope").string();
    o.argv = {"true"};
    o.pm_sampling = true;
    o.log = &log_;
    EXPECT_EQ(run_capture(o), 3);
    EXPECT_NE(log_.str().find("no NVIDIA driver found"), std::string::npos) << log_.str();
    EXPECT_NE(log_.str().find("--pm-sampling: CUPTI PM sampling unavailable"), std::string::npos)
        << log_.str();
}

TEST_F(CaptureCommand, CliBinaryExitsThreeWithoutDriver) {
    if (DriverProbe().probe().ok) GTEST_SKIP() << "this machine has an NVIDIA driver";
    const fs::path cli = self_exe().parent_path() / "../../app/cli/tokenscope-cli";
    if (!fs::exists(cli)) GTEST_SKIP() << "tokenscope-cli not built at " << cli;
    const std::string err = (dir_ / "err.txt").string();
    const std::string help = cli.string() + " --help > " + (dir_ / "help.txt").string();
    ASSERT_EQ(std::system(help.c_str()), 0);
    std::ifstream h(dir_ / "help.txt");
    std::string text((std::istreambuf_iterator<char>(h)), {});
    if (text.find("capture") == std::string::npos)
        GTEST_SKIP() << "this tokenscope-cli has no capture command yet";
    const std::string cmd =
        cli.string() + " capture --out " + (dir_ / "c.tokenscope").string() + " -- true 2> " + err;
    const int rc = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(rc));
    EXPECT_EQ(WEXITSTATUS(rc), 3);
    std::ifstream e(err);
    std::string message((std::istreambuf_iterator<char>(e)), {});
    EXPECT_NE(message.find(kNoDriver), std::string::npos) << message;
}

TEST_F(CaptureCommand, UsageErrorsExitOne) {
    auto o = with_driver({});
    EXPECT_EQ(run_capture(o), 1);
    EXPECT_NE(log_.str().find("no command given"), std::string::npos);
    o = with_driver({"true"});
    o.out.clear();
    EXPECT_EQ(run_capture(o), 1);
    EXPECT_NE(log_.str().find("--out FILE is required"), std::string::npos);
}

TEST_F(CaptureCommand, PassesTheCommandsExitStatusThrough) {
    auto o = with_driver({"sh", "-c", "exit 7"});
    EXPECT_EQ(run_capture(o), 7);
    EXPECT_NE(log_.str().find("capture: the command made no CUDA calls; no run written"),
              std::string::npos)
        << log_.str();
    EXPECT_FALSE(fs::exists(o.out)) << "an empty store the capture created is removed";
}

TEST_F(CaptureCommand, ASignalBecomes128PlusItsNumber) {
    auto o = with_driver({"sh", "-c", "kill -TERM $$"});
    EXPECT_EQ(run_capture(o), 128 + 15);
}

TEST_F(CaptureCommand, MissingProgramIsBadInputNamingIt) {
    auto o = with_driver({"/nonexistent/program"});
    EXPECT_EQ(run_capture(o), 1);
    EXPECT_NE(log_.str().find("cannot run '/nonexistent/program': No such file or directory"),
              std::string::npos)
        << log_.str();
}

TEST_F(CaptureCommand, MissingInjectionLibraryIsAnInternalError) {
    auto o = with_driver({"true"});
    o.inject_library = "/nonexistent/libtokenscope_inject.so";
    EXPECT_EQ(run_capture(o), 2);
    EXPECT_NE(log_.str().find("libtokenscope_inject.so not found"), std::string::npos);
}

TEST_F(CaptureCommand, ForeignOutputFileIsRejectedBeforeRunning) {
    auto o = with_driver({"sh", "-c", "touch " + (dir_ / "ran").string()});
    std::ofstream(o.out) << "this is not a tokenscope store, just text long enough to matter";
    EXPECT_EQ(run_capture(o), 1);
    EXPECT_NE(log_.str().find(o.out), std::string::npos) << log_.str();
    EXPECT_FALSE(fs::exists(dir_ / "ran")) << "the command must not run";
}

TEST_F(CaptureCommand, ChildSeesTheInjectionEnvironment) {
    const fs::path dump = dir_ / "env.txt";
    auto o = with_driver({"sh", "-c", "env > " + dump.string()});
    o.steps_regex = "^step [0-9]+$";
    EXPECT_EQ(run_capture(o), 0);
    std::ifstream in(dump);
    std::map<std::string, std::string> env;
    for (std::string line; std::getline(in, line);)
        if (auto eq = line.find('='); eq != std::string::npos)
            env[line.substr(0, eq)] = line.substr(eq + 1);
    EXPECT_EQ(env["CUDA_INJECTION64_PATH"], self_exe().string());
    EXPECT_EQ(env["NVTX_INJECTION64_PATH"], "/nonexistent/libcupti.so");
    EXPECT_EQ(env["TOKENSCOPE_CAPTURE_OUT"], fs::absolute(o.out).lexically_normal().string());
    EXPECT_EQ(env["TOKENSCOPE_STEPS_REGEX"], "^step [0-9]+$");
    EXPECT_EQ(env["TOKENSCOPE_PM_SAMPLING"], "0");
    auto j = nlohmann::json::parse(env["TOKENSCOPE_COMMAND_JSON"]);
    EXPECT_EQ(j["command"], nlohmann::json({"sh", "-c", "env > " + dump.string()}));
    EXPECT_EQ(j["cwd"], fs::current_path().string());
    EXPECT_EQ(env.count("PATH"), 1u) << "the rest of the environment is kept";
}

// Plays the injected program: when run by the capture tests below, it writes a
// run the way libtokenscope_inject.so would; otherwise it does nothing.
TEST(CaptureChild, WritesRunWhenLaunchedByCapture) {
    const char* out = std::getenv("TOKENSCOPE_CAPTURE_OUT");
    const char* mode = std::getenv("CAPTURE_TEST_CHILD");
    if (!out || !mode) GTEST_SKIP() << "only runs as the child of CaptureCommand tests";
    store::StoreWriter store(out);
    trace::RunInfo info;
    info.source = trace::Source::Inject;
    info.workload_json = std::getenv("TOKENSCOPE_COMMAND_JSON");
    auto w = store.begin_run(info);
    auto lane = w->add_lane({trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"});
    for (int i = 0; i < 3; ++i) {
        trace::Activity a;
        a.lane = lane;
        a.start_ns = 100 * i;
        a.end_ns = 100 * i + 50;
        a.name = w->intern("k");
        w->add_activity(a);
    }
    w->add_step({0, 0, trace::Phase::Iteration, 0, 150, 0});
    w->add_step({0, 1, trace::Phase::Iteration, 150, 300, 0});
    w->flush();
    if (std::string(mode) == "killed") _exit(9);  // before finish(): an incomplete run
    w->finish();
    SUCCEED();
}

TEST_F(CaptureCommand, ReportsTheRunTheProgramWrote) {
    // A run already in the file is not mistaken for the new one.
    {
        store::StoreWriter s((dir_ / "out.tokenscope").string());
        s.begin_run({})->finish();
    }
    setenv("CAPTURE_TEST_CHILD", "ok", 1);
    auto o = with_driver({self_exe().string(), "--gtest_filter=CaptureChild.*"});
    const int rc = run_capture(o);
    unsetenv("CAPTURE_TEST_CHILD");
    EXPECT_EQ(rc, 0) << log_.str();
    store::StoreReader reader(o.out);
    auto runs = reader.runs();
    ASSERT_EQ(runs.size(), 2u);
    const auto& r = runs.back();
    EXPECT_NE(log_.str().find("capture: wrote run " + std::to_string(r.info.id) + " to " + o.out +
                              ": 3 activities, 2 steps"),
              std::string::npos)
        << log_.str();
    EXPECT_TRUE(r.info.complete);
    EXPECT_EQ(nlohmann::json::parse(r.info.workload_json)["command"][1],
              "--gtest_filter=CaptureChild.*");
}

TEST_F(CaptureCommand, ReportsAnIncompleteRun) {
    setenv("CAPTURE_TEST_CHILD", "killed", 1);
    auto o = with_driver({self_exe().string(), "--gtest_filter=CaptureChild.*"});
    const int rc = run_capture(o);
    unsetenv("CAPTURE_TEST_CHILD");
    EXPECT_EQ(rc, 9);
    EXPECT_NE(log_.str().find("is incomplete: the program ended before the trace was flushed"),
              std::string::npos)
        << log_.str();
}

TEST(CaptureHelpers, InjectLibraryOverrideAndPmSamplingWithoutDriver) {
    setenv("TOKENSCOPE_INJECT_LIB", "/proc/self/exe", 1);
    std::vector<std::string> searched;
    EXPECT_EQ(find_inject_library(&searched), "/proc/self/exe");
    unsetenv("TOKENSCOPE_INJECT_LIB");
    searched.clear();
    find_inject_library(&searched);
    ASSERT_FALSE(searched.empty());
    EXPECT_NE(searched.back().find("profiler/capture/inject/libtokenscope_inject.so"),
              std::string::npos);
    EXPECT_EQ(pm_sampling_problem(false), "CUPTI PM sampling unavailable: no NVIDIA driver found");
}

}  // namespace
}  // namespace tokenscope::capture
