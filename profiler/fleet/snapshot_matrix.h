#pragma once

#include <vector>

#include "fleet_matrix.h"
#include "metrics_snapshot.h"

namespace tokenscope::fleet {

// The fleet matrix from scrapes of one server's /metrics, each with its time
// (docs/fleet.md, Snapshots). One scrape gives one window, since the server started:
// its cumulative buckets as they stand, summed by (le, spec.by), the cell their
// quantile as histogram_quantile(q, sum by (le, LABEL) (METRIC_bucket)) gives it.
// Several give a window between each scrape and the next, the cell the quantile of
// the differences of the cumulative buckets. A series one of whose buckets (or
// _count) went down, or whose _created changed, was reset (the server restarted):
// its window takes the later scrape's counts, those since the restart, and a
// diagnostic names the series, both scrapes and the bucket. A series absent from
// the earlier scrape counts from zero; one absent from the later adds nothing.
// Scrapes are sorted by time; two at one time are a FleetError naming both.
FleetMatrix snapshot_matrix(std::vector<Scrape> scrapes, const FleetSpec& spec);

}  // namespace tokenscope::fleet
