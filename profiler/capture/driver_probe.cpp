#include "driver_probe.h"

#include <dlfcn.h>

#include <utility>

namespace tokenscope::capture {
namespace {

constexpr const char* kAdvice = "; use --backend cpu or --backend model";
constexpr int kErrorNoDevice = 100;  // CUDA_ERROR_NO_DEVICE

std::string error_text(const DriverApi& api, int code) {
    std::string text = std::to_string(code);
    const char* name = nullptr;
    if (api.cu_get_error_name != nullptr && api.cu_get_error_name(code, &name) == 0 &&
        name != nullptr)
        text += std::string(": ") + name;
    return text;
}

DriverStatus failure(std::string reason) {
    DriverStatus s;
    s.reason = std::move(reason) + kAdvice;
    return s;
}

template <typename Fn>
Fn symbol(void* handle, const char* name) {
    return reinterpret_cast<Fn>(dlsym(handle, name));
}

}  // namespace

DriverProbe::DriverProbe(std::string library) : library_(std::move(library)) {}

DriverStatus DriverProbe::probe() const {
    void* handle = dlopen(library_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        if (library_ == kDefaultLibrary) return failure("no NVIDIA driver found");
        return failure("no NVIDIA driver found (cannot load " + library_ + ")");
    }
    DriverApi api;
    api.cu_init = symbol<decltype(api.cu_init)>(handle, "cuInit");
    api.cu_driver_get_version =
        symbol<decltype(api.cu_driver_get_version)>(handle, "cuDriverGetVersion");
    api.cu_device_get_count = symbol<decltype(api.cu_device_get_count)>(handle, "cuDeviceGetCount");
    api.cu_get_error_name = symbol<decltype(api.cu_get_error_name)>(handle, "cuGetErrorName");
    if (api.cu_init == nullptr || api.cu_driver_get_version == nullptr ||
        api.cu_device_get_count == nullptr) {
        dlclose(handle);  // never initialised, so unloading is safe
        return failure(library_ +
                       " is not a usable NVIDIA driver (cuInit, cuDriverGetVersion "
                       "or cuDeviceGetCount missing)");
    }
    return check(api);
}

DriverStatus DriverProbe::check(const DriverApi& api) {
    if (api.cu_init == nullptr || api.cu_driver_get_version == nullptr ||
        api.cu_device_get_count == nullptr)
        return failure("NVIDIA driver entry points missing");
    DriverStatus status;
    // The version is readable even when cuInit fails; it makes the message useful.
    if (api.cu_driver_get_version(&status.driver_version) != 0) status.driver_version = 0;
    if (const int rc = api.cu_init(0); rc != 0) {
        std::string what = rc == kErrorNoDevice ? "NVIDIA driver found but no GPU"
                                                : "NVIDIA driver found but it failed to start";
        DriverStatus s = failure(what + " (cuInit error " + error_text(api, rc) + ")");
        s.driver_version = status.driver_version;
        return s;
    }
    if (const int rc = api.cu_device_get_count(&status.device_count); rc != 0) {
        DriverStatus s = failure(
            "NVIDIA driver found but cannot count GPUs (cuDeviceGetCount "
            "error " +
            error_text(api, rc) + ")");
        s.driver_version = status.driver_version;
        return s;
    }
    if (status.device_count <= 0) {
        DriverStatus s = failure("NVIDIA driver found but no GPU");
        s.driver_version = status.driver_version;
        return s;
    }
    status.ok = true;
    return status;
}

}  // namespace tokenscope::capture
