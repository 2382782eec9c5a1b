#include "string_table.h"

namespace tokenscope::trace {

StringTable::StringTable() {
    strings_.emplace_back();
    index_.emplace(std::string_view(strings_.front()), 0);
}

StringTable::StringTable(const StringTable& other) : strings_(other.strings_) {
    rebuild_index();
}

StringTable& StringTable::operator=(const StringTable& other) {
    if (this != &other) {
        strings_ = other.strings_;
        rebuild_index();
    }
    return *this;
}

void StringTable::rebuild_index() {
    index_.clear();
    index_.reserve(strings_.size());
    for (std::uint32_t i = 0; i < strings_.size(); ++i) index_.emplace(strings_[i], i);
}

std::uint32_t StringTable::intern(std::string_view text) {
    if (auto it = index_.find(text); it != index_.end()) return it->second;
    auto id = static_cast<std::uint32_t>(strings_.size());
    strings_.emplace_back(text);
    index_.emplace(std::string_view(strings_.back()), id);
    return id;
}

std::uint32_t StringTable::find(std::string_view text) const {
    auto it = index_.find(text);
    return it == index_.end() ? kAbsent : it->second;
}

std::string_view StringTable::str(std::uint32_t id) const {
    return id < strings_.size() ? std::string_view(strings_[id]) : std::string_view();
}

void StringTable::assign(std::uint32_t id, std::string_view text) {
    if (id == 0) return;
    while (strings_.size() <= id) strings_.emplace_back();
    // An id may only be written once; gaps filled above are empty until assigned.
    strings_[id] = std::string(text);
    index_.emplace(std::string_view(strings_[id]), id);
}

}  // namespace tokenscope::trace
