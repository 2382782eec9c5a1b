#pragma once

#include <QString>
#include <cstdint>

namespace tokenscope::ui::plots {

// The unit every view shows durations in (View > Units).
enum class TimeUnit { Milliseconds, Microseconds };

// Text for durations, bytes and shares, so all views print numbers alike.
class TimeFormat {
  public:
    static double ns_per_unit(TimeUnit unit);
    static QString suffix(TimeUnit unit);
    // "1.234 ms" / "1234.5 us": three significant decimals in the chosen unit.
    static QString duration(std::int64_t ns, TimeUnit unit);
    // A timestamp relative to the run's origin, with as many decimals as the tick step needs.
    static QString tick(std::int64_t ns, std::int64_t step_ns, TimeUnit unit);
    static QString bytes(std::uint64_t bytes);
    // A counter lane's value: rates of lanes named "... bytes/s" in SI units
    // ("494 MB/s", as link bandwidths are quoted), other counters with 3 digits.
    static QString counter(double value, const QString& lane_name);
    static QString share(double fraction);
    static QString to_settings(TimeUnit unit);
    static TimeUnit from_settings(const QString& text);
};

}  // namespace tokenscope::ui::plots
