#include "sweep_launch_form.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <cmath>
#include <stdexcept>

#include "capture/sweep/sweep_grid.h"

namespace tokenscope::ui {
namespace {

struct GridField {
    const char* option;
    const char* label;
    const char* placeholder;
    const char* initial;
};

// The CLI's grid options (app/cli/cmd_sweep.cpp), the common ones first.
constexpr GridField kFields[] = {
    {"preset", "Shapes:", "llama-8b,llama-70b", "llama-8b"},
    {"gpu", "GPU presets:", "H100-SXM5,H200 (the cost model's GPU)", "H100-SXM5"},
    {"batch", "Batch:", "1,8,32", "1,8"},
    {"prompt", "Prompt tokens:", "128:4096:x2", "512"},
    {"tokens", "New tokens:", "128", "64"},
    {"strategy", "Strategies:", "greedy,beam:4,speculative:2:4", ""},
    {"qps", "QPS (serving model):", "1:40:+2 (gives the serving model)", ""},
    {"concurrency", "Concurrency (serving):", "closed loop: 4,16,64", ""},
    {"max-num-seqs", "max_num_seqs (serving):", "256", ""},
    {"token-budget", "Token budget (serving):", "8192", ""},
    {"duration", "Duration (serving):", "60s", ""},
};

}  // namespace

SweepChild sweep_child(const SweepLaunch& l) {
    SweepChild child;
    if (l.out.trimmed().isEmpty()) child.problem = QObject::tr("choose an output file");
    if (l.repeats < 1) child.problem = QObject::tr("at least one counted repeat");
    child.arguments = {QStringLiteral("sweep"),
                       QStringLiteral("--out"),
                       QFileInfo(l.out.trimmed()).absoluteFilePath(),
                       QStringLiteral("--backend"),
                       l.backend,
                       QStringLiteral("--warmup"),
                       QString::number(l.warmup),
                       QStringLiteral("--repeats"),
                       QString::number(l.repeats)};
    if (!l.name.trimmed().isEmpty())
        child.arguments << QStringLiteral("--name") << l.name.trimmed();
    child.points = 1;
    for (const auto& [option, text] : l.grid) {
        const QString values = text.trimmed();
        if (values.isEmpty()) continue;
        child.arguments << QStringLiteral("--") + option << values;
        try {
            // Tenants hold commas inside one value; every other option is a grid.
            if (option != QLatin1String("tenants"))
                child.points *=
                    static_cast<qint64>(capture::expand_axis(values.toStdString()).size());
        } catch (const std::invalid_argument& e) {
            if (child.problem.isEmpty())
                child.problem = QObject::tr("%1: %2").arg(option, QString::fromUtf8(e.what()));
        }
    }
    child.arguments << QStringLiteral("--progress") << QStringLiteral("json");
    return child;
}

QString sweep_status(qint64 done, qint64 total, qint64 elapsed_ms) {
    const double secs = static_cast<double>(elapsed_ms) / 1000.0;
    const QString eta =
        done > 0 ? QObject::tr("%1 s").arg(std::llround(secs / static_cast<double>(done) *
                                                        static_cast<double>(total - done)))
                 : QObject::tr("?");
    return QObject::tr("Sweep: run %1 of %2 (warm-ups included), %3 s, ETA %4")
        .arg(done)
        .arg(total)
        .arg(std::llround(secs))
        .arg(eta);
}

SweepLaunchForm::SweepLaunchForm(QWidget* parent) : QGroupBox(tr("Sweep"), parent) {
    setObjectName(QStringLiteral("sweepForm"));
    auto* form = new QFormLayout(this);
    backend_ = new QComboBox(this);
    backend_->setObjectName(QStringLiteral("sweepBackend"));
    backend_->addItems({QStringLiteral("model"), QStringLiteral("cpu"), QStringLiteral("cuda")});
    backend_->setToolTip(tr("Decode points run on it; QPS or concurrency runs the serving model"));
    form->addRow(tr("Backend:"), backend_);
    for (const auto& f : kFields) {
        auto* edit = new QLineEdit(QString::fromLatin1(f.initial), this);
        edit->setObjectName(QStringLiteral("sweep_") + QString::fromLatin1(f.option));
        edit->setPlaceholderText(QString::fromLatin1(f.placeholder));
        form->addRow(tr(f.label), edit);
        fields_.emplace_back(QString::fromLatin1(f.option), edit);
        connect(edit, &QLineEdit::textChanged, this, &SweepLaunchForm::changed);
    }
    summary_ = new QComboBox(this);
    summary_->setObjectName(QStringLiteral("sweepSummary"));
    summary_->addItems({QString(), QStringLiteral("on"), QStringLiteral("requests")});
    summary_->setToolTip(
        tr("Serving model: on keeps requests and token steps but no kernels; "
           "requests keeps only requests, iterations and counters"));
    form->addRow(tr("Summary (serving):"), summary_);
    warmup_ = new QSpinBox(this);
    warmup_->setObjectName(QStringLiteral("sweepWarmup"));
    warmup_->setRange(0, 100);
    warmup_->setValue(1);
    repeats_ = new QSpinBox(this);
    repeats_->setObjectName(QStringLiteral("sweepRepeats"));
    repeats_->setRange(1, 1000);
    repeats_->setValue(3);
    name_ = new QLineEdit(this);
    name_->setObjectName(QStringLiteral("sweepName"));
    name_->setPlaceholderText(tr("default: its axes"));
    form->addRow(tr("Warm-up runs per point:"), warmup_);
    form->addRow(tr("Counted runs per point:"), repeats_);
    form->addRow(tr("Sweep name:"), name_);
    connect(backend_, &QComboBox::currentTextChanged, this, &SweepLaunchForm::changed);
    connect(summary_, &QComboBox::currentTextChanged, this, &SweepLaunchForm::changed);
    for (QSpinBox* box : {warmup_, repeats_})
        connect(box, &QSpinBox::valueChanged, this, &SweepLaunchForm::changed);
}

SweepLaunch SweepLaunchForm::launch(const QString& out) const {
    SweepLaunch l;
    l.backend = backend_->currentText();
    for (const auto& [option, edit] : fields_) l.grid.emplace_back(option, edit->text());
    if (!summary_->currentText().isEmpty())
        l.grid.emplace_back(QStringLiteral("summary"), summary_->currentText());
    l.warmup = warmup_->value();
    l.repeats = repeats_->value();
    l.name = name_->text();
    l.out = out;
    return l;
}

QLineEdit* SweepLaunchForm::field(const QString& option) const {
    for (const auto& [name, edit] : fields_)
        if (name == option) return edit;
    return nullptr;
}

}  // namespace tokenscope::ui
