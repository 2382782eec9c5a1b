#pragma once

#include <iosfwd>

#include "fleet_matrix.h"

namespace tokenscope::fleet {

inline constexpr const char* kAlertName = "TokenscopeFleetSLA";
inline constexpr std::size_t kAlertForWindows = 3;

// A Prometheus alerting rules file (promtool check rules accepts it): one group, one
// rule per row with a threshold, all named TokenscopeFleetSLA with the labels
// severity="warning" and the row's (by="value"); expr = row_quantile_query(row) > threshold in
// seconds (the settled calibration's, else the row's SLA), `for:` three windows. A row still
// settling keeps its old threshold and says so in a comment.
void write_alert_rules(const FleetMatrix& matrix, std::ostream& out);

}  // namespace tokenscope::fleet
