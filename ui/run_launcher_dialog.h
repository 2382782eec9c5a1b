#pragma once

#include <QDialog>
#include <QElapsedTimer>
#include <QString>
#include <QStringList>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace tokenscope::ui {

class CaptureProcess;
class ExternalCommandForm;
class SweepLaunchForm;

// File > New Run: choose a workload, strategy, backend and output file, then run
// `tokenscope-cli run` as a child (CaptureProcess) with a progress bar. Cancel
// stops the child, which abandons the run; only a finished run is announced.
// Or, in the external-command mode, trace the user's own program through a
// `tokenscope-cli capture` child, with its output tail; or, in the sweep mode, run a
// `tokenscope-cli sweep` child over a typed grid, with an ETA, and open its file.
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

    QComboBox* presetBox() const { return preset_; }
    QLabel* shapeLabel() const { return shape_; }
    QSpinBox* batchBox() const { return batch_; }
    QSpinBox* promptBox() const { return prompt_; }
    QSpinBox* tokensBox() const { return tokens_; }
    QComboBox* strategyBox() const { return strategy_; }
    QSpinBox* topKBox() const { return top_k_; }
    QSpinBox* beamsBox() const { return beams_; }
    QSpinBox* draftLayersBox() const { return draft_layers_; }
    QSpinBox* gammaBox() const { return gamma_; }
    QSpinBox* seedBox() const { return seed_; }
    QComboBox* backendBox() const { return backend_; }
    QLabel* backendNote() const { return backend_note_; }
    QComboBox* gpuBox() const { return gpu_; }
    QLineEdit* nameEdit() const { return name_; }
    QLineEdit* outputEdit() const { return output_; }
    QPushButton* startButton() const { return start_; }
    QProgressBar* progressBar() const { return progress_; }
    QLabel* statusLabel() const { return status_; }
    CaptureProcess* process() const { return process_; }
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
    QWidget* buildWorkload();
    QWidget* buildStrategy();
    QWidget* buildBackend();
    QWidget* buildOutput();
    void fillBackends();
    void updateShape();
    void updateStrategy();
    void updateBackend();
    void updateProblem();
    void updateMode();
    void connectProcess();
    void browse();
    void setRunning(bool running);
    void setStatus(const QString& text, bool error);
    void onFinished(const QString& file, qint64 run_id);

    CaptureProcess* process_;
    QComboBox* mode_ = nullptr;
    ExternalCommandForm* external_ = nullptr;
    SweepLaunchForm* sweep_form_ = nullptr;
    QElapsedTimer sweep_clock_;
    QPlainTextEdit* tail_ = nullptr;
    QComboBox* preset_ = nullptr;
    QLabel* shape_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QSpinBox* prompt_ = nullptr;
    QSpinBox* tokens_ = nullptr;
    QComboBox* strategy_ = nullptr;
    QSpinBox* top_k_ = nullptr;
    QSpinBox* beams_ = nullptr;
    QSpinBox* draft_layers_ = nullptr;
    QSpinBox* gamma_ = nullptr;
    QDoubleSpinBox* acceptance_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QComboBox* backend_ = nullptr;
    QLabel* backend_note_ = nullptr;
    QComboBox* gpu_ = nullptr;
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
