#include "api_names.h"

#include <cctype>
#include <cstring>

namespace tokenscope::capture::cupti {
namespace {

constexpr std::uint32_t kMaxCbid = 1u << 16;  // ids beyond this are garbage, not APIs

bool blocks(const std::string& name) {
    return name.find("Synchronize") != std::string::npos ||
           name.find("WaitEvent") != std::string::npos;
}

}  // namespace

std::string ApiNames::display_name(const char* cupti_name) {
    std::string name(cupti_name);
    // Runtime names end in "_v<CUDA version>" of 4 or more digits (cudaMalloc_v3020).
    const auto pos = name.rfind("_v");
    if (pos != std::string::npos && name.size() - pos >= 6 && name.rfind("cuda", 0) == 0) {
        bool digits = true;
        for (std::size_t i = pos + 2; i < name.size(); ++i)
            digits = digits && std::isdigit(static_cast<unsigned char>(name[i])) != 0;
        if (digits) name.resize(pos);
    }
    return name;
}

const ApiNames::Slot& ApiNames::resolve(CUpti_CallbackDomain domain, std::uint32_t cbid) {
    static const Slot kInvalid{};
    if (cbid >= kMaxCbid) return kInvalid;
    auto& slots = domain == CUPTI_CB_DOMAIN_DRIVER_API ? driver_ : runtime_;
    if (cbid >= slots.size()) slots.resize(cbid + 1);
    Slot& slot = slots[cbid];
    const char* raw = nullptr;
    std::string name;
    if (cuptiGetCallbackName(domain, cbid, &raw) == CUPTI_SUCCESS && raw != nullptr && *raw != '\0')
        name = display_name(raw);
    else
        name = std::string(domain == CUPTI_CB_DOMAIN_DRIVER_API ? "driver" : "runtime") + " API #" +
               std::to_string(cbid);
    slot.known = true;
    slot.sync = blocks(name);
    slot.id = writer_.intern(name);
    return slot;
}

// cuLaunchKernel nested in a runtime launch carries another id and simply finds no kernel.
bool ApiNames::is_kernel_launch(CUpti_CallbackDomain domain, std::uint32_t cbid) {
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        switch (cbid) {
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
            case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
            case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
            // Every kernel of a graph launch carries the launch call's correlation id.
            case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
            case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
                return true;
            default:
                return false;
        }
    }
    switch (cbid) {
        case CUPTI_DRIVER_TRACE_CBID_cuLaunch:
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
            return true;
        default:
            return false;
    }
}

}  // namespace tokenscope::capture::cupti
