#include "tool_figures_panel.h"

#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>
#include <exception>

#include "analysis/metrics/client_figures.h"
#include "tool_figures_model.h"
#include "trace/stop_token.h"
#include "ui/shared/background_query.h"
#include "ui/shared/row_table.h"

namespace tokenscope::ui {

ToolFiguresPanel::ToolFiguresPanel(QWidget* parent)
    : QWidget(parent),
      model_(new ToolFiguresModel(this)),
      query_(new BackgroundQuery(this)),
      note_(new QLabel(this)) {
    note_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note_);
    layout->addWidget(make_row_table(model_, this), 1);
}

QString ToolFiguresPanel::noteText() const {
    return note_->text();
}

void ToolFiguresPanel::setUnit(plots::TimeUnit unit) {
    model_->setUnit(unit);
}

void ToolFiguresPanel::setRun(const OpenRun& run) {
    model_->setRows({});
    analysis::ClientFigures figures;
    if (run.valid()) figures = analysis::read_client_figures(run.data->info);
    if (figures.figures.empty()) {
        query_->clear();
        emit availabilityChanged(false, 0);
        return;
    }
    note_->setText(tr("Comparing the figures the load generator reported with ours…"));
    emit availabilityChanged(true, 0);
    auto run_data = run.data;
    query_->run(
        tr("Comparing the load generator's figures…"),
        [run_data, checks = figures.figures](const trace::StopToken& stop) {
            stop.throw_if_stopped();
            try {
                return analysis::check_tool_figures(checks, analysis::windowed_metrics(*run_data));
            } catch (const std::exception&) {
                return std::vector<analysis::FigureCheck>{};  // the rows stay empty
            }
        },
        [this](std::vector<analysis::FigureCheck> rows) {
            model_->setRows(std::move(rows));
            const int flagged = model_->flaggedCount();
            note_->setText(
                flagged == 0
                    ? tr("Each figure the tool reported, beside ours with the definition each "
                         "uses; every difference over 1 % is explained by the definitions.")
                    : tr("%n difference(s) over 1 % that the definitions do not explain "
                         "(hover a row for why).",
                         nullptr, flagged));
            emit availabilityChanged(true, flagged);
        });
}

}  // namespace tokenscope::ui
