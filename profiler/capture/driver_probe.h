#pragma once

#include <string>

namespace tokenscope::capture {

// What the probe learnt about the local NVIDIA driver.
struct DriverStatus {
    bool ok = false;
    std::string reason;      // one line, empty when ok: why the GPU backends cannot run
    int driver_version = 0;  // e.g. 13000 for 13.0; 0 when unknown
    int device_count = 0;
};

// The three driver entry points the probe needs, as the driver exports them
// (CUresult is an int-sized enum). Tests pass fakes to check every outcome.
struct DriverApi {
    int (*cu_init)(unsigned int flags) = nullptr;
    int (*cu_driver_get_version)(int* version) = nullptr;
    int (*cu_device_get_count)(int* count) = nullptr;
    int (*cu_get_error_name)(int error, const char** name) = nullptr;  // optional
};

// Looks for a usable driver and GPU without linking libcuda (docs/capture.md, Without a GPU):
// dlopen + dlsym at run time, so the binaries start on machines without a driver.
class DriverProbe {
  public:
    static constexpr const char* kDefaultLibrary = "libcuda.so.1";

    // `library` may name another file for tests (a missing or a fake driver).
    explicit DriverProbe(std::string library = kDefaultLibrary);

    // Loads the library and runs check(). A library that was initialised is kept
    // loaded: unloading a driver after cuInit is not supported by NVIDIA.
    DriverStatus probe() const;

    // cuInit(0), cuDriverGetVersion, cuDeviceGetCount through `api`.
    static DriverStatus check(const DriverApi& api);

  private:
    std::string library_;
};

}  // namespace tokenscope::capture
