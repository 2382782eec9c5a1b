#include "run_launcher_dialog.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "cli_command_process.h"
#include "decode_run_form.h"
#include "external_command.h"
#include "sweep_launch_form.h"
#include "ui/shared/gui_words.h"

namespace tokenscope::ui {

RunLauncherDialog::RunLauncherDialog(QWidget* parent)
    : QDialog(parent), process_(new CliCommandProcess(this)) {
    setWindowTitle(tr("New Run"));
    setMinimumWidth(520);
    form_ = new QWidget(this);
    auto* fields = new QVBoxLayout(form_);
    fields->setContentsMargins(0, 0, 0, 0);
    mode_ = new QComboBox(form_);
    mode_->setObjectName(QStringLiteral("modeBox"));
    mode_->addItems({tr("Built-in decode"), tr("Your own program (tokenscope-cli capture)"),
                     tr("Sweep (tokenscope-cli sweep)")});
    external_ = new ExternalCommandForm(form_);
    sweep_form_ = new SweepLaunchForm(form_);
    decode_ = new DecodeRunForm(form_);
    for (QWidget* w : std::initializer_list<QWidget*>{mode_, decode_, external_, sweep_form_})
        fields->addWidget(w);
    connect(decode_, &DecodeRunForm::changed, this, &RunLauncherDialog::updateProblem);
    connect(sweep_form_, &SweepLaunchForm::changed, this, &RunLauncherDialog::updateProblem);
    fields->addWidget(buildOutput());
    connect(mode_, &QComboBox::currentIndexChanged, this, &RunLauncherDialog::updateMode);
    connect(external_, &ExternalCommandForm::changed, this, &RunLauncherDialog::updateProblem);

    progress_ = new QProgressBar(this);
    progress_->setVisible(false);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tail_ = make_output_tail(this);
    auto* buttons = new QDialogButtonBox(this);
    start_ = buttons->addButton(tr("Start"), QDialogButtonBox::AcceptRole);
    cancel_ = buttons->addButton(QDialogButtonBox::Cancel);
    start_->setDefault(true);
    connect(start_, &QPushButton::clicked, this, &RunLauncherDialog::start);
    connect(cancel_, &QPushButton::clicked, this, &RunLauncherDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(form_);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    layout->addWidget(tail_);
    layout->addWidget(buttons);
    connectProcess();
    updateMode();
}

void RunLauncherDialog::connectProcess() {
    connect(process_, &CliCommandProcess::outputLine, tail_, &QPlainTextEdit::appendPlainText);

    connect(process_, &CliCommandProcess::progress, this, [this](qint64 done, qint64 total) {
        progress_->setRange(
            0, static_cast<int>(std::min<qint64>(total, std::numeric_limits<int>::max())));
        progress_->setValue(
            static_cast<int>(std::min<qint64>(done, std::numeric_limits<int>::max())));
        setStatus(sweepMode() ? sweep_status(done, total, sweep_clock_.elapsed())
                              : tr("Decoding: iteration %1 of %2").arg(done).arg(total),
                  false);
    });
    connect(process_, &CliCommandProcess::finished, this, &RunLauncherDialog::onFinished);
    connect(process_, &CliCommandProcess::sweepFinished, this, [this](const QString& file) {
        emit sweepFinished(file);
        onFinished(file, process_->lastSweepRun());
    });
    connect(process_, &CliCommandProcess::failed, this, [this](const QString& message) {
        setRunning(false);
        setStatus(tr("The run failed: %1").arg(GuiWords::fromCli(message)), true);
    });
    connect(process_, &CliCommandProcess::cancelled, this, [this] {
        setRunning(false);
        setStatus(sweepMode() ? tr("Cancelled; the runs that finished are kept in the output file.")
                              : tr("Cancelled; nothing of the run was kept."),
                  false);
        if (close_when_cancelled_) QDialog::reject();
    });
}

bool RunLauncherDialog::externalMode() const {
    return mode_->currentIndex() == 1;
}

bool RunLauncherDialog::sweepMode() const {
    return mode_->currentIndex() == 2;
}

void RunLauncherDialog::updateMode() {
    decode_->setVisible(mode_->currentIndex() == 0);
    for (QWidget* w : std::initializer_list<QWidget*>{external_, tail_})
        w->setVisible(externalMode());
    sweep_form_->setVisible(sweepMode());
    name_->setEnabled(!sweepMode());  // the sweep form names the sweep
    updateProblem();
}

QWidget* RunLauncherDialog::buildOutput() {
    auto* group = new QGroupBox(tr("Output"), this);
    auto* form = new QFormLayout(group);
    name_ = new QLineEdit(group);
    name_->setPlaceholderText(tr("default: describes the workload and GPU"));
    output_ = new QLineEdit(defaultOutput(), group);
    auto* browse = new QPushButton(tr("Browse…"), group);
    auto* row = new QHBoxLayout;
    row->addWidget(output_, 1);
    row->addWidget(browse);
    form->addRow(tr("Run name:"), name_);
    form->addRow(tr("File:"), row);
    connect(browse, &QPushButton::clicked, this, &RunLauncherDialog::browse);
    connect(output_, &QLineEdit::textChanged, this, &RunLauncherDialog::updateProblem);
    return group;
}

QString RunLauncherDialog::defaultOutput() {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    return QDir(dir).filePath(QStringLiteral("runs/run-%1.tokenscope").arg(stamp));
}

void RunLauncherDialog::browse() {
    // Appending to an existing store is allowed, so no overwrite question.
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Store the run in"), output_->text(),
                                     tr("Tokenscope runs (*.tokenscope);;All files (*)"), nullptr,
                                     QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty()) output_->setText(path);
}

QString RunLauncherDialog::problem() const {
    if (externalMode()) return external_->problem(output_->text());
    if (sweepMode())
        return GuiWords::fromCli(sweep_child(sweep_form_->launch(output_->text())).problem);
    return GuiWords::fromCli(decode_->problem(output_->text()));
}

void RunLauncherDialog::updateProblem() {
    if (status_ == nullptr || start_ == nullptr || process_->running()) return;
    const QString why = problem();
    start_->setEnabled(why.isEmpty());
    setStatus(why.isEmpty() ? QString() : tr("Cannot start: %1").arg(why), !why.isEmpty());
}

QStringList RunLauncherDialog::arguments() const {
    QStringList args = decode_->arguments();
    if (!name_->text().trimmed().isEmpty())
        args << QStringLiteral("--name") << name_->text().trimmed();
    args << QStringLiteral("--out") << QFileInfo(output_->text().trimmed()).absoluteFilePath();
    return args;
}

bool RunLauncherDialog::start() {
    if (process_->running()) return false;
    if (const QString why = problem(); !why.isEmpty()) {
        setStatus(tr("Cannot start: %1").arg(why), true);
        return false;
    }
    const QFileInfo out(output_->text().trimmed());
    if (!QDir().mkpath(out.absolutePath())) {
        setStatus(tr("Cannot create the folder %1").arg(out.absolutePath()), true);
        return false;
    }
    close_when_cancelled_ = false;
    progress_->setRange(0, 0);  // busy until the first progress line
    setRunning(true);
    tail_->clear();
    if (externalMode()) {
        setStatus(tr("Tracing your program…"), false);  // the tail shows how it goes
        return process_->startCapture(capture_child(external_->command(output_->text())));
    }
    setStatus(tr("Starting tokenscope-cli…"), false);
    if (sweepMode()) {
        sweep_clock_.start();
        return process_->startSweep(sweep_child(sweep_form_->launch(output_->text())).arguments);
    }
    process_->start(arguments());
    return true;
}

void RunLauncherDialog::reject() {
    if (!process_->running()) {
        QDialog::reject();
        return;
    }
    close_when_cancelled_ = true;
    setStatus(tr("Cancelling…"), false);
    cancel_->setEnabled(false);
    process_->cancel();
}

void RunLauncherDialog::onFinished(const QString& file, qint64 run_id) {
    setRunning(false);
    setStatus(tr("Run %1 stored in %2").arg(run_id).arg(file), false);
    // A fresh default for the next run, so it does not append to this file by accident.
    if (output_->text() == file || QFileInfo(output_->text()).absoluteFilePath() == file)
        output_->setText(defaultOutput());
    emit runFinished(file, run_id);
    accept();
}

void RunLauncherDialog::setRunning(bool running) {
    form_->setEnabled(!running);
    start_->setEnabled(!running);
    cancel_->setEnabled(true);
    progress_->setVisible(running);
    if (!running) updateProblem();
}

void RunLauncherDialog::setStatus(const QString& text, bool error) {
    status_->setText(text);
    status_->setStyleSheet(error ? QStringLiteral("color: #d55e00;") : QString());
}

}  // namespace tokenscope::ui
