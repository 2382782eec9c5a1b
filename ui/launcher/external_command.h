#pragma once

#include <QGroupBox>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <functional>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProcess;

namespace tokenscope::ui {

// What the launcher's external-command mode runs: the user's own engine, traced
// by `tokenscope-cli capture` (docs/capture.md and docs/ui.md).
struct ExternalCommand {
    QString command_line;       // split like a shell would (QProcess::splitCommand)
    QString working_directory;  // empty: the GUI's own
    QString environment;        // KEY=VALUE lines, added to the GUI's environment
    QString steps_pattern;      // NVTX ranges that frame steps (ECMAScript); empty: none
    QString out;                // the .tokenscope file the run is added to
};

// The `tokenscope-cli capture` child for an ExternalCommand.
struct CaptureChild {
    QStringList arguments;  // after the program: capture --out F ... -- COMMAND...
    QString working_directory;
    QProcessEnvironment environment;
    QString problem;  // non-empty: it cannot run, and why (naming the field)
};

// The one place the child's command line, folder and environment are made, so
// the dialog and its test agree on them.
CaptureChild capture_child(
    const ExternalCommand& command,
    const QProcessEnvironment& base = QProcessEnvironment::systemEnvironment());
// Sets `child`'s folder and environment on `process` (the program and arguments
// are the caller's, who knows where tokenscope-cli is).
void apply_environment(const CaptureChild& child, QProcess& process);

// The read-only box a capture's output lines go to ("outputTail"), keeping the last ones.
QPlainTextEdit* make_output_tail(QWidget* parent);

struct DriverCheck {
    bool ok = false;
    QString reason;
};
using DriverCheckFn = std::function<DriverCheck()>;
// The capture library's DriverProbe on libcuda, its CLI advice left out.
DriverCheck probe_cuda_driver();

// The external-command fields of the run launcher. The driver is asked once, when
// the form is made: `capture` cannot run without one, so the form says so first.
class ExternalCommandForm : public QGroupBox {
    Q_OBJECT
  public:
    explicit ExternalCommandForm(QWidget* parent = nullptr);

    ExternalCommand command(const QString& out) const;
    // Empty when it can start into `out`; else the first problem, the driver first.
    QString problem(const QString& out) const;
    // Replaces the probe (tests fake a driver) and asks it again.
    void setDriverCheck(DriverCheckFn check);

  signals:
    void changed();

  private:
    void browse();
    void showDriver();

    DriverCheckFn check_;
    DriverCheck driver_;
    QLabel* driver_note_ = nullptr;
    QLineEdit* command_ = nullptr;
    QLineEdit* working_dir_ = nullptr;
    QPlainTextEdit* environment_ = nullptr;
    QLineEdit* steps_ = nullptr;
};

}  // namespace tokenscope::ui
