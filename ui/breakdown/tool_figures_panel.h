#pragma once

#include <QWidget>

#include "ui/plots/time_format.h"
#include "ui/shared/open_run.h"

class QLabel;

namespace tokenscope::ui {

class BackgroundQuery;
class ToolFiguresModel;

// A load generator's own figures beside Tokenscope's, for a run imported from its
// results (LLMPerf, vLLM, guidellm, AIPerf, SGLang: docs/metrics.md, Load generators' own
// figures), as `tokenscope-cli stats` prints them. Our figures are computed on the worker
// pool over the requests inside the tool's measurement window. Says through
// availabilityChanged whether the run has any such figures, so its tab shows only then.
class ToolFiguresPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ToolFiguresPanel(QWidget* parent = nullptr);

    void setRun(const OpenRun& run);
    void setUnit(plots::TimeUnit unit);
    ToolFiguresModel* model() const { return model_; }
    BackgroundQuery* query() const { return query_; }
    QString noteText() const;

  signals:
    // `has`: the run carries figures of its tool; `flagged`: differences over 1 % that the
    // definitions do not explain.
    void availabilityChanged(bool has, int flagged);

  private:
    ToolFiguresModel* model_;
    BackgroundQuery* query_;
    QLabel* note_;
};

}  // namespace tokenscope::ui
