#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "store/run_writer.h"

namespace tokenscope::capture::cupti {

// Interned, demangled kernel names. CUPTI shares one name pointer among all records
// of a kernel, so the cache is keyed by the pointer: one demangle per kernel, then a
// hash lookup per record. (A module unloaded and another loaded at the same address
// could reuse a pointer; decode workloads keep their modules for the whole run.)
class KernelNames {
  public:
    explicit KernelNames(store::RunWriter& writer) : writer_(writer) {}

    std::uint32_t name(const char* mangled) {
        if (mangled == last_ptr_) return last_id_;
        auto it = ids_.find(mangled);
        if (it == ids_.end()) it = ids_.emplace(mangled, intern(mangled)).first;
        last_ptr_ = mangled;
        last_id_ = it->second;
        return last_id_;
    }

    // The demangled text of an id this cache interned; empty for any other id.
    std::string_view text(std::uint32_t id) const {
        auto it = texts_.find(id);
        return it == texts_.end() ? std::string_view() : std::string_view(it->second);
    }

  private:
    std::uint32_t intern(const char* mangled);

    store::RunWriter& writer_;
    std::unordered_map<const char*, std::uint32_t> ids_;
    std::unordered_map<std::uint32_t, std::string> texts_;  // once per kernel, not per record
    const char* last_ptr_ = nullptr;
    std::uint32_t last_id_ = 0;
};

}  // namespace tokenscope::capture::cupti
