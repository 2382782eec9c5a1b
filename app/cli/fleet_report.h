#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "fleet/fleet_matrix.h"

namespace tokenscope::cli {

// The fleet matrix for a person: quantile per row and window in ms (column headers
// are window ends, UTC), the SLA and the section 6 flag, then the section 13
// calibration per row. From /metrics scrapes: the windows between them or "since
// the server started", the scrapes with where their times came from, and the
// counter resets as "warning:" lines after the table.
void print_fleet_text(const fleet::FleetMatrix& m, const std::string& source, std::ostream& out);

// docs/cli.md, JSON: times in integer ns in keys ending _ns (values in ns as
// numbers), blank cells null; from scrapes, a "snapshot" object (docs/fleet.md).
nlohmann::json fleet_json(const fleet::FleetMatrix& m, const std::string& source);

}  // namespace tokenscope::cli
