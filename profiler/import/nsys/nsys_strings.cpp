#include "nsys_strings.h"

#include <cctype>

#include "nsys_database.h"

namespace tokenscope::import {
namespace {

constexpr std::uint32_t kUnset = trace::StringTable::kAbsent;

std::string strip_api_version(const std::string& name) {
    auto pos = name.rfind("_v");
    if (pos == std::string::npos || pos + 2 == name.size()) return name;
    for (std::size_t i = pos + 2; i < name.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(name[i]))) return name;
    return name.substr(0, pos);
}

}  // namespace

std::string anonymous_namespace_spelling(std::string name) {
    static const std::string kNsys = "<unnamed>::", kCupti = "(anonymous namespace)::";
    for (auto at = name.find(kNsys); at != std::string::npos; at = name.find(kNsys, at)) {
        // Only a whole scope: "a::<unnamed>::" or a leading "<unnamed>::".
        if (at == 0 || (at >= 2 && name.compare(at - 2, 2, "::") == 0)) {
            name.replace(at, kNsys.size(), kCupti);
            at += kCupti.size();
        } else {
            at += kNsys.size();
        }
    }
    return name;
}

NsysStrings::NsysStrings(const NsysDatabase& db, trace::StringTable& table) : table_(table) {
    if (!db.has_table("StringIds")) return;
    db.for_each_row("SELECT id, value FROM StringIds", [this](sqlite3_stmt* s) {
        std::int64_t id = sqlite3_column_int64(s, 0);
        // Ids are dense from 0 in every export seen; a wild id is skipped, not allocated.
        if (id < 0 || id > (std::int64_t{1} << 26)) return true;
        auto i = static_cast<std::size_t>(id);
        if (text_.size() <= i) text_.resize(i + 1);
        const auto* v = sqlite3_column_text(s, 1);
        if (v != nullptr) text_[i] = anonymous_namespace_spelling(reinterpret_cast<const char*>(v));
        return true;
    });
    ids_.assign(text_.size(), kUnset);
    api_ids_.assign(text_.size(), kUnset);
}

const std::string& NsysStrings::text(std::int64_t nsys_id) const {
    if (nsys_id >= 0 && static_cast<std::size_t>(nsys_id) < text_.size())
        return text_[static_cast<std::size_t>(nsys_id)];
    return missing_;
}

std::uint32_t NsysStrings::intern(std::int64_t nsys_id) {
    if (nsys_id < 0 || static_cast<std::size_t>(nsys_id) >= text_.size())
        return table_.intern("<unknown string " + std::to_string(nsys_id) + ">");
    auto& slot = ids_[static_cast<std::size_t>(nsys_id)];
    if (slot == kUnset) slot = table_.intern(text_[static_cast<std::size_t>(nsys_id)]);
    return slot;
}

std::uint32_t NsysStrings::intern_api(std::int64_t nsys_id) {
    if (nsys_id < 0 || static_cast<std::size_t>(nsys_id) >= text_.size()) return intern(nsys_id);
    auto& slot = api_ids_[static_cast<std::size_t>(nsys_id)];
    if (slot == kUnset)
        slot = table_.intern(strip_api_version(text_[static_cast<std::size_t>(nsys_id)]));
    return slot;
}

}  // namespace tokenscope::import
