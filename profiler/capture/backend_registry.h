#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backend.h"

namespace tokenscope::capture {

// The backend a run uses when the user names none: the cost model, which runs on any
// machine (`tokenscope-cli run` and `sweep`, and the GUI's run dialog).
inline constexpr const char* kDefaultBackend = "model";

// The backends this build knows, by name (model, cpu, cuda).
std::vector<std::string> backend_names();
// nullptr for an unknown name.
std::unique_ptr<Backend> make_backend(std::string_view name);

}  // namespace tokenscope::capture
