#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "driver_probe.h"

namespace tokenscope::capture {

// `tokenscope-cli capture`: runs any CUDA program with the injection library
// (CUDA_INJECTION64_PATH) so its work is traced into a run (docs/capture.md, Backends).
struct CaptureCommandOptions {
    std::string out;                      // the .tokenscope file the run is added to
    std::string steps_regex;              // NVTX ranges matching it become steps; empty: none
    std::vector<std::string> argv;        // the command and its arguments
    bool pm_sampling = false;             // CUPTI PM sampling (privileged users only)
    std::string inject_library;           // empty: find_inject_library()
    std::string cupti_library;            // empty: find_cupti_library()
    std::function<DriverStatus()> probe;  // empty: DriverProbe on libcuda.so.1
    std::ostream* log = nullptr;          // progress lines; null: std::cerr
};

// Exit statuses (docs/cli.md, Exit status) that run_capture returns itself; otherwise
// it returns the command's own status (128 + N when signal N ended it).
inline constexpr int kCaptureBadInput = 1;
inline constexpr int kCaptureInternal = 2;
inline constexpr int kCaptureNoDriver = 3;

// Checks the driver (status 3 and the probe's message without one), the output
// file (status 1 naming it), runs the command traced, waits, and reports whether
// a complete run was written. Never throws.
int run_capture(const CaptureCommandOptions& options);

inline constexpr const char* kInjectLibraryName = "libtokenscope_inject.so";

// $TOKENSCOPE_INJECT_LIB, else libtokenscope_inject.so next to the running
// executable, in ../lib[/tokenscope] or in the build tree; empty when none exists.
// `searched` (optional) receives the places looked at, for the error message.
std::string find_inject_library(std::vector<std::string>* searched = nullptr);
// $TOKENSCOPE_CUPTI_LIB, else libcupti.so from $CUDA_HOME or /usr/local/cuda; empty if none.
std::string find_cupti_library();
// Why CUPTI PM sampling cannot run here, or empty when it may (driver present and
// profiling not restricted to admins, or running as root).
std::string pm_sampling_problem(bool driver_ok);
// The command line as the run's workload JSON: {"command": [...], "cwd": "..."}.
std::string command_json(const std::vector<std::string>& argv);

}  // namespace tokenscope::capture
