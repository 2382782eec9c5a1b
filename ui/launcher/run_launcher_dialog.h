#pragma once

#include <QDialog>
#include <QElapsedTimer>
#include <QString>
#include <QStringList>

#include "decode_run_form.h"

class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace tokenscope::ui {

class CliCommandProcess;
class ExternalCommandForm;
class SweepLaunchForm;

// File > New Run: choose a workload, strategy and backend (a DecodeRunForm) and an
// output file, then run `tokenscope-cli run` as a child (CliCommandProcess) with a progress bar.
// Cancel stops the child, which abandons the run; only a finished run is announced. Or, in the
// external-command mode, trace the user's own program through a `tokenscope-cli capture` child,
// with its output tail; or, in the sweep mode, run a `tokenscope-cli sweep` child over a typed
// grid, with an ETA, and open its file.
class RunLauncherDialog : public QDialog {
    Q_OBJECT
  public:
    explicit RunLauncherDialog(QWidget* parent = nullptr);

    // The options after `run` for the current choices.
    QStringList arguments() const;
    // True in the external-command mode (your own program).
    bool externalMode() const;
    // True in the sweep mode (a child tokenscope-cli sweep over the form's grid).
    bool sweepMode() const;
    // Empty when the choices can run; otherwise the first problem, naming the field.
    QString problem() const;
    // A fresh file name in the user's data folder, so runs never pile up in one file.
    static QString defaultOutput();

    QComboBox* presetBox() const { return decode_->presetBox(); }
    QLabel* shapeLabel() const { return decode_->shapeLabel(); }
    QSpinBox* batchBox() const { return decode_->batchBox(); }
    QSpinBox* promptBox() const { return decode_->promptBox(); }
    QSpinBox* tokensBox() const { return decode_->tokensBox(); }
    QComboBox* strategyBox() const { return decode_->strategyBox(); }
    QSpinBox* topKBox() const { return decode_->topKBox(); }
    QSpinBox* beamsBox() const { return decode_->beamsBox(); }
    QSpinBox* draftLayersBox() const { return decode_->draftLayersBox(); }
    QSpinBox* gammaBox() const { return decode_->gammaBox(); }
    QSpinBox* seedBox() const { return decode_->seedBox(); }
    QComboBox* backendBox() const { return decode_->backendBox(); }
    QLabel* backendNote() const { return decode_->backendNote(); }
    QComboBox* gpuBox() const { return decode_->gpuBox(); }
    QLineEdit* nameEdit() const { return name_; }
    QLineEdit* outputEdit() const { return output_; }
    QPushButton* startButton() const { return start_; }
    QProgressBar* progressBar() const { return progress_; }
    QLabel* statusLabel() const { return status_; }
    CliCommandProcess* process() const { return process_; }
    ExternalCommandForm* externalForm() const { return external_; }
    SweepLaunchForm* sweepForm() const { return sweep_form_; }

  public slots:
    // Starts the child; false (with the reason in the status line) when it cannot.
    bool start();
    // While a run is going, cancels it (the dialog closes once the child is gone);
    // otherwise closes the dialog.
    void reject() override;

  signals:
    // The child finished and the run is in `file`.
    void runFinished(const QString& file, qint64 run_id);
    // A sweep finished into `file` (runFinished() names its last run too).
    void sweepFinished(const QString& file);

  private:
    QWidget* buildOutput();
    void updateProblem();
    void updateMode();
    void connectProcess();
    void browse();
    void setRunning(bool running);
    void setStatus(const QString& text, bool error);
    void onFinished(const QString& file, qint64 run_id);

    CliCommandProcess* process_;
    QComboBox* mode_ = nullptr;
    ExternalCommandForm* external_ = nullptr;
    SweepLaunchForm* sweep_form_ = nullptr;
    DecodeRunForm* decode_ = nullptr;
    QElapsedTimer sweep_clock_;
    QPlainTextEdit* tail_ = nullptr;
    QLineEdit* name_ = nullptr;
    QLineEdit* output_ = nullptr;
    QWidget* form_ = nullptr;
    QPushButton* start_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    bool close_when_cancelled_ = false;
};

}  // namespace tokenscope::ui
