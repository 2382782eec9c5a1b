#pragma once

#include <QCoreApplication>
#include <QString>

#include "analysis/attribution/verdict.h"
#include "ui/plots/time_format.h"

namespace tokenscope::ui {

// The verdict as rich text, one home for the Breakdown tab and the Attribution dock
// (docs/attribution.md, Verdicts: the verdict with the numbers that triggered it). Both start
// with the same headline; each adds the part it has room for.
class VerdictHtml {
    Q_DECLARE_TR_FUNCTIONS(VerdictHtml)
  public:
    // A model run's warning, the bound in bold, the achieved bandwidth where known and
    // the advice; for the primary "none" (a run that cannot be judged) only the advice.
    static QString headline(const analysis::Verdict& v, bool model_run);
    // Every rule's value next to its threshold, the fired one marked (the dock).
    static QString ruleTable(const analysis::Verdict& v, plots::TimeUnit unit);
    // A rule in plain words with its unit ("P95 scheduling per step" for
    // scheduling_p95_ns); what it measures, with its JSON name, for a tooltip.
    static QString ruleName(const std::string& rule);
    static QString ruleMeaning(const std::string& rule);
    // A rule's value or threshold: a time in `unit` for the rules on times, else a share.
    static QString ruleNumber(const analysis::RuleResult& r, double x, plots::TimeUnit unit);
    // The rule's value, with its bound when read from a histogram ("12.3 ms ±0.8%").
    static QString ruleValue(const analysis::RuleResult& r, plots::TimeUnit unit);
    // Steps, their total time and the distance to the ITL floor (the Breakdown tab,
    // whose rules have their own table).
    static QString summary(const analysis::RunAssessment& a, plots::TimeUnit unit);
};

}  // namespace tokenscope::ui
