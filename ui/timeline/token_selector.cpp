#include "token_selector.h"

#include <algorithm>

#include "analysis/join/slow_tokens.h"
#include "analysis/join/stored_slow_tokens.h"
#include "analysis/kernel_name.h"
#include "store/store_reader.h"
#include "timeline_view.h"
#include "ui/plots/time_format.h"
#include "ui/shared/background_query.h"

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

// What the background read of a token hands back: the token explained, or why not.
struct ReadToken {
    std::vector<analysis::SlowToken> tokens;
    QString error;
};

}  // namespace

TokenSelector::TokenSelector(TimelineView* view)
    : QObject(view), view_(view), query_(new BackgroundQuery(this)) {
    connect(view_, &TimelineView::tokenClicked, this, &TokenSelector::select);
    connect(view_, &TimelineView::stretchChanged, this, &TokenSelector::outlineStretchKernels);
}

bool TokenSelector::reading() const {
    return query_->busy();
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
    window_start_ = t.has_window() ? t.window_start_ns : 0;
    window_end_ = t.has_window() ? t.window_end_ns : 0;
    query_->clear();
    if (run.data->in_file) {
        // Without its activities the run would attribute the window to nothing.
        kernels_.clear();
        details_ = QStringLiteral("<b>token %1 of request %2</b><br>%3")
                       .arg(t.index)
                       .arg(t.request)
                       .arg(tr("reading its iteration's kernels from the file…"));
        readFromFile(step);
    } else {
        kernels_ = t.has_window() ? analysis::kernels_in(*run.data, window_start_, window_end_)
                                  : std::vector<std::size_t>{};
        details_ = details_html(t, view_->scene().unit);
    }
    view_->setTokenSelection(token_, iteration_, kernels_);
    const qint64 t0 = t.has_window() ? t.window_start_ns : token.start_ns;
    const qint64 t1 = t.has_window() ? t.window_end_ns : token.end_ns;
    reveal(std::min<qint64>(t0, token.start_ns), std::max<qint64>(t1, token.end_ns));
    view_->selectRange(t0, t1);
    if (run.data->in_file) outlineStretchKernels();
    emit view_->detailsChanged(details_);
    emit tokenSelected(token_, iteration_);
    return true;
}

void TokenSelector::readFromFile(int step) {
    const OpenRun run = view_->run();
    query_->run(
        tr("Reading the token's kernels…"),
        [run, step](const trace::StopToken& stop) {
            ReadToken out;
            try {
                const store::StoreReader reader(run.path.toStdString(),
                                                store::ReaderOptions::stretches());
                const auto& track = run.index->requests();
                out.tokens = analysis::stored_explain_tokens(reader, *run.data,
                                                             {static_cast<std::size_t>(step)},
                                                             track.itls(), track.links(), {}, stop);
            } catch (const trace::Cancelled&) {
                throw;
            } catch (const std::exception& e) {
                out.error = QString::fromStdString(e.what());
            }
            return out;
        },
        [this, step](ReadToken read) {
            if (step != token_) return;
            details_ = !read.error.isEmpty() ? read.error.toHtmlEscaped()
                       : read.tokens.empty()
                           ? QString()
                           : details_html(read.tokens.front(), view_->scene().unit);
            emit view_->detailsChanged(details_);
        });
}

void TokenSelector::outlineStretchKernels() {
    if (token_ < 0 || !view_->run().valid() || !view_->run().data->in_file) return;
    const TimelineIndex* stretch = view_->scene().spans;
    kernels_ = stretch != nullptr && window_end_ > window_start_
                   ? analysis::kernels_in(stretch->run(), window_start_, window_end_)
                   : std::vector<std::size_t>{};
    view_->setTokenSelection(token_, iteration_, kernels_);
}

void TokenSelector::clear() {
    query_->clear();
    token_ = iteration_ = -1;
    window_start_ = window_end_ = 0;
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
