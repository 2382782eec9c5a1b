#pragma once

#include <optional>
#include <string_view>

namespace tokenscope::fleet {

// A Prometheus sample value or bucket bound as servers and exporters write it (Go's
// strconv.FormatFloat): a decimal ("12", "1e-3"), "NaN", "+Inf", "Inf" or "-Inf"; a
// value past double's range is an infinity. nullopt for anything else.
std::optional<double> parse_sample_value(std::string_view text);

}  // namespace tokenscope::fleet
