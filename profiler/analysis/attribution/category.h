#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tokenscope::analysis {

// docs/attribution.md, Categories and priority: when several are active at one instant
// the lowest value wins that nanosecond.
enum class Category : std::uint8_t { GpuCompute, GpuMemory, Nvlink, Pcie, Cpu, Scheduling };
inline constexpr std::size_t kCategoryCount = 6;
inline constexpr std::array<Category, kCategoryCount> kCategories = {
    Category::GpuCompute, Category::GpuMemory, Category::Nvlink,
    Category::Pcie,       Category::Cpu,       Category::Scheduling};

// "gpu_compute", "gpu_memory", "nvlink", "pcie", "cpu", "scheduling"
std::string_view to_string(Category c);
std::optional<Category> category_from_string(std::string_view text);
// What a person reads, in the GUI and the CLI's text tables: "GPU compute", "GPU memory",
// "NVLink / xGMI" (AMD's xGMI counts as NVLink), "PCIe", "CPU", "Scheduling". CSV and JSON
// keep the keys of to_string(): scripts read those.
std::string_view display_name(Category c);

using CategoryNs = std::array<std::int64_t, kCategoryCount>;

}  // namespace tokenscope::analysis
