#pragma once

#include <stdexcept>
#include <string>

namespace tokenscope::trace {

// A problem with one file, worded "FILE: problem" so a CLI prints it as one line
// ("run.tokenscope: not a Tokenscope file (application_id 0x0)").
class FileError : public std::runtime_error {
  public:
    FileError(const std::string& path, const std::string& problem)
        : std::runtime_error(path + ": " + problem), path_(path), problem_(problem) {}
    const std::string& path() const { return path_; }
    const std::string& problem() const { return problem_; }

  private:
    std::string path_;
    std::string problem_;
};

}  // namespace tokenscope::trace
