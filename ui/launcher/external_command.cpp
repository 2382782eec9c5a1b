#include "external_command.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <regex>

#include "capture/driver_probe.h"

namespace tokenscope::ui {
namespace {

// Parses KEY=VALUE lines; blank lines and # comments are skipped. Returns the
// first bad line's problem, or empty.
QString add_variables(const QString& text, QProcessEnvironment& env) {
    int number = 0;
    for (const QString& raw : text.split(QLatin1Char('\n'))) {
        ++number;
        const QString line = raw.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return QObject::tr("environment line %1 is not KEY=VALUE: %2").arg(number).arg(line);
        env.insert(line.left(eq).trimmed(), line.mid(eq + 1));
    }
    return {};
}

QString pattern_problem(const QString& pattern) {
    // ECMAScript, as the CLI checks it: Qt's PCRE would accept other patterns.
    try {
        std::regex check(pattern.toStdString());
    } catch (const std::regex_error& e) {
        return QObject::tr("bad NVTX step pattern '%1': %2")
            .arg(pattern, QString::fromUtf8(e.what()));
    }
    return {};
}

}  // namespace

CaptureChild capture_child(const ExternalCommand& c, const QProcessEnvironment& base) {
    CaptureChild child;
    const QStringList argv = QProcess::splitCommand(c.command_line);
    if (argv.isEmpty()) child.problem = QObject::tr("enter the command to run");
    const QString dir = c.working_directory.trimmed();
    if (child.problem.isEmpty() && !dir.isEmpty() && !QFileInfo(dir).isDir())
        child.problem = QObject::tr("the working directory %1 does not exist").arg(dir);
    child.environment = base;
    if (child.problem.isEmpty()) child.problem = add_variables(c.environment, child.environment);
    if (child.problem.isEmpty()) child.problem = pattern_problem(c.steps_pattern);
    if (child.problem.isEmpty() && c.out.trimmed().isEmpty())
        child.problem = QObject::tr("choose an output file");
    child.working_directory = dir.isEmpty() ? QString() : QFileInfo(dir).absoluteFilePath();
    // Absolute, or the child's working directory would move the file.
    child.arguments << QStringLiteral("capture") << QStringLiteral("--out")
                    << QFileInfo(c.out.trimmed()).absoluteFilePath();
    if (!c.steps_pattern.isEmpty())
        child.arguments << QStringLiteral("--steps-from-nvtx") << c.steps_pattern;
    child.arguments << QStringLiteral("--") << argv;
    return child;
}

void apply_environment(const CaptureChild& child, QProcess& process) {
    process.setWorkingDirectory(child.working_directory);
    process.setProcessEnvironment(child.environment);
}

QPlainTextEdit* make_output_tail(QWidget* parent) {
    auto* tail = new QPlainTextEdit(parent);
    tail->setObjectName(QStringLiteral("outputTail"));
    tail->setReadOnly(true);
    tail->setMaximumBlockCount(200);
    return tail;
}

DriverCheck probe_cuda_driver() {
    const capture::DriverStatus s = capture::DriverProbe().probe();
    QString reason = QString::fromStdString(s.reason);
    // The probe's advice names CLI backends, which do not apply to a program.
    if (const qsizetype cut = reason.indexOf(QLatin1String("; use --backend")); cut >= 0)
        reason.truncate(cut);
    return {s.ok, reason};
}

ExternalCommandForm::ExternalCommandForm(QWidget* parent)
    : QGroupBox(tr("Your program"), parent), check_(probe_cuda_driver) {
    auto* form = new QFormLayout(this);
    driver_note_ = new QLabel(this);
    driver_note_->setObjectName(QStringLiteral("driverNote"));
    driver_note_->setWordWrap(true);
    command_ = new QLineEdit(this);
    command_->setObjectName(QStringLiteral("commandEdit"));
    command_->setPlaceholderText(tr("python decode.py --model llama-8b \"--prompt=a b\""));
    working_dir_ = new QLineEdit(this);
    working_dir_->setObjectName(QStringLiteral("workingDirEdit"));
    working_dir_->setPlaceholderText(tr("default: %1").arg(QDir::currentPath()));
    auto* browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName(QStringLiteral("workingDirBrowse"));
    auto* row = new QHBoxLayout;
    row->addWidget(working_dir_, 1);
    row->addWidget(browse);
    environment_ = new QPlainTextEdit(this);
    environment_->setObjectName(QStringLiteral("environmentEdit"));
    environment_->setPlaceholderText(tr("KEY=VALUE, one a line"));
    environment_->setMaximumHeight(80);
    steps_ = new QLineEdit(this);
    steps_->setObjectName(QStringLiteral("stepsPatternEdit"));
    steps_->setPlaceholderText(tr("NVTX ranges that frame steps, e.g. ^ProfilerStep#"));
    form->addRow(QString(), driver_note_);
    form->addRow(tr("Command:"), command_);
    form->addRow(tr("Working directory:"), row);
    form->addRow(tr("Environment:"), environment_);
    form->addRow(tr("Step pattern:"), steps_);
    connect(browse, &QPushButton::clicked, this, &ExternalCommandForm::browse);
    for (QLineEdit* edit : {command_, working_dir_, steps_})
        connect(edit, &QLineEdit::textChanged, this, &ExternalCommandForm::changed);
    connect(environment_, &QPlainTextEdit::textChanged, this, &ExternalCommandForm::changed);
    driver_ = check_();
    showDriver();
}

ExternalCommand ExternalCommandForm::command(const QString& out) const {
    return {command_->text(), working_dir_->text(), environment_->toPlainText(), steps_->text(),
            out};
}

QString ExternalCommandForm::problem(const QString& out) const {
    if (!driver_.ok) return tr("no CUDA driver (%1)").arg(driver_.reason);
    return capture_child(command(out)).problem;
}

void ExternalCommandForm::setDriverCheck(DriverCheckFn check) {
    check_ = std::move(check);
    driver_ = check_();
    showDriver();
    emit changed();
}

void ExternalCommandForm::browse() {
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Run the program in"), working_dir_->text());
    if (!dir.isEmpty()) working_dir_->setText(dir);
}

void ExternalCommandForm::showDriver() {
    driver_note_->setText(driver_.ok ? QString()
                                     : tr("No CUDA driver here (%1): a program cannot be traced "
                                          "on this machine.")
                                           .arg(driver_.reason.toHtmlEscaped()));
    driver_note_->setVisible(!driver_.ok);
}

}  // namespace tokenscope::ui
