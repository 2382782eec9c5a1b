// The cuda backend shell: availability order (build support, then driver), delegation
// to the installed runner, and the finish/abandon contract around it.
#include "capture/cuda/cuda_backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "capture/backend_registry.h"
#include "capture/memory_run_writer.h"

namespace tokenscope::capture {
namespace {

int g_runs = 0;

void fake_runner(const CaptureConfig& config, store::RunWriter& writer,
                 const trace::ProgressFn& progress) {
    ++g_runs;
    writer.add_lane({trace::LaneKind::CpuThread, -1, 1, 1, config.model});
    if (progress && !progress(1, 1)) throw trace::Cancelled();
}

void failing_runner(const CaptureConfig&, store::RunWriter&, const trace::ProgressFn&) {
    throw std::runtime_error("kernel launch failed");
}

DriverStatus working_driver() {
    DriverStatus s;
    s.ok = true;
    s.device_count = 1;
    return s;
}

DriverStatus no_gpu() {
    DriverStatus s;
    s.reason = "NVIDIA driver found but no GPU; use --backend cpu or --backend model";
    return s;
}

class CudaBackendTest : public ::testing::Test {
  protected:
    void SetUp() override {
        saved_ = cuda_runner();
        g_runs = 0;
    }
    void TearDown() override { set_cuda_runner(saved_); }
    CudaRunner saved_ = nullptr;
};

TEST_F(CudaBackendTest, WithoutRunnerTheBuildHasNoCudaSupport) {
    set_cuda_runner(nullptr);
    CudaBackend backend(working_driver);
    EXPECT_EQ(backend.name(), "cuda");
    const Availability a = backend.available();
    EXPECT_FALSE(a.ok);
    EXPECT_NE(a.reason.find("this build has no CUDA support"), std::string::npos) << a.reason;
}

TEST_F(CudaBackendTest, NoDriverMakesItUnavailableAndRunThrowsTheReason) {
    set_cuda_runner(fake_runner);
    CudaBackend backend(no_gpu);
    EXPECT_FALSE(backend.available().ok);
    EXPECT_EQ(backend.available().reason, no_gpu().reason);
    MemoryRunWriter writer;
    try {
        backend.run({}, writer, {});
        FAIL() << "expected runtime_error";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), no_gpu().reason);
    }
    EXPECT_TRUE(writer.abandoned());
    EXPECT_FALSE(writer.finished());
    EXPECT_EQ(g_runs, 0);
}

TEST_F(CudaBackendTest, RealProbeOnThisMachineGivesAOneLineReason) {
    set_cuda_runner(fake_runner);
    const Availability a = CudaBackend().available();
    if (a.ok) GTEST_SKIP() << "a working NVIDIA driver and GPU are present";
    EXPECT_NE(a.reason.find("use --backend cpu or --backend model"), std::string::npos);
    EXPECT_EQ(a.reason.find('\n'), std::string::npos);
}

TEST_F(CudaBackendTest, AvailableBackendDelegatesAndFinishes) {
    set_cuda_runner(fake_runner);
    CudaBackend backend(working_driver);
    EXPECT_TRUE(backend.available().ok);
    EXPECT_EQ(backend.available().reason, "");
    MemoryRunWriter writer;
    CaptureConfig config;
    config.model = "tiny";
    backend.run(config, writer, {});
    EXPECT_EQ(g_runs, 1);
    EXPECT_TRUE(writer.finished());
    EXPECT_FALSE(writer.abandoned());
    ASSERT_EQ(writer.data().lanes.size(), 1u);
    EXPECT_EQ(writer.data().lanes[0].name, "tiny");
}

TEST_F(CudaBackendTest, RunnerFailureAbandonsTheRun) {
    set_cuda_runner(failing_runner);
    MemoryRunWriter writer;
    EXPECT_THROW(CudaBackend(working_driver).run({}, writer, {}), std::runtime_error);
    EXPECT_TRUE(writer.abandoned());
    EXPECT_FALSE(writer.finished());
}

TEST_F(CudaBackendTest, CancelAbandonsTheRun) {
    set_cuda_runner(fake_runner);
    MemoryRunWriter writer;
    EXPECT_THROW(CudaBackend(working_driver).run({}, writer, [](auto, auto) { return false; }),
                 trace::Cancelled);
    EXPECT_TRUE(writer.abandoned());
}

TEST_F(CudaBackendTest, RegistryListsAndMakesTheCudaBackend) {
    const auto names = backend_names();
    EXPECT_NE(std::find(names.begin(), names.end(), "cuda"), names.end());
    auto backend = make_backend("cuda");
    ASSERT_NE(backend, nullptr);
    EXPECT_EQ(backend->name(), "cuda");
}

}  // namespace
}  // namespace tokenscope::capture
