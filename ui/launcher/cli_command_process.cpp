#include "cli_command_process.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTimer>

#include "external_command.h"

namespace tokenscope::ui {
namespace {

constexpr int kKillAfterMs = 5000;
constexpr int kExitCancelled = 130;  // the CLI's code for SIGINT/SIGTERM
constexpr qsizetype kTailLines = 200;

QString executable_if_exists(const QString& path) {
    const QFileInfo info(path);
    return info.isFile() && info.isExecutable() ? info.canonicalFilePath() : QString();
}

}  // namespace

CliCommandProcess::CliCommandProcess(QObject* parent)
    : QObject(parent), process_(new QProcess(this)), kill_timer_(new QTimer(this)) {
    program_ = findCli();
    kill_timer_->setSingleShot(true);
    kill_timer_->setInterval(kKillAfterMs);
    connect(kill_timer_, &QTimer::timeout, process_, &QProcess::kill);
    connect(process_, &QProcess::readyReadStandardOutput, this, &CliCommandProcess::readOutput);
    connect(process_, &QProcess::readyReadStandardError, this, &CliCommandProcess::readErrors);
    connect(process_, &QProcess::finished, this, &CliCommandProcess::onExit);
    connect(process_, &QProcess::errorOccurred, this, &CliCommandProcess::onError);
}

CliCommandProcess::~CliCommandProcess() {
    if (process_->state() == QProcess::NotRunning) return;
    // Shutdown only: the window is going away, so a short wait is acceptable here.
    process_->disconnect(this);
    process_->terminate();
    if (!process_->waitForFinished(kKillAfterMs)) {
        process_->kill();
        process_->waitForFinished(1000);
    }
}

QString CliCommandProcess::findCli() {
    const QString env = qEnvironmentVariable("TOKENSCOPE_CLI");
    if (!env.isEmpty()) return env;
    const QString dir = QCoreApplication::applicationDirPath();
    for (const QString& candidate :
         {dir + QStringLiteral("/../cli/tokenscope-cli"), dir + QStringLiteral("/tokenscope-cli")})
        if (QString found = executable_if_exists(candidate); !found.isEmpty()) return found;
    return QStandardPaths::findExecutable(QStringLiteral("tokenscope-cli"));
}

bool CliCommandProcess::start(const QStringList& run_arguments) {
    if (running()) return false;
    QStringList args{QStringLiteral("run")};
    args << run_arguments << QStringLiteral("--progress") << QStringLiteral("json")
         << QStringLiteral("--quiet");
    // A capture before may have changed them.
    process_->setWorkingDirectory(QString());
    process_->setProcessEnvironment(QProcessEnvironment::systemEnvironment());
    capture_ = false;
    sweep_ = false;
    return launch(args);
}

bool CliCommandProcess::startSweep(const QStringList& sweep_arguments) {
    if (running()) return false;
    process_->setWorkingDirectory(QString());
    process_->setProcessEnvironment(QProcessEnvironment::systemEnvironment());
    capture_ = false;
    sweep_ = true;
    return launch(sweep_arguments);
}

bool CliCommandProcess::startCapture(const CaptureChild& child) {
    if (running()) return false;
    apply_environment(child, *process_);
    capture_ = true;
    sweep_ = false;
    return launch(child.arguments);
}

bool CliCommandProcess::launch(const QStringList& args) {
    out_buffer_.clear();
    last_error_line_.clear();
    done_file_.clear();
    done_run_id_ = -1;
    last_sweep_run_ = 0;
    tail_.clear();
    process_->setProgram(program_);
    process_->setArguments(args);
    state_ = State::Running;
    if (program_.isEmpty()) {
        // Reported from the event loop, like every other outcome, so callers
        // can connect after start() and still see it.
        QTimer::singleShot(0, this, [this] { onError(QProcess::FailedToStart); });
        return true;
    }
    process_->start();
    return true;
}

void CliCommandProcess::addLine(const QString& line) {
    tail_ << line;
    if (tail_.size() > kTailLines) tail_.remove(0, tail_.size() - kTailLines);
    emit outputLine(line);
}

void CliCommandProcess::cancel() {
    if (state_ != State::Running) return;
    state_ = State::Cancelling;
    if (process_->state() == QProcess::NotRunning) {
        state_ = State::Idle;
        emit cancelled();
        return;
    }
    process_->terminate();
    kill_timer_->start();
}

QString CliCommandProcess::commandLine() const {
    return QStringList{program_, process_->arguments().join(QLatin1Char(' '))}.join(
        QLatin1Char(' '));
}

void CliCommandProcess::readOutput() {
    out_buffer_ += process_->readAllStandardOutput();
    qsizetype end;
    while ((end = out_buffer_.indexOf('\n')) >= 0) {
        if (capture_)
            addLine(QString::fromLocal8Bit(out_buffer_.left(end)).trimmed());
        else
            parseLine(out_buffer_.left(end).trimmed());
        out_buffer_.remove(0, end + 1);
    }
}

void CliCommandProcess::readErrors() {
    const QStringList lines =
        QString::fromLocal8Bit(process_->readAllStandardError()).split(QLatin1Char('\n'));
    // capture's report of the run it wrote (app/cli capture, run_capture()).
    static const QRegularExpression wrote(QStringLiteral("^capture: wrote run (\\d+) to (.+): "));
    for (const QString& line : lines) {
        if (line.trimmed().isEmpty()) continue;
        last_error_line_ = line.trimmed();
        if (!capture_) continue;
        addLine(last_error_line_);
        if (const auto m = wrote.match(last_error_line_); m.hasMatch()) {
            done_run_id_ = m.captured(1).toLongLong();
            done_file_ = m.captured(2);
        }
    }
}

void CliCommandProcess::parseLine(const QByteArray& line) {
    // Anything that is not one of the two JSON shapes is ignored: the CLI may
    // print other lines in later versions.
    // sweep's closing line (app/cli/cmd_sweep.cpp): "sweep N: P points x R repeats; ... in FILE".
    static const QRegularExpression swept(QStringLiteral("^sweep (\\d+): .* in (.+)$"));
    if (const auto m = swept.match(QString::fromLocal8Bit(line)); sweep_ && m.hasMatch()) {
        done_run_id_ = m.captured(1).toLongLong();
        done_file_ = m.captured(2);
        return;
    }
    const QJsonObject object = QJsonDocument::fromJson(line).object();
    if (object.contains(QStringLiteral("sweep"))) {
        const QJsonObject p = object.value(QStringLiteral("sweep")).toObject();
        if (const qint64 id = p.value(QStringLiteral("run_id")).toInteger(); id > 0)
            last_sweep_run_ = id;  // warm-ups report 0
        if (state_ == State::Running)
            emit progress(p.value(QStringLiteral("done")).toInteger(),
                          p.value(QStringLiteral("total")).toInteger());
    } else if (object.contains(QStringLiteral("progress"))) {
        const QJsonObject p = object.value(QStringLiteral("progress")).toObject();
        if (state_ == State::Running)
            emit progress(p.value(QStringLiteral("done")).toInteger(),
                          p.value(QStringLiteral("total")).toInteger());
    } else if (object.contains(QStringLiteral("done"))) {
        const QJsonObject d = object.value(QStringLiteral("done")).toObject();
        done_file_ = d.value(QStringLiteral("file")).toString();
        done_run_id_ = d.value(QStringLiteral("run_id")).toInteger(-1);
    }
}

void CliCommandProcess::onExit(int code, QProcess::ExitStatus status) {
    kill_timer_->stop();
    readOutput();
    if (!out_buffer_.isEmpty()) {
        if (capture_)
            addLine(QString::fromLocal8Bit(out_buffer_).trimmed());
        else
            parseLine(out_buffer_.trimmed());
    }
    out_buffer_.clear();
    readErrors();
    const State was = state_;
    state_ = State::Idle;
    // A run cancelled by us, or by a signal from elsewhere, is not a finished run,
    // even when the child managed to finish it before the signal arrived.
    if (was == State::Cancelling || (status == QProcess::NormalExit && code == kExitCancelled)) {
        emit cancelled();
        return;
    }
    if (status == QProcess::NormalExit && code == 0 && done_run_id_ >= 0 && !done_file_.isEmpty()) {
        const QString file =
            QDir(process_->workingDirectory().isEmpty() ? QDir::currentPath()
                                                        : process_->workingDirectory())
                .absoluteFilePath(done_file_);
        if (sweep_)
            emit sweepFinished(file, done_run_id_);
        else
            emit finished(file, done_run_id_);
        return;
    }
    emit failed(failureMessage(code, status));
}

void CliCommandProcess::onError(QProcess::ProcessError error) {
    // Every other error is followed by finished(), which reports it.
    if (error != QProcess::FailedToStart || state_ == State::Idle) return;
    state_ = State::Idle;
    emit failed(program_.isEmpty()
                    ? tr("tokenscope-cli not found (looked next to this program and on PATH; "
                         "set TOKENSCOPE_CLI to its path)")
                    : tr("could not start %1: %2").arg(program_, process_->errorString()));
}

QString CliCommandProcess::failureMessage(int code, QProcess::ExitStatus status) const {
    const QString why =
        last_error_line_.isEmpty() ? QString() : QStringLiteral(": ") + last_error_line_;
    if (status == QProcess::CrashExit) return tr("tokenscope-cli crashed%1").arg(why);
    if (code == 0) return tr("tokenscope-cli ended without reporting a run%1").arg(why);
    return tr("tokenscope-cli exited with code %1%2").arg(code).arg(why);
}

}  // namespace tokenscope::ui
