#include "backend_registry.h"

#include "model_backend.h"

namespace tokenscope::capture {

std::vector<std::string> backend_names() {
    return {"model"};
}

std::unique_ptr<Backend> make_backend(std::string_view name) {
    if (name == "model") return std::make_unique<ModelBackend>();
    return nullptr;
}

}  // namespace tokenscope::capture
