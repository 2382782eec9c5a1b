#pragma once

#include <string>
#include <utility>
#include <vector>

#include "arg_parser.h"

namespace tokenscope::cli {

// How big an exported image is: --size WxH and --dpi N.
struct ImageSize {
    int width = 0, height = 0, dpi = 0;
};

// --size and --dpi, for commands whose image files have options of their own names.
void add_image_size_options(ArgParser& p);
// Throws UsageError, naming `command`, for a --size that is not WxH of positive numbers.
ImageSize image_size_from(const ArgParser& p, const std::string& command);

// --png, --svg, --pdf FILE (the heatmap of `heatmap` and `fleet`) and the size options.
void add_image_options(ArgParser& p);
// The (format, file) pairs given, in the order png, svg, pdf.
std::vector<std::pair<std::string, std::string>> image_files(const ArgParser& p);

}  // namespace tokenscope::cli
