#include "category.h"

#include <array>

namespace tokenscope::analysis {
namespace {

// Indexed by Category value; parsing searches the same table so both directions agree.
constexpr std::array<std::string_view, kCategoryCount> kNames = {
    "gpu_compute", "gpu_memory", "nvlink", "pcie", "cpu", "scheduling"};

}  // namespace

std::string_view display_name(Category c) {
    switch (c) {
        case Category::GpuCompute:
            return "GPU compute";
        case Category::GpuMemory:
            return "GPU memory";
        case Category::Nvlink:
            return "NVLink / xGMI";
        case Category::Pcie:
            return "PCIe";
        case Category::Cpu:
            return "CPU";
        case Category::Scheduling:
            return "Scheduling";
    }
    return "?";
}

std::string_view to_string(Category c) {
    auto i = static_cast<std::size_t>(c);
    return i < kCategoryCount ? kNames[i] : std::string_view("?");
}

std::optional<Category> category_from_string(std::string_view text) {
    for (std::size_t i = 0; i < kCategoryCount; ++i)
        if (kNames[i] == text) return static_cast<Category>(i);
    return std::nullopt;
}

}  // namespace tokenscope::analysis
