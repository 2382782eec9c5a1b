// libtokenscope_inject.so loaded the way the CUDA driver loads it (dlopen, then
// InitializeInjection), on a machine without a driver: it must fail cleanly,
// print one line, write no run, and leave the process running.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "capture/capture_command.h"
#include "capture/driver_probe.h"
#include "store/store_reader.h"

namespace tokenscope::capture {
namespace {

namespace fs = std::filesystem;
using InitFn = int (*)();

class InjectLibrary : public ::testing::Test {
  protected:
    void SetUp() override {
        if (DriverProbe().probe().ok) GTEST_SKIP() << "this machine has an NVIDIA driver";
        path_ = find_inject_library();
        if (path_.empty()) GTEST_SKIP() << "libtokenscope_inject.so not built (no CUDA toolkit)";
        out_ = fs::temp_directory_path() /
               ("inject_test_" + std::to_string(getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".tokenscope");
        fs::remove(out_);
    }
    void TearDown() override {
        for (const char* s : {"", "-wal", "-shm"}) fs::remove(out_.string() + s);
        unsetenv("TOKENSCOPE_CAPTURE_OUT");
        unsetenv("TOKENSCOPE_STEPS_REGEX");
        unsetenv("TOKENSCOPE_COMMAND_JSON");
    }

    // Loads the library like the driver does; the handle stays open: a real
    // injection is never unloaded either.
    InitFn entry_point() {
        void* h = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
        EXPECT_NE(h, nullptr) << dlerror();
        if (!h) return nullptr;
        auto fn = reinterpret_cast<InitFn>(dlsym(h, "InitializeInjection"));
        EXPECT_NE(fn, nullptr) << "InitializeInjection not exported";
        return fn;
    }

    std::string path_;
    fs::path out_;
};

TEST_F(InjectLibrary, ExportsOnlyTheEntryPoint) {
    void* h = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(h, nullptr) << dlerror();
    EXPECT_NE(dlsym(h, "InitializeInjection"), nullptr);
    // Its static libraries must not leak symbols into the traced program.
    EXPECT_EQ(dlsym(h, "_ZN10tokenscope5store11StoreWriterD1Ev"), nullptr);
}

TEST_F(InjectLibrary, WithoutDriverReturnsZeroAndWritesNoRun) {
    InitFn init = entry_point();
    ASSERT_NE(init, nullptr);
    setenv("TOKENSCOPE_CAPTURE_OUT", out_.c_str(), 1);
    setenv("TOKENSCOPE_STEPS_REGEX", "^step", 1);
    setenv("TOKENSCOPE_COMMAND_JSON", R"({"command":["./prog"],"cwd":"/"})", 1);
    ::testing::internal::CaptureStderr();
    const int rc = init();
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(rc, 0);
    EXPECT_EQ(err, "tokenscope inject: no NVIDIA driver found; not tracing\n");
    if (fs::exists(out_)) {
        store::StoreReader reader(out_.string());
        for (const auto& r : reader.runs()) EXPECT_FALSE(r.info.complete);
    }
    // A second call (a second cuInit) neither crashes nor retries.
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(init(), 0);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

// Runs only as a fresh child process (see below), so the library's one-shot state
// is untouched by the tests above.
TEST(InjectChild, EntryPointWithoutConfiguration) {
    if (!std::getenv("INJECT_TEST_CHILD")) GTEST_SKIP() << "only runs as a child process";
    void* h = dlopen(find_inject_library().c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(h, nullptr) << dlerror();
    auto init = reinterpret_cast<InitFn>(dlsym(h, "InitializeInjection"));
    ASSERT_NE(init, nullptr);
    EXPECT_EQ(init(), 0);
}

TEST(InjectLibraryAlone, WithoutConfigurationSaysSoAndReturnsZero) {
    if (find_inject_library().empty())
        GTEST_SKIP() << "libtokenscope_inject.so not built (no CUDA toolkit)";
    const std::string cmd = "env -u TOKENSCOPE_CAPTURE_OUT INJECT_TEST_CHILD=1 " +
                            fs::read_symlink("/proc/self/exe").string() +
                            " --gtest_filter=InjectChild.* 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    while (std::size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    const int status = pclose(p);
    ASSERT_TRUE(WIFEXITED(status)) << "the process that loaded the library crashed:\n" << out;
    EXPECT_EQ(WEXITSTATUS(status), 0) << out;
    EXPECT_NE(out.find("tokenscope inject: TOKENSCOPE_CAPTURE_OUT is not set (run through "
                       "tokenscope-cli capture); not tracing\n"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("[  PASSED  ] 1 test"), std::string::npos) << out;
}

}  // namespace
}  // namespace tokenscope::capture
