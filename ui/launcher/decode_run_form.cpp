#include "decode_run_form.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <limits>

#include "capture/backend_registry.h"
#include "capture/capture_config.h"
#include "capture/decode_choices.h"
#include "capture/gpu_presets.h"
#include "ui/shared/gui_words.h"

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

// A parameter count as people say it: "15.7 M", "8.03 B" (the tiny preset read
// "0.00 B").
QString parameter_text(std::int64_t count) {
    const QLocale locale;
    const double n = static_cast<double>(count);
    if (n >= 1e9) return QObject::tr("%1 B").arg(locale.toString(n / 1e9, 'f', 2));
    if (n >= 1e6) return QObject::tr("%1 M").arg(locale.toString(n / 1e6, 'f', n >= 1e8 ? 0 : 1));
    if (n >= 1e3) return QObject::tr("%1 K").arg(locale.toString(n / 1e3, 'f', 1));
    return locale.toString(count);
}

QString shape_text(const capture::ShapeSummary& s) {
    // Two fixed lines: a word-wrapped label in a form layout gets its height wrong.
    return QObject::tr(
               "%1 layers, hidden %2, FFN %3, vocab %4\n"
               "%5 heads (%6 KV, dim %7), %8, %9 parameters")
        .arg(s.layers)
        .arg(s.hidden)
        .arg(s.ffn)
        .arg(s.vocab)
        .arg(s.heads)
        .arg(s.kv_heads)
        .arg(s.head_dim)
        .arg(QString::fromStdString(s.dtype),
             parameter_text(static_cast<std::int64_t>(s.parameters)));
}

}  // namespace

DecodeRunForm::DecodeRunForm(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    for (QWidget* w : {buildWorkload(), buildStrategy(), buildBackend()}) layout->addWidget(w);
    updateShape();
    updateStrategy();
    updateBackend();
}

// The fields start where `tokenscope-cli run` does without options (capture::run_defaults).
QWidget* DecodeRunForm::buildWorkload() {
    const capture::CaptureConfig defaults = capture::run_defaults();
    auto* group = new QGroupBox(tr("Workload"), this);
    auto* form = new QFormLayout(group);
    preset_ = combo(group, capture::model_preset_names());
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
    connect(preset_, &QComboBox::currentTextChanged, this, &DecodeRunForm::updateShape);
    for (QSpinBox* box : {batch_, prompt_, tokens_})
        connect(box, &QSpinBox::valueChanged, this, &DecodeRunForm::changed);
    return group;
}

QWidget* DecodeRunForm::buildStrategy() {
    const capture::DecodeConfig d = capture::run_defaults().decode;
    auto* group = new QGroupBox(tr("Decoding"), this);
    auto* form = new QFormLayout(group);
    strategy_ = combo(group, capture::strategy_names());
    strategy_->setCurrentText(QString::fromStdString(capture::default_strategy()));
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
    connect(strategy_, &QComboBox::currentTextChanged, this, &DecodeRunForm::updateStrategy);
    for (QSpinBox* box : {top_k_, beams_, draft_layers_, gamma_})
        connect(box, &QSpinBox::valueChanged, this, &DecodeRunForm::changed);
    return group;
}

QWidget* DecodeRunForm::buildBackend() {
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
    connect(backend_, &QComboBox::currentTextChanged, this, &DecodeRunForm::updateBackend);
    return group;
}

void DecodeRunForm::fillBackends() {
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
        const QString reason = GuiWords::fromCli(QString::fromStdString(a.reason));
        items->item(row)->setEnabled(false);
        backend_->setItemData(row, tr("Unavailable: %1").arg(reason), Qt::ToolTipRole);
        notes << tr("%1 unavailable: %2").arg(label, reason.toHtmlEscaped());
    }
    backend_->setCurrentText(QString::fromUtf8(capture::kDefaultBackend));
    backend_note_->setText(notes.join(QStringLiteral("<br>")));
    backend_note_->setVisible(!notes.isEmpty());
}

void DecodeRunForm::updateShape() {
    const auto shape = capture::model_shape(preset_->currentText().toStdString());
    shape_->setText(shape ? shape_text(*shape) : tr("unknown preset"));
    emit changed();
}

void DecodeRunForm::updateStrategy() {
    const QString s = strategy_->currentText();
    top_k_->setEnabled(s == QLatin1String("topk"));
    beams_->setEnabled(s == QLatin1String("beam"));
    for (QWidget* w : std::initializer_list<QWidget*>{draft_layers_, gamma_, acceptance_})
        w->setEnabled(s == QLatin1String("speculative"));
    emit changed();
}

void DecodeRunForm::updateBackend() {
    const auto backend = capture::make_backend(backend_->currentText().toStdString());
    gpu_->setEnabled(backend && backend->uses_gpu_preset());
    emit changed();
}

QString DecodeRunForm::problem(const QString& output) const {
    if (!capture::model_shape(preset_->currentText().toStdString()))
        return tr("unknown workload preset '%1'").arg(preset_->currentText());
    const int b = backend_->currentIndex();
    if (b < 0 ||
        !backend_->model()->flags(backend_->model()->index(b, 0)).testFlag(Qt::ItemIsEnabled))
        return tr("backend '%1' is not available here").arg(backend_->currentText());
    if (output.trimmed().isEmpty()) return tr("choose an output file");
    capture::DecodeConfig d;
    d.batch = batch_->value();
    d.prompt_len = prompt_->value();
    d.new_tokens = tokens_->value();
    d.top_k = top_k_->value();
    d.beams = beams_->value();
    d.draft_layers = draft_layers_->value();
    d.gamma = gamma_->value();
    d.acceptance = acceptance_->value();
    return QString::fromStdString(capture::decode_problem(
        preset_->currentText().toStdString(), strategy_->currentText().toStdString(), d));
}

QStringList DecodeRunForm::arguments() const {
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
    return args;
}

}  // namespace tokenscope::ui
