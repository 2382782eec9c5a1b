#pragma once

#include <stdexcept>
#include <string>

namespace tokenscope::store {

// Every message names the file and the problem, ready for a one-line CLI error
// such as "run.tokenscope: not a Tokenscope file (application_id 0x0)".
class StoreError : public std::runtime_error {
public:
    StoreError(const std::string& path, const std::string& problem)
        : std::runtime_error(path + ": " + problem), path_(path), problem_(problem) {}
    const std::string& path() const { return path_; }
    const std::string& problem() const { return problem_; }

private:
    std::string path_;
    std::string problem_;
};

}  // namespace tokenscope::store
