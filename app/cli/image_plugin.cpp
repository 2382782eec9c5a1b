#include "image_plugin.h"

#include <dlfcn.h>

#include <filesystem>
#include <stdexcept>
#include <vector>

namespace tokenscope::cli {
namespace {

namespace fs = std::filesystem;

// Where the module may be: beside the program (the build tree), then where the
// package installs it (bin/../lib/tokenscope).
std::vector<fs::path> module_paths() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    const fs::path dir = ec ? fs::path(".") : exe.parent_path();
    return {dir / kImageModuleName, dir / "../lib/tokenscope" / kImageModuleName};
}

const ImagePlugin& load() {
    std::string tried;
    for (const fs::path& path : module_paths()) {
        std::error_code ec;
        if (!fs::exists(path, ec)) {
            tried += (tried.empty() ? "" : ", ") + path.string();
            continue;
        }
        // Never closed: Qt's statics must outlive every image, to the process's end.
        void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr)
            throw std::runtime_error("cannot load the image module " + path.string() + ": " +
                                     ::dlerror());
        using Entry = const ImagePlugin* (*)();
        auto entry = reinterpret_cast<Entry>(::dlsym(handle, kImagePluginEntry));
        if (entry == nullptr || entry() == nullptr)
            throw std::runtime_error("the image module " + path.string() + " has no " +
                                     kImagePluginEntry);
        return *entry();
    }
    throw std::runtime_error(std::string("images need ") + kImageModuleName +
                             ", which is not installed (looked for " + tried + ")");
}

}  // namespace

const ImagePlugin& image_plugin() {
    static const ImagePlugin& plugin = load();
    return plugin;
}

}  // namespace tokenscope::cli
