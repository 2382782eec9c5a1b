#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tokenscope::trace {

// Interns names so activities carry a 4-byte id. Id 0 is the empty string.
// Ids are local to one run; comparing runs remaps them by text.
class StringTable {
  public:
    StringTable();
    StringTable(const StringTable& other);
    StringTable& operator=(const StringTable& other);
    StringTable(StringTable&&) noexcept = default;
    StringTable& operator=(StringTable&&) noexcept = default;

    std::uint32_t intern(std::string_view text);
    // Looks up without inserting; returns nullopt-like UINT32_MAX when absent.
    std::uint32_t find(std::string_view text) const;
    std::string_view str(std::uint32_t id) const;
    std::size_t size() const { return strings_.size(); }
    // Places a string at a given id (the store reads ids back as written).
    void assign(std::uint32_t id, std::string_view text);

    static constexpr std::uint32_t kAbsent = 0xffffffffu;

  private:
    void rebuild_index();

    std::deque<std::string> strings_;  // deque: views into it stay valid as it grows
    std::unordered_map<std::string_view, std::uint32_t> index_;
};

}  // namespace tokenscope::trace
