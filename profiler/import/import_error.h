#pragma once

#include <stdexcept>
#include <string>

namespace tokenscope::import {

// "trace.json.gz: truncated gzip stream at byte 1234": file first, then the problem.
class ImportError : public std::runtime_error {
  public:
    ImportError(const std::string& path, const std::string& problem)
        : std::runtime_error(path + ": " + problem), path_(path), problem_(problem) {}
    const std::string& path() const { return path_; }
    const std::string& problem() const { return problem_; }

  private:
    std::string path_;
    std::string problem_;
};

}  // namespace tokenscope::import
