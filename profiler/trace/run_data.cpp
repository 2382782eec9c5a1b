#include "run_data.h"

namespace tokenscope::trace {

void RunData::count_diagnostic(std::string_view name, Severity severity, double value,
                               std::string_view text) {
    for (auto& d : diagnostics) {
        if (d.name == name) {
            d.value += value;
            if (severity > d.severity) d.severity = severity;
            return;
        }
    }
    diagnostics.push_back(Diagnostic{std::string(name), severity, value, std::string(text)});
}

}  // namespace tokenscope::trace
