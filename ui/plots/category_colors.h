#pragma once

#include <QColor>
#include <QString>

#include "analysis/attribution/category.h"
#include "trace/activity.h"

namespace tokenscope::ui::plots {

// The one palette of attribution categories, used by every view and plot.
// Okabe-Ito hues: distinguishable with colour-blindness and mid-luminance,
// so they read on light and dark window palettes alike.
class CategoryColors {
  public:
    static QColor color(analysis::Category category);
    // Copies by direction; each shares its hue with the category it is attributed to.
    static QColor copy_color(trace::CopyKind kind);
    // Host activities (API calls, syncs, ranges, markers), which have no GPU category.
    static QColor host_color(trace::ActivityKind kind);
    static QString label(analysis::Category category);
    // Black or white, whichever reads better on `fill`.
    static QColor text_on(const QColor& fill);
};

}  // namespace tokenscope::ui::plots
