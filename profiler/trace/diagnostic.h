#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tokenscope::trace {

enum class Severity : std::uint8_t { Info, DataLoss, Error };

// A named counter of an import or capture problem (Perfetto's stats idea):
// nothing is dropped silently, it is counted here with a severity.
struct Diagnostic {
    std::string name;
    Severity severity = Severity::Info;
    double value = 0.0;
    std::string text;

    bool operator==(const Diagnostic&) const = default;
};

std::string_view to_string(Severity severity);
std::optional<Severity> severity_from_string(std::string_view text);

}  // namespace tokenscope::trace
