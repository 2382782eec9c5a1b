#pragma once

#include <qcustomplot.h>

#include <array>
#include <vector>

#include "analysis/attribution.h"
#include "analysis/category.h"
#include "time_format.h"

namespace tokenscope::ui {

// One stacked bar per step (in run.steps order), split into the six attribution
// categories in priority order from the bottom, in the shared category colours;
// the step's roofline floor (ITL floor) as a line where it is known.
class BreakdownPlot : public QCustomPlot {
    Q_OBJECT
  public:
    explicit BreakdownPlot(QWidget* parent = nullptr);

    // `floors_ns[i]` is run.steps[i].floor_ns (0 = unknown).
    void setSteps(std::vector<analysis::StepAttribution> steps, std::vector<std::int64_t> floors_ns,
                  const QString& title);
    void clear(const QString& title);
    void setUnit(TimeUnit unit);

    QCPBars* bars(analysis::Category category) const {
        return bars_[static_cast<std::size_t>(category)];
    }
    QCPGraph* floorLine() const { return floor_; }
    QString title() const;

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void refill();

    std::array<QCPBars*, analysis::kCategoryCount> bars_{};
    QCPGraph* floor_;
    QCPTextElement* title_;
    std::vector<analysis::StepAttribution> steps_;
    std::vector<std::int64_t> floors_;
    TimeUnit unit_ = TimeUnit::Milliseconds;
};

}  // namespace tokenscope::ui
