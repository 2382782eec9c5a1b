// The driver probe, through fake driver entry points and through real dlopen
// failures (this build machine has no NVIDIA driver).
#include "capture/driver_probe.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

namespace tokenscope::capture {
namespace {

int init_ok(unsigned) {
    return 0;
}
int init_no_device(unsigned) {
    return 100;
}
int init_unknown(unsigned) {
    return 999;
}
int version_13000(int* v) {
    *v = 13000;
    return 0;
}
int count_two(int* c) {
    *c = 2;
    return 0;
}
int count_zero(int* c) {
    *c = 0;
    return 0;
}
int count_fails(int*) {
    return 3;
}
int error_name(int code, const char** name) {
    *name = code == 100 ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_NOT_INITIALIZED";
    return 0;
}

DriverApi api(int (*init)(unsigned), int (*count)(int*)) {
    DriverApi a;
    a.cu_init = init;
    a.cu_driver_get_version = version_13000;
    a.cu_device_get_count = count;
    a.cu_get_error_name = error_name;
    return a;
}

TEST(DriverProbeTest, WorkingDriverReportsVersionAndDevices) {
    const DriverStatus s = DriverProbe::check(api(init_ok, count_two));
    EXPECT_TRUE(s.ok);
    EXPECT_EQ(s.reason, "");
    EXPECT_EQ(s.driver_version, 13000);
    EXPECT_EQ(s.device_count, 2);
}

TEST(DriverProbeTest, CuInitNoDeviceSaysNoGpuWithTheErrorCode) {
    const DriverStatus s = DriverProbe::check(api(init_no_device, count_two));
    EXPECT_FALSE(s.ok);
    EXPECT_EQ(s.reason,
              "NVIDIA driver found but no GPU (cuInit error 100: CUDA_ERROR_NO_DEVICE); use "
              "--backend cpu or --backend model");
    EXPECT_EQ(s.driver_version, 13000);
    EXPECT_EQ(s.device_count, 0);
}

TEST(DriverProbeTest, OtherCuInitErrorWithoutErrorNames) {
    DriverApi a = api(init_unknown, count_two);
    a.cu_get_error_name = nullptr;
    const DriverStatus s = DriverProbe::check(a);
    EXPECT_FALSE(s.ok);
    EXPECT_EQ(s.reason,
              "NVIDIA driver found but it failed to start (cuInit error 999); use --backend cpu "
              "or --backend model");
}

TEST(DriverProbeTest, ZeroDevicesIsNoGpu) {
    const DriverStatus s = DriverProbe::check(api(init_ok, count_zero));
    EXPECT_FALSE(s.ok);
    EXPECT_EQ(s.reason, "NVIDIA driver found but no GPU; use --backend cpu or --backend model");
}

TEST(DriverProbeTest, DeviceCountErrorIsReported) {
    const DriverStatus s = DriverProbe::check(api(init_ok, count_fails));
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.reason.find("cuDeviceGetCount error 3"), std::string::npos) << s.reason;
}

TEST(DriverProbeTest, MissingEntryPointsAreRejected) {
    DriverApi a = api(init_ok, count_two);
    a.cu_init = nullptr;
    EXPECT_FALSE(DriverProbe::check(a).ok);
}

TEST(DriverProbeTest, MissingLibraryNamesIt) {
    const DriverStatus s = DriverProbe("libtokenscope_no_such_driver.so.1").probe();
    EXPECT_FALSE(s.ok);
    EXPECT_EQ(s.reason,
              "no NVIDIA driver found (cannot load libtokenscope_no_such_driver.so.1); use "
              "--backend cpu or --backend model");
}

TEST(DriverProbeTest, LibraryWithoutDriverSymbolsIsNotADriver) {
    const DriverStatus s = DriverProbe("libm.so.6").probe();
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.reason.find("libm.so.6 is not a usable NVIDIA driver"), std::string::npos)
        << s.reason;
}

TEST(DriverProbeTest, DefaultProbeOnAMachineWithoutDriver) {
    void* handle = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (handle != nullptr) {
        dlclose(handle);
        GTEST_SKIP() << "libcuda.so.1 is installed here; the no-driver message is not reachable";
    }
    const DriverStatus s = DriverProbe().probe();
    EXPECT_FALSE(s.ok);
    EXPECT_EQ(s.reason, "no NVIDIA driver found; use --backend cpu or --backend model");
}

}  // namespace
}  // namespace tokenscope::capture
