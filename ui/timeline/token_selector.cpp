#include "token_selector.h"

#include <algorithm>

#include "analysis/join/slow_tokens.h"
#include "analysis/kernel_name.h"
#include "timeline_view.h"
#include "ui/plots/time_format.h"

namespace tokenscope::ui {
namespace {

QString details_html(const analysis::SlowToken& t, plots::TimeUnit unit) {
    QString html =
        QStringLiteral("<b>%1</b>")
            .arg(QString::fromStdString(analysis::describe_slow_token(t)).toHtmlEscaped());
    if (t.has_window())
        html += QStringLiteral("<br>%1 %2")
                    .arg(t.iteration_step >= 0 ? QObject::tr("iteration") : QObject::tr("its step"),
                         plots::TimeFormat::duration(t.window_end_ns - t.window_start_ns, unit));
    for (const auto& k : t.kernels)
        html +=
            QStringLiteral("<br>%1: %2 (%3)")
                .arg(QString::fromStdString(analysis::short_kernel_name(k.name)).toHtmlEscaped(),
                     plots::TimeFormat::duration(k.ns, unit),
                     QString::fromUtf8(analysis::to_string(k.category).data()));
    return html;
}

}  // namespace

TokenSelector::TokenSelector(TimelineView* view) : QObject(view), view_(view) {
    connect(view_, &TimelineView::tokenClicked, this, &TokenSelector::select);
}

bool TokenSelector::select(int step) {
    const OpenRun& run = view_->run();
    if (!run.valid() || !run.index || step < 0) return false;
    const RequestTrack& track = run.index->requests();
    if (!track.is_token(static_cast<std::size_t>(step))) return false;
    const auto explained = analysis::explain_tokens(*run.data, {static_cast<std::size_t>(step)},
                                                    track.itls(), track.links());
    if (explained.empty()) return false;
    const analysis::SlowToken& t = explained.front();
    const trace::Step& token = run.data->steps[static_cast<std::size_t>(step)];
    token_ = step;
    iteration_ = t.iteration_step;
    kernels_ = t.has_window() ? analysis::kernels_in(*run.data, t.window_start_ns, t.window_end_ns)
                              : std::vector<std::size_t>{};
    details_ = details_html(t, view_->scene().unit);
    view_->setTokenSelection(token_, iteration_, kernels_);
    const qint64 t0 = t.has_window() ? t.window_start_ns : token.start_ns;
    const qint64 t1 = t.has_window() ? t.window_end_ns : token.end_ns;
    reveal(std::min<qint64>(t0, token.start_ns), std::max<qint64>(t1, token.end_ns));
    view_->selectRange(t0, t1);
    emit view_->detailsChanged(details_);
    emit tokenSelected(token_, iteration_);
    return true;
}

void TokenSelector::clear() {
    token_ = iteration_ = -1;
    kernels_.clear();
    details_.clear();
    view_->setTokenSelection(-1, -1, {});
}

// Keeps the zoom when the token and its iteration are on screen already.
void TokenSelector::reveal(qint64 t0, qint64 t1) {
    const auto& vp = view_->viewport();
    if (vp.start_ns() <= t0 && t1 <= vp.end_ns(view_->plotWidth())) return;
    const qint64 pad = std::max<qint64>(1, (t1 - t0) / 2);
    view_->showRange(t0 - pad, t1 + pad);
}

}  // namespace tokenscope::ui
