#include "pm_metric_catalog.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace tokenscope::capture::cupti {

namespace {

// Each probe creates a CUPTI host object; a few per slot is plenty.
constexpr std::size_t kMaxCandidates = 4;

const char* slot_label(PmSampler::Metric slot) {
    static const char* const kLabels[] = {"PCIe read", "PCIe write", "NVLink RX", "NVLink TX"};
    return kLabels[static_cast<std::size_t>(slot)];
}

// The base part of a metric name, lower-cased: "PCIE__Read_Bytes.sum" -> "pcie__read_bytes".
std::string base_key(std::string_view name) {
    name = name.substr(0, name.find('.'));
    std::string key(name);
    std::transform(key.begin(), key.end(), key.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return key;
}

bool has(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

std::string join(const std::vector<std::string>& parts, const char* separator) {
    std::string out;
    for (const std::string& p : parts) {
        if (!out.empty()) out += separator;
        out += p;
    }
    return out;
}

}  // namespace

PmMetricCatalog::PmMetricCatalog(std::string chip, std::vector<std::string> base_metrics)
    : chip_(std::move(chip)), base_(std::move(base_metrics)) {}

PmMetricCatalog PmMetricCatalog::unlisted(std::string chip, std::string why) {
    PmMetricCatalog catalog(std::move(chip), {});
    catalog.listed_ = false;
    catalog.list_error_ = std::move(why);
    return catalog;
}

bool PmMetricCatalog::matches(Metric slot, std::string_view base_name) {
    const std::string n = base_key(base_name);
    if (!has(n, "bytes")) return false;
    const bool nvl = has(n, "nvl");
    switch (slot) {
        case Metric::PcieRead:
            return has(n, "pcie") && (has(n, "read") || has(n, "rx"));
        case Metric::PcieWrite:
            return has(n, "pcie") && (has(n, "write") || has(n, "tx"));
        case Metric::NvlinkRx:
            return has(n, "nvlrx") || (nvl && has(n, "rx"));
        case Metric::NvlinkTx:
            return has(n, "nvltx") || (nvl && has(n, "tx"));
    }
    return false;
}

std::vector<std::string> PmMetricCatalog::candidates(Metric slot) const {
    const std::string constant = PmSampler::kMetricNames[static_cast<std::size_t>(slot)];
    if (!listed_) return {constant};
    const std::string constant_key = base_key(constant);
    std::vector<std::string> out;
    std::vector<std::string> matched;
    for (const std::string& name : base_) {
        if (base_key(name) == constant_key)
            out.insert(out.begin(), constant);
        else if (matches(slot, name))
            matched.push_back(std::string(name.substr(0, name.find('.'))) + ".sum");
    }
    // Shortest first: extra qualifiers (per-port, per-kind) usually mean a narrower count.
    std::stable_sort(
        matched.begin(), matched.end(),
        [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
    for (std::string& m : matched)
        if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(std::move(m));
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (out.size() > kMaxCandidates) out.resize(kMaxCandidates);
    return out;
}

std::vector<std::string> PmMetricCatalog::interconnect_metrics(std::size_t limit) const {
    std::vector<std::string> out;
    for (const std::string& name : base_) {
        if (out.size() >= limit) break;
        const std::string key = base_key(name);
        if (has(key, "pcie") || has(key, "nvl")) out.push_back(name);
    }
    return out;
}

void PmMetricCatalog::record_probe(Metric slot, const std::string& name, const std::string& why) {
    Slot& s = slots_[static_cast<std::size_t>(slot)];
    if (why.empty()) {
        if (s.active.empty()) s.active = name;
        return;
    }
    s.tried.push_back(name + ": " + why);
}

const std::string& PmMetricCatalog::active(Metric slot) const {
    return slots_[static_cast<std::size_t>(slot)].active;
}

bool PmMetricCatalog::any_active() const {
    return std::any_of(slots_.begin(), slots_.end(),
                       [](const Slot& s) { return !s.active.empty(); });
}

std::string PmMetricCatalog::off_reason(Metric slot) const {
    const Slot& s = slots_[static_cast<std::size_t>(slot)];
    return s.tried.empty() ? std::string("no base metric matched") : join(s.tried, "; ");
}

std::string PmMetricCatalog::listing() const {
    if (!listed_) return "the chip's base metrics could not be listed: " + list_error_;
    const std::vector<std::string> found = interconnect_metrics(base_.size());
    if (found.empty())
        return "the chip lists " + std::to_string(base_.size()) +
               " base metrics, none with pcie/nvl";
    std::vector<std::string> shown(
        found.begin(),
        found.begin() + static_cast<std::ptrdiff_t>(std::min(found.size(), kMaxListed)));
    std::string text = "the chip's base metrics with pcie/nvl: " + join(shown, ", ");
    if (found.size() > shown.size())
        text += " (+" + std::to_string(found.size() - shown.size()) + " more)";
    return text;
}

std::string PmMetricCatalog::summary() const {
    std::vector<std::string> on;
    std::vector<std::string> off;
    for (std::size_t i = 0; i < PmSampler::kMetricCount; ++i) {
        const auto slot = static_cast<Metric>(i);
        if (!slots_[i].active.empty())
            on.push_back(slots_[i].active + " (" + slot_label(slot) + ")");
        else
            off.push_back(std::string(slot_label(slot)) + " (" + off_reason(slot) + ")");
    }
    std::string text = "PM sampling metrics on " + chip_ + ": active " +
                       (on.empty() ? std::string("none") : join(on, ", "));
    if (!off.empty()) text += "; off: " + join(off, ", ") + "; " + listing();
    return text;
}

std::string PmMetricCatalog::failure() const {
    std::vector<std::string> tried;
    std::string first_error;
    for (const Slot& s : slots_)
        for (const std::string& t : s.tried) {
            const std::size_t colon = t.find(": ");
            tried.push_back(t.substr(0, colon));
            if (first_error.empty()) first_error = t.substr(colon + 2);
        }
    // One error for all names would point at CUPTI itself rather than the names.
    const std::string what = tried.empty() ? std::string("nothing: no base metric matched")
                                           : join(tried, ", ") + "; first error: " + first_error;
    return "no PCIe/NVLink PM-sampling metric on " + chip_ + " (tried " + what + "); " + listing();
}

}  // namespace tokenscope::capture::cupti
