// What libcupti does on a machine without an NVIDIA driver, and that the tracer and
// the cuda runner fail there with clear errors rather than crashing.
#include <cupti.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "capture/cuda/cuda_backend.h"
#include "capture/cupti/api_names.h"
#include "capture/cupti/cuda_runner.h"
#include "capture/cupti/cupti_error.h"
#include "capture/cupti/cupti_tracer.h"
#include "capture/memory_run_writer.h"

namespace tokenscope::capture::cupti {
namespace {

bool driver_present() {
    void* h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (h != nullptr) dlclose(h);
    return h != nullptr;
}

TEST(CuptiLibraryTest, LoadsAndReportsItsVersionWithoutADriver) {
    std::uint32_t version = 0;
    ASSERT_EQ(cuptiGetVersion(&version), CUPTI_SUCCESS);
    // The library the tests run with is the one the layouts were chosen for.
    EXPECT_EQ(version, static_cast<std::uint32_t>(CUPTI_API_VERSION));
}

TEST(CuptiLibraryTest, CallbackNamesNeedNoDriver) {
    const char* name = nullptr;
    ASSERT_EQ(cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API,
                                   CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &name),
              CUPTI_SUCCESS);
    EXPECT_STREQ(name, "cudaLaunchKernel_v7000");
    EXPECT_EQ(ApiNames::display_name("cudaLaunchKernel_v7000"), "cudaLaunchKernel");
    EXPECT_EQ(ApiNames::display_name("cudaMemcpyAsync_v3020"), "cudaMemcpyAsync");
    EXPECT_EQ(ApiNames::display_name("cuMemcpyHtoD_v2"), "cuMemcpyHtoD_v2");
    EXPECT_EQ(ApiNames::display_name("cudaGraphLaunch"), "cudaGraphLaunch");
}

TEST(CuptiLibraryTest, ErrorsNameTheCallAndCuptisText) {
    const CuptiError e("cuptiActivityEnable", CUPTI_ERROR_NOT_INITIALIZED);
    EXPECT_EQ(std::string(e.what()),
              "CUPTI: cuptiActivityEnable failed: CUPTI_ERROR_NOT_INITIALIZED (15)");
    EXPECT_EQ(e.result(), CUPTI_ERROR_NOT_INITIALIZED);
}

TEST(CuptiTracerTest, StartFailsCleanlyWithoutADriverAndCanBeRetried) {
    if (driver_present()) GTEST_SKIP() << "an NVIDIA driver is installed; tests/gpu covers it";
    MemoryRunWriter writer;
    CuptiTracer tracer;
    EXPECT_THROW(tracer.start(writer), CuptiError);
    EXPECT_FALSE(tracer.running());
    // The failed start left no tracer registered: a second try fails the same way
    // (a logic_error here would mean the process-wide slot leaked).
    EXPECT_THROW(tracer.start(writer), CuptiError);
    EXPECT_TRUE(writer.data().activities.empty());
    tracer.stop();  // not running: nothing to do, no throw
}

TEST(CudaRunnerTest, InstalledRunnerFailsCleanlyHere) {
    const CudaRunner saved = cuda_runner();
    install_cuda_runner();
    EXPECT_EQ(cuda_runner(), &run_traced_workload);
    if (cuda_workload_built() && driver_present())
        GTEST_SKIP() << "a driver is present; tests/gpu runs the workload";
    MemoryRunWriter writer;
    CaptureConfig config;
    config.model = "tiny";
    try {
        run_traced_workload(config, writer, {});
        FAIL() << "expected an exception";
    } catch (const std::runtime_error& e) {
        // Without the workload: its own message; with it but no driver: a CUDA error.
        if (!cuda_workload_built())
            EXPECT_EQ(std::string(e.what()), "built-in CUDA workload not available in this build");
        else
            EXPECT_NE(std::string(e.what()), "");
    }
    set_cuda_runner(saved);
}

}  // namespace
}  // namespace tokenscope::capture::cupti
