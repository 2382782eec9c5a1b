#include "launch_format.h"

#include <array>
#include <cstdint>

namespace tokenscope::ui {
namespace {

QString dims(const std::array<std::uint32_t, 3>& d) {
    return QStringLiteral("(%1, %2, %3)").arg(d[0]).arg(d[1]).arg(d[2]);
}

}  // namespace

QString LaunchFormat::text(const trace::KernelLaunch& l) {
    // Shared memory in exact bytes: occupancy limits are exact byte counts, and
    // "48 KiB" would hide whether a kernel sits just over one.
    return QStringLiteral("grid %1 \u00b7 block %2 \u00b7 %3 regs \u00b7 %4 B shared")
        .arg(dims(l.grid), dims(l.block))
        .arg(l.registers_per_thread)
        .arg(l.shared_bytes);
}

}  // namespace tokenscope::ui
