#pragma once

#include <qcustomplot.h>

#include <array>
#include <optional>
#include <vector>

#include "analysis/attribution/attribution.h"
#include "analysis/attribution/category.h"
#include "trace/step.h"
#include "ui/plots/time_format.h"

namespace tokenscope::ui {

// One stacked bar per step (in run.steps order), split into the six attribution
// categories in priority order from the bottom, in the shared category colours;
// the step's roofline floor (ITL floor) as a line where it is known.
class BreakdownPlot : public QCustomPlot {
    Q_OBJECT
  public:
    explicit BreakdownPlot(QWidget* parent = nullptr);

    // `floors_ns[i]` is run.steps[i].floor_ns (0 = unknown), `phases[i]` its
    // phase (empty: the phase filter has nothing to filter).
    void setSteps(std::vector<analysis::StepAttribution> steps, std::vector<std::int64_t> floors_ns,
                  const QString& title, std::vector<trace::Phase> phases = {});
    // Only steps of this phase (nullopt: all). A 570 ms prefill step next to
    // 6 ms decode steps flattens them on one linear axis; showing decode alone
    // scales the axis to them, and the prefill is one choice away.
    void setPhaseFilter(std::optional<trace::Phase> phase);
    std::optional<trace::Phase> phaseFilter() const { return filter_; }
    // Decode when the run has prefill steps over 10x its median decode step,
    // else all steps.
    static std::optional<trace::Phase> defaultFilter(
        const std::vector<analysis::StepAttribution>& steps,
        const std::vector<trace::Phase>& phases);
    int shownSteps() const { return shown_; }
    double axisTop() const;
    void clear(const QString& title);
    void setUnit(plots::TimeUnit unit);

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
    std::vector<trace::Phase> phases_;
    std::optional<trace::Phase> filter_;
    int shown_ = 0;
    plots::TimeUnit unit_ = plots::TimeUnit::Milliseconds;
};

}  // namespace tokenscope::ui
