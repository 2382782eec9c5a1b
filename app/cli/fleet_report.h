#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "fleet/fleet_matrix.h"

namespace tokenscope::cli {

// The fleet matrix for a person: quantile per row and window in ms (column headers
// are window ends, UTC), the SLA and the section 6 flag, then the section 13
// calibration per row.
void print_fleet_text(const fleet::FleetMatrix& m, const std::string& source, std::ostream& out);

// docs/cli.md, JSON: times in integer ns in keys ending _ns (values in ns as
// numbers), blank cells null.
nlohmann::json fleet_json(const fleet::FleetMatrix& m, const std::string& source);

}  // namespace tokenscope::cli
