#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include "ui/shared/open_run.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace tokenscope::ui {

// What the Breakdown tab and the Attribution dock show where the breakdown would be when
// a foreign trace has no steps because no marker matched an iteration preset
// (docs/ui.md, No iterations found): it says so, lists the presets tried and offers the
// "Step pattern" field, whose list holds each preset's marker shape as a regex. Apply
// checks the regex here (a bad one is reported next to the field) and asks the window to
// re-open the file with it (applyRequested -> MainWindow::reopenWithStepPattern).
class StepPatternPanel : public QWidget {
    Q_OBJECT
  public:
    // One entry of the field's list: the regex and the engines whose markers it matches.
    struct Suggestion {
        QString pattern;
        QString engines;
    };

    explicit StepPatternPanel(QWidget* parent = nullptr);

    // True when `run` has no steps because no marker matched (its "no_steps" diagnostic):
    // the panel is for it. Runs that never had markers to match (a client's result) are not.
    static bool wanted(const OpenRun& run);
    // The presets tried, from the run's "no_steps" diagnostic, else the importer's list.
    static QStringList presetsTried(const OpenRun& run);
    static const QList<Suggestion>& suggestions();

    // Shows the panel's text for `run` (hidden unless wanted(run)); clears the error.
    void setRun(const OpenRun& run);
    // Leaves out the paragraph on what to give (the field's tooltip says it): the dock.
    void setCompact(bool compact);
    // The window re-opens the file: Apply waits until the run comes back or fails.
    void setReopening(const QString& pattern);
    // Shows `text` next to the field (a bad regex, a file that failed to re-open).
    void showError(const QString& text);

    QString path() const { return run_.path; }  // the file Apply re-opens
    QString message() const;                    // the explanation, as plain text
    QString error() const;                      // the message next to the field; empty when none
    QComboBox* patternBox() const { return pattern_; }
    QPushButton* applyButton() const { return apply_; }

  public slots:
    // Checks the field's regex; a good one emits applyRequested.
    void apply();

  signals:
    void applyRequested(const QString& path, const QString& pattern);

  private:
    OpenRun run_;
    QLabel* message_;     // what was not found
    QLabel* presets_;     // the presets tried
    QLabel* help_;        // what to give
    QComboBox* pattern_;  // objectName "stepPattern"
    QPushButton* apply_;  // objectName "stepPatternApply"
    QLabel* error_;       // objectName "stepPatternError"
};

}  // namespace tokenscope::ui
