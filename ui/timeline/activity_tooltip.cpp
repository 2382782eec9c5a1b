#include "activity_tooltip.h"

#include <array>
#include <cstdint>

#include "ui/plots/tooltip_text.h"

namespace tokenscope::ui {
namespace {

QString view_of(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString dims(const std::array<std::uint32_t, 3>& d) {
    return QStringLiteral("(%1, %2, %3)").arg(d[0]).arg(d[1]).arg(d[2]);
}

}  // namespace

QString ActivityTooltip::html(const TimelineIndex& index, std::int64_t origin_ns, std::size_t i,
                              plots::TimeUnit unit) {
    const auto& run = index.run();
    if (i >= run.activities.size()) return {};
    const auto& a = run.activities[i];
    QString kind = view_of(trace::to_string(a.kind));
    if (a.copy != trace::CopyKind::None)
        kind += QLatin1Char(' ') + view_of(trace::to_string(a.copy)).toUpper();
    QString text = QStringLiteral("<b>%1</b><br>%2 on %3<br>start %4<br>duration %5")
                       .arg(plots::breakable_html(view_of(run.name_of(a))), kind,
                            plots::breakable_html(QString::fromStdString(run.lanes[a.lane].name)),
                            plots::TimeFormat::duration(a.start_ns - origin_ns, unit),
                            plots::TimeFormat::duration(a.duration_ns(), unit));
    if (a.bytes > 0) text += QStringLiteral("<br>bytes %1").arg(plots::TimeFormat::bytes(a.bytes));
    if (a.flops > 0)
        text += QStringLiteral("<br>FLOPs %1").arg(static_cast<double>(a.flops), 0, 'g', 4);
    if (a.correlation != 0) text += QStringLiteral("<br>correlation %1").arg(a.correlation);
    if (a.kind == trace::ActivityKind::Kernel)
        if (auto launch = run.launches.find(a.correlation))
            text += QStringLiteral("<br>") + launchText(*launch);
    return text + graphText(index, i);
}

// One cudaGraphLaunch runs many kernels on its correlation id: the call says how many,
// a kernel which graph and node it ran as.
QString ActivityTooltip::graphText(const TimelineIndex& index, std::size_t i) {
    const auto& run = index.run();
    const auto& a = run.activities[i];
    QString text;
    if (auto node = run.graphs.find(a)) {
        text +=
            node->whole_graph()
                ? QStringLiteral("<br>CUDA graph %1 (one activity per launch)").arg(node->graph_id)
                : QStringLiteral("<br>CUDA graph %1, node %2")
                      .arg(node->graph_id)
                      .arg(static_cast<qulonglong>(node->node_id));
    }
    if (a.kind == trace::ActivityKind::Api && a.correlation != 0) {
        const std::size_t work = index.correlated_all(i, TimelineIndex::kLinkWindowNs).size();
        if (work > 1) text += QStringLiteral("<br>launches %1 GPU activities").arg(work);
    }
    return text;
}

QString ActivityTooltip::launchText(const trace::KernelLaunch& l) {
    // Shared memory in exact bytes: occupancy limits are exact byte counts, and
    // "48 KiB" would hide whether a kernel sits just over one.
    return QStringLiteral("grid %1 \u00b7 block %2 \u00b7 %3 regs \u00b7 %4 B shared")
        .arg(dims(l.grid), dims(l.block))
        .arg(l.registers_per_thread)
        .arg(l.shared_bytes);
}

}  // namespace tokenscope::ui
