#pragma once

#include <string>

namespace tokenscope::capture::inject {

// What `tokenscope-cli capture` hands the injected library through the
// environment of the traced program (the CUDA driver passes no arguments).
struct InjectConfig {
    std::string out;           // TOKENSCOPE_CAPTURE_OUT: the .tokenscope file
    std::string steps_regex;   // TOKENSCOPE_STEPS_REGEX: NVTX ranges that frame steps
    std::string command_json;  // TOKENSCOPE_COMMAND_JSON: {"command": [...], "cwd": ...}
    bool pm_sampling = false;  // TOKENSCOPE_PM_SAMPLING=1
    std::string warning;       // a problem that does not stop the capture (a bad regex)

    // Reads the variables; `problem` gets one line when the capture cannot go on.
    static InjectConfig from_environment(std::string* problem);
    // "capture: prog arg ..." from the command JSON, or "capture" when it has none.
    std::string run_name() const;
};

}  // namespace tokenscope::capture::inject
