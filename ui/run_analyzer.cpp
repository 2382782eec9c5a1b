#include "run_analyzer.h"

#include <exception>

#include "background_query.h"

namespace tokenscope::ui {
namespace {

struct Outcome {
    std::shared_ptr<const analysis::RunAnalysis> analysis;
    QString error;  // the analysis threw; `analysis` is null
};

}  // namespace

RunAnalyzer::RunAnalyzer(QObject* parent) : QObject(parent), query_(new BackgroundQuery(this)) {
    connect(query_, &BackgroundQuery::busyChanged, this, &RunAnalyzer::busyChanged);
    // Also when the work gives up by itself: the same run set again restarts it.
    connect(query_, &BackgroundQuery::cancelled, this, [this] {
        stopped_ = true;
        emit cancelled();
    });
}

bool RunAnalyzer::busy() const {
    return query_->busy();
}

QString RunAnalyzer::what() const {
    return query_->what();
}

void RunAnalyzer::setRun(const OpenRun& run) {
    const bool same = run.data == run_.data;
    if (same && run.valid() && !stopped_) return;  // analysed or being analysed
    run_ = run;
    result_.reset();
    error_.clear();
    stopped_ = false;
    if (!run.valid()) {
        query_->clear();  // stops the analysis of the run set before
        return;
    }
    emit started();
    auto data = run.data;  // shared: stays alive while the job reads it
    query_->run(
        tr("Attributing steps and assessing the run…"),
        [data](const trace::StopToken& stop) {
            Outcome o;
            try {
                o.analysis = std::make_shared<const analysis::RunAnalysis>(
                    analysis::analyse_run(*data, {}, {}, stop));
            } catch (const trace::Cancelled&) {
                throw;  // not a failure: the query drops it silently
            } catch (const std::exception& e) {
                o.error = QString::fromUtf8(e.what());
            }
            return o;
        },
        [this](const Outcome& o) {
            result_ = o.analysis;
            error_ = o.error;
            if (result_)
                emit ready();
            else
                emit failed(error_);
        });
}

bool RunAnalyzer::cancel() {
    return query_->cancel();
}

}  // namespace tokenscope::ui
