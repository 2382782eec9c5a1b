#pragma once

#include <cupti_activity.h>

namespace tokenscope::capture::cupti {

// CUPTI versions its record structs; the buffer holds the layout of the CUPTI the
// program runs with, which is the one it was built against (libcupti.so.13). The
// CMake file builds this module only for CUDA 13 or newer.
#if CUPTI_API_VERSION >= 130000
using KernelRecord = CUpti_ActivityKernel10;
using MemcpyRecord = CUpti_ActivityMemcpy6;
using PeerCopyRecord = CUpti_ActivityMemcpyPtoP4;
using MemsetRecord = CUpti_ActivityMemset4;
using ApiRecord = CUpti_ActivityAPI;
using SyncRecord = CUpti_ActivitySynchronization2;
using OverheadRecord = CUpti_ActivityOverhead3;
using MarkerRecord = CUpti_ActivityMarker2;
using ExternalCorrelationRecord = CUpti_ActivityExternalCorrelation;
#else
#error "tokenscope's CUPTI decoder needs CUDA 13 (CUPTI_API_VERSION >= 130000)"
#endif

// The external correlation kind the cuda runner tags each plan entry's CUDA calls with
// (KernelPlanMatcher). PyTorch's Kineto uses CUSTOM0 and CUSTOM1; this one stays apart.
constexpr CUpti_ExternalCorrelationKind kPlanEntryTagKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2;

}  // namespace tokenscope::capture::cupti
