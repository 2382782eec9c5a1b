#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backend.h"

namespace tokenscope::capture {

// The backends this build knows, by name ("model"; later "cuda", "inject", "cpu").
std::vector<std::string> backend_names();
// nullptr for an unknown name.
std::unique_ptr<Backend> make_backend(std::string_view name);

}  // namespace tokenscope::capture
