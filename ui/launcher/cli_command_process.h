#pragma once

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

class QTimer;

namespace tokenscope::ui {

struct CaptureChild;

// Runs one tokenscope-cli command as a child process (`run`, `sweep` or `capture`,
// from the run launcher) and turns its output into signals: start() runs
// `tokenscope-cli run ... --progress json --quiet` and reads its JSON lines. A child keeps a crash
// or a hang of the capture out of the GUI, and cancelling is a signal the CLI already honours: on
// SIGTERM it abandons the run, so nothing of it stays in the file. startCapture() runs
// `tokenscope-cli capture` on the user's own program instead: that has no JSON progress, so its
// lines (the CLI's and the program's) make an output tail, and its "wrote run N to FILE" line
// reports the run.
class CliCommandProcess : public QObject {
    Q_OBJECT
  public:
    explicit CliCommandProcess(QObject* parent = nullptr);
    ~CliCommandProcess() override;  // terminates a child that still runs

    // TOKENSCOPE_CLI when set; else tokenscope-cli in the build tree (app/gui and
    // app/cli are siblings), next to the executable, then on PATH. Empty if none.
    static QString findCli();

    // The executable to start; findCli() unless set.
    void setProgram(const QString& program) { program_ = program; }
    QString program() const { return program_; }

    // `run_arguments` are the options after `run`; the progress and quiet options
    // are added here. Returns false (and does nothing) while a child runs.
    bool start(const QStringList& run_arguments);
    // Starts `child` (see capture_child()) in its folder and environment; false
    // (and nothing done) while a child runs.
    bool startCapture(const CaptureChild& child);
    // Runs `tokenscope-cli` with `sweep_arguments` (see sweep_child(): sweep ...
    // --progress json): one progress() per run, warm-ups included, and
    // sweepFinished() with the sweep's id. Cancelling keeps the finished runs (the
    // CLI stores each as it ends), so `sweep --resume` can continue.
    bool startSweep(const QStringList& sweep_arguments);
    // Sends SIGTERM and, without blocking, waits for the child; it is killed if it
    // does not exit within a few seconds. Ends in cancelled(), never finished().
    void cancel();
    bool running() const { return state_ != State::Idle; }
    bool cancelling() const { return state_ == State::Cancelling; }
    // The full command line of the last start, for messages.
    QString commandLine() const;
    // The child's last lines of output, stdout and stderr as they came.
    QStringList outputTail() const { return tail_; }
    // In a sweep, the last counted run stored so far (0: none yet).
    qint64 lastSweepRun() const { return last_sweep_run_; }

  signals:
    void progress(qint64 done, qint64 total);
    void finished(const QString& file, qint64 run_id);
    void sweepFinished(const QString& file, qint64 sweep_id);
    void failed(const QString& message);
    void cancelled();
    void outputLine(const QString& line);

  private:
    enum class State { Idle, Running, Cancelling };

    bool launch(const QStringList& args);
    void addLine(const QString& line);
    void readOutput();
    void readErrors();
    void parseLine(const QByteArray& line);
    void onExit(int code, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);
    QString failureMessage(int code, QProcess::ExitStatus status) const;

    QProcess* process_;
    QTimer* kill_timer_;
    QString program_;
    State state_ = State::Idle;
    QByteArray out_buffer_;
    QString last_error_line_;
    QString done_file_;
    qint64 done_run_id_ = -1;
    qint64 last_sweep_run_ = 0;
    bool capture_ = false;  // startCapture(): plain text, not JSON lines
    bool sweep_ = false;    // startSweep(): sweep JSON lines and its closing line
    QStringList tail_;
};

}  // namespace tokenscope::ui
