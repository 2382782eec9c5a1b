#include "category_colors.h"

namespace tokenscope::ui::plots {

using analysis::Category;

QColor CategoryColors::color(Category category) {
    switch (category) {
        case Category::GpuCompute:
            return QColor(0x00, 0x9E, 0x73);  // bluish green
        case Category::GpuMemory:
            return QColor(0xE6, 0x9F, 0x00);  // orange
        case Category::Nvlink:
            return QColor(0xCC, 0x79, 0xA7);  // reddish purple
        case Category::Pcie:
            return QColor(0x56, 0xB4, 0xE9);  // sky blue
        case Category::Cpu:
            return QColor(0xD5, 0x5E, 0x00);  // vermillion
        case Category::Scheduling:
            return QColor(0x99, 0x99, 0x99);  // grey
    }
    return QColor(0x99, 0x99, 0x99);
}

QColor CategoryColors::copy_color(trace::CopyKind kind) {
    switch (kind) {
        case trace::CopyKind::H2D:
            return color(Category::Pcie);
        case trace::CopyKind::D2H:
            return QColor(0x00, 0x72, 0xB2);  // the darker blue of PCIe
        case trace::CopyKind::D2D:
            return color(Category::GpuMemory);
        case trace::CopyKind::P2P:
            return color(Category::Nvlink);
        case trace::CopyKind::H2H:
            return color(Category::Cpu).lighter(130);
        case trace::CopyKind::None:
            break;
    }
    return color(Category::Pcie);
}

QColor CategoryColors::host_color(trace::ActivityKind kind) {
    switch (kind) {
        case trace::ActivityKind::Api:
            return color(Category::Cpu);
        case trace::ActivityKind::Sync:
            return QColor(0xB0, 0x3A, 0x2E);
        case trace::ActivityKind::Range:
            return QColor(0x7A, 0x86, 0xB8);
        case trace::ActivityKind::Marker:
            return QColor(0xF0, 0xE4, 0x42);
        default:
            break;
    }
    return color(Category::Scheduling);
}

QString CategoryColors::label(Category category) {
    return QString::fromUtf8(analysis::display_name(category).data(),
                             static_cast<qsizetype>(analysis::display_name(category).size()));
}

QColor CategoryColors::text_on(const QColor& fill) {
    // Relative luminance weights of sRGB; 0.55 keeps white text off the orange and sky blue.
    const double y = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return y > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

}  // namespace tokenscope::ui::plots
