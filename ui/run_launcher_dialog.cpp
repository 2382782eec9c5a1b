#include "run_launcher_dialog.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "capture/backend_registry.h"
#include "capture/capture_config.h"
#include "capture/gpu_presets.h"
#include "capture_process.h"
#include "external_command.h"
#include "kernels/decode_config.h"
#include "kernels/model_shape.h"
#include "sweep_launch_form.h"

namespace tokenscope::ui {
namespace {

QSpinBox* spin(QWidget* parent, int low, int high, int value) {
    auto* box = new QSpinBox(parent);
    box->setRange(low, high);
    box->setValue(value);
    return box;
}

QComboBox* combo(QWidget* parent, const std::vector<std::string>& items) {
    auto* box = new QComboBox(parent);
    for (const std::string& item : items) box->addItem(QString::fromStdString(item));
    return box;
}

QString shape_text(const kernels::ModelShape& s) {
    // Two fixed lines: a word-wrapped label in a form layout gets its height wrong.
    const QLocale locale;
    return QObject::tr(
               "%1 layers, hidden %2, FFN %3, vocab %4\n"
               "%5 heads (%6 KV, dim %7), %8, %9 B parameters")
        .arg(s.layers)
        .arg(s.hidden)
        .arg(s.ffn)
        .arg(s.vocab)
        .arg(s.heads)
        .arg(s.kv_heads)
        .arg(s.head_dim)
        .arg(QString::fromUtf8(kernels::to_string(s.dtype).data()))
        .arg(locale.toString(static_cast<double>(s.parameter_count()) / 1e9, 'f', 2));
}

}  // namespace

RunLauncherDialog::RunLauncherDialog(QWidget* parent)
    : QDialog(parent), process_(new CaptureProcess(this)) {
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
    for (QWidget* w : std::initializer_list<QWidget*>{mode_, buildWorkload(), buildStrategy(),
                                                      buildBackend(), external_, sweep_form_})
        fields->addWidget(w);
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
    updateShape();
    updateStrategy();
    updateBackend();
    updateMode();
}

void RunLauncherDialog::connectProcess() {
    connect(process_, &CaptureProcess::outputLine, tail_, &QPlainTextEdit::appendPlainText);

    connect(process_, &CaptureProcess::progress, this, [this](qint64 done, qint64 total) {
        progress_->setRange(
            0, static_cast<int>(std::min<qint64>(total, std::numeric_limits<int>::max())));
        progress_->setValue(
            static_cast<int>(std::min<qint64>(done, std::numeric_limits<int>::max())));
        setStatus(sweepMode() ? sweep_status(done, total, sweep_clock_.elapsed())
                              : tr("Decoding: iteration %1 of %2").arg(done).arg(total),
                  false);
    });
    connect(process_, &CaptureProcess::finished, this, &RunLauncherDialog::onFinished);
    connect(process_, &CaptureProcess::sweepFinished, this, [this](const QString& file) {
        emit sweepFinished(file);
        onFinished(file, process_->lastSweepRun());
    });
    connect(process_, &CaptureProcess::failed, this, [this](const QString& message) {
        setRunning(false);
        setStatus(tr("The run failed: %1").arg(message), true);
    });
    connect(process_, &CaptureProcess::cancelled, this, [this] {
        setRunning(false);
        setStatus(sweepMode() ? tr("Cancelled; the finished runs are kept (tokenscope-cli sweep "
                                   "--resume continues).")
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
    // The built-in fields' group boxes are their widgets' parents.
    for (QWidget* w : std::initializer_list<QWidget*>{preset_, strategy_, backend_})
        w->parentWidget()->setVisible(mode_->currentIndex() == 0);
    for (QWidget* w : std::initializer_list<QWidget*>{external_, tail_})
        w->setVisible(externalMode());
    sweep_form_->setVisible(sweepMode());
    name_->setEnabled(!sweepMode());  // the sweep form names the sweep
    updateProblem();
}

// The fields start where `tokenscope-cli run` does without options (capture::run_defaults).
QWidget* RunLauncherDialog::buildWorkload() {
    const capture::CaptureConfig defaults = capture::run_defaults();
    auto* group = new QGroupBox(tr("Workload"), this);
    auto* form = new QFormLayout(group);
    preset_ = combo(group, kernels::model_preset_names());
    preset_->setCurrentText(QString::fromStdString(defaults.model));
    shape_ = new QLabel(group);
    shape_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    batch_ = spin(group, 1, 4096, static_cast<int>(defaults.decode.batch));
    prompt_ = spin(group, 1, 1 << 20, static_cast<int>(defaults.decode.prompt_len));
    tokens_ = spin(group, 1, 1 << 20, static_cast<int>(defaults.decode.new_tokens));
    form->addRow(tr("Preset:"), preset_);
    form->addRow(tr("Shape:"), shape_);
    form->addRow(tr("Batch:"), batch_);
    form->addRow(tr("Prompt tokens:"), prompt_);
    form->addRow(tr("New tokens:"), tokens_);
    connect(preset_, &QComboBox::currentTextChanged, this, &RunLauncherDialog::updateShape);
    for (QSpinBox* box : {batch_, prompt_, tokens_})
        connect(box, &QSpinBox::valueChanged, this, &RunLauncherDialog::updateProblem);
    return group;
}

QWidget* RunLauncherDialog::buildStrategy() {
    const kernels::DecodeConfig d = capture::run_defaults().decode;
    auto* group = new QGroupBox(tr("Decoding"), this);
    auto* form = new QFormLayout(group);
    strategy_ = new QComboBox(group);
    for (auto s : {kernels::Strategy::Greedy, kernels::Strategy::TopK, kernels::Strategy::Beam,
                   kernels::Strategy::Speculative})
        strategy_->addItem(QString::fromUtf8(kernels::to_string(s).data()));
    strategy_->setCurrentText(QString::fromUtf8(kernels::to_string(d.strategy).data()));
    top_k_ = spin(group, 1, 1 << 20, static_cast<int>(d.top_k));
    beams_ = spin(group, 1, 256, static_cast<int>(d.beams));
    draft_layers_ = spin(group, 1, 1024, static_cast<int>(d.draft_layers));
    gamma_ = spin(group, 1, 64, static_cast<int>(d.gamma));
    acceptance_ = new QDoubleSpinBox(group);
    acceptance_->setRange(0.0, 1.0);
    acceptance_->setSingleStep(0.05);
    acceptance_->setValue(d.acceptance);
    seed_ = spin(group, 0, std::numeric_limits<int>::max(), static_cast<int>(d.seed));
    form->addRow(tr("Strategy:"), strategy_);
    form->addRow(tr("Top-k:"), top_k_);
    form->addRow(tr("Beams:"), beams_);
    form->addRow(tr("Draft layers:"), draft_layers_);
    form->addRow(tr("Gamma (proposed tokens):"), gamma_);
    form->addRow(tr("Acceptance rate:"), acceptance_);
    form->addRow(tr("Seed:"), seed_);
    connect(strategy_, &QComboBox::currentTextChanged, this, &RunLauncherDialog::updateStrategy);
    for (QSpinBox* box : {top_k_, beams_, draft_layers_, gamma_})
        connect(box, &QSpinBox::valueChanged, this, &RunLauncherDialog::updateProblem);
    return group;
}

QWidget* RunLauncherDialog::buildBackend() {
    auto* group = new QGroupBox(tr("Backend"), this);
    auto* form = new QFormLayout(group);
    backend_ = new QComboBox(group);
    backend_note_ = new QLabel(group);
    backend_note_->setWordWrap(true);
    gpu_ = combo(group, capture::gpu_preset_names());
    gpu_->setCurrentText(QString::fromStdString(capture::run_defaults().gpu));
    gpu_->setToolTip(tr("The GPU the cost model impersonates"));
    form->addRow(tr("Backend:"), backend_);
    form->addRow(QString(), backend_note_);
    form->addRow(tr("GPU preset:"), gpu_);
    fillBackends();
    connect(backend_, &QComboBox::currentTextChanged, this, &RunLauncherDialog::updateBackend);
    return group;
}

void RunLauncherDialog::fillBackends() {
    // Asked once, when the dialog opens: a driver does not appear while it is up.
    auto* items = qobject_cast<QStandardItemModel*>(backend_->model());
    QStringList notes;
    for (const std::string& name : capture::backend_names()) {
        const auto backend = capture::make_backend(name);
        const capture::Availability a =
            backend ? backend->available() : capture::Availability{false, "unknown backend"};
        const QString label = QString::fromStdString(name);
        backend_->addItem(label);
        const int row = backend_->count() - 1;
        if (a.ok) continue;
        const QString reason = QString::fromStdString(a.reason);
        items->item(row)->setEnabled(false);
        backend_->setItemData(row, tr("Unavailable: %1").arg(reason), Qt::ToolTipRole);
        notes << tr("%1 unavailable: %2").arg(label, reason.toHtmlEscaped());
    }
    backend_->setCurrentText(QStringLiteral("model"));
    backend_note_->setText(notes.join(QStringLiteral("<br>")));
    backend_note_->setVisible(!notes.isEmpty());
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

void RunLauncherDialog::updateShape() {
    const auto shape = kernels::find_model_preset(preset_->currentText().toStdString());
    shape_->setText(shape ? shape_text(*shape) : tr("unknown preset"));
    updateProblem();
}

void RunLauncherDialog::updateStrategy() {
    const auto s = kernels::strategy_from_string(strategy_->currentText().toStdString());
    top_k_->setEnabled(s == kernels::Strategy::TopK);
    beams_->setEnabled(s == kernels::Strategy::Beam);
    for (QWidget* w : std::initializer_list<QWidget*>{draft_layers_, gamma_, acceptance_})
        w->setEnabled(s == kernels::Strategy::Speculative);
    updateProblem();
}

void RunLauncherDialog::updateBackend() {
    // GPU presets parameterise the cost model only; other backends measure.
    gpu_->setEnabled(backend_->currentText() == QLatin1String("model"));
    updateProblem();
}

QString RunLauncherDialog::problem() const {
    if (externalMode()) return external_->problem(output_->text());
    if (sweepMode()) return sweep_child(sweep_form_->launch(output_->text())).problem;
    const auto shape = kernels::find_model_preset(preset_->currentText().toStdString());
    if (!shape) return tr("unknown workload preset '%1'").arg(preset_->currentText());
    const int b = backend_->currentIndex();
    if (b < 0 ||
        !backend_->model()->flags(backend_->model()->index(b, 0)).testFlag(Qt::ItemIsEnabled))
        return tr("backend '%1' is not available here").arg(backend_->currentText());
    if (output_->text().trimmed().isEmpty()) return tr("choose an output file");
    kernels::DecodeConfig d;
    d.strategy = *kernels::strategy_from_string(strategy_->currentText().toStdString());
    d.batch = batch_->value();
    d.prompt_len = prompt_->value();
    d.new_tokens = tokens_->value();
    d.top_k = top_k_->value();
    d.beams = beams_->value();
    d.draft_layers = draft_layers_->value();
    d.gamma = gamma_->value();
    d.acceptance = acceptance_->value();
    return QString::fromStdString(d.validate(*shape));
}

void RunLauncherDialog::updateProblem() {
    if (status_ == nullptr || start_ == nullptr || process_->running()) return;
    const QString why = problem();
    start_->setEnabled(why.isEmpty());
    setStatus(why.isEmpty() ? QString() : tr("Cannot start: %1").arg(why), !why.isEmpty());
}

QStringList RunLauncherDialog::arguments() const {
    const auto num = [](int v) { return QString::number(v); };
    QStringList args{
        QStringLiteral("--backend"), backend_->currentText(),      QStringLiteral("--preset"),
        preset_->currentText(),      QStringLiteral("--batch"),    num(batch_->value()),
        QStringLiteral("--prompt"),  num(prompt_->value()),        QStringLiteral("--tokens"),
        num(tokens_->value()),       QStringLiteral("--strategy"), strategy_->currentText(),
        QStringLiteral("--seed"),    num(seed_->value())};
    if (gpu_->isEnabled()) args << QStringLiteral("--gpu") << gpu_->currentText();
    if (top_k_->isEnabled()) args << QStringLiteral("--top-k") << num(top_k_->value());
    if (beams_->isEnabled()) args << QStringLiteral("--beams") << num(beams_->value());
    if (gamma_->isEnabled())
        args << QStringLiteral("--draft-layers") << num(draft_layers_->value())
             << QStringLiteral("--gamma") << num(gamma_->value()) << QStringLiteral("--acceptance")
             << QString::number(acceptance_->value(), 'g', 6);
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
