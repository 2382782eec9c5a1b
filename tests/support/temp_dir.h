#pragma once
// A fresh directory of its own under the system's temporary directory, removed
// with everything in it when the object goes: tests never share or leave files.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace tokenscope::test {

class TempDir {
  public:
    explicit TempDir(const std::string& prefix = "tokenscope-test") {
        std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed for " + tmpl);
        dir_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        // Tests may leave a read-only subdirectory behind (permission errors).
        for (const auto& e : std::filesystem::recursive_directory_iterator(dir_, ec))
            std::filesystem::permissions(e.path(), std::filesystem::perms::owner_all,
                                         std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(dir_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return dir_; }
    // The path of `name` inside the directory (not created).
    std::string file(const std::string& name) const { return (dir_ / name).string(); }
    // Writes `bytes` to `name` inside the directory and returns its path.
    std::string write(const std::string& name, const std::string& bytes) const {
        const std::string p = file(name);
        std::ofstream(p, std::ios::binary) << bytes;
        return p;
    }

  private:
    std::filesystem::path dir_;
};

}  // namespace tokenscope::test
