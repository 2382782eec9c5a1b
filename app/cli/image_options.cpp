#include "image_options.h"

#include <cstdio>

namespace tokenscope::cli {
namespace {

constexpr const char* kFormats[] = {"png", "svg", "pdf"};

}  // namespace

void add_image_size_options(ArgParser& p) {
    p.option("size", "WxH", "image size in pixels", "1600x900");
    p.option("dpi", "N", "image resolution", "96");
}

ImageSize image_size_from(const ArgParser& p, const std::string& command) {
    ImageSize s;
    char x = 0;
    const std::string text = p.get("size");
    if (std::sscanf(text.c_str(), "%d%c%d", &s.width, &x, &s.height) != 3 || x != 'x' ||
        s.width <= 0 || s.height <= 0)
        throw UsageError{command + ": --size expects WxH such as 1600x900, got '" + text + "'"};
    s.dpi = static_cast<int>(p.get_int("dpi"));
    return s;
}

void add_image_options(ArgParser& p) {
    p.option("png", "FILE", "also render the heatmap as a PNG image");
    p.option("svg", "FILE", "also render the heatmap as an SVG image");
    p.option("pdf", "FILE", "also render the heatmap as a PDF page");
    add_image_size_options(p);
}

std::vector<std::pair<std::string, std::string>> image_files(const ArgParser& p) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const char* format : kFormats)
        if (p.has(format)) out.emplace_back(format, p.get(format));
    return out;
}

}  // namespace tokenscope::cli
