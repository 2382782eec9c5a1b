#include "fixed_names.h"

namespace tokenscope::capture::cupti {

FixedNames::FixedNames(store::RunWriter& writer) {
    for (const char* n :
         {"Memcpy (unknown direction)", "Memcpy HtoD", "Memcpy DtoH", "Memcpy DtoD", "Memcpy PtoP",
          "Memcpy HtoH", "Synchronization", "Event synchronize", "Stream wait event",
          "Stream synchronize", "Context synchronize", "Memset"})
        ids_.push_back(writer.intern(n));
}

trace::CopyKind FixedNames::copy_kind(std::uint8_t cupti_kind) {
    using trace::CopyKind;
    switch (cupti_kind) {
        case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
        case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
            return CopyKind::H2D;
        case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
        case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
            return CopyKind::D2H;
        case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
        case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
        case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
        case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
            return CopyKind::D2D;
        case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
            return CopyKind::H2H;
        case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
            return CopyKind::P2P;
        default:
            return CopyKind::None;
    }
}

const char* FixedNames::overhead_name(CUpti_ActivityOverheadKind kind) {
    switch (kind) {
        case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
            return "driver JIT compilation";
        case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
            return "CUPTI buffer flush";
        case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
            return "CUPTI instrumentation";
        case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
            return "CUPTI resource";
        case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
            return "module loading";
        case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
            return "lazy function loading";
        case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
            return "command buffer full";
        case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
            return "CUPTI buffer request";
        case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT:
            return "UVM activity init";
        default:
            return "unknown";
    }
}

}  // namespace tokenscope::capture::cupti
