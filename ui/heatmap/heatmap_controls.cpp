#include "heatmap_controls.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>

#include "analysis/join/slow_tokens.h"
#include "analysis/run_kind.h"

namespace tokenscope::ui {
namespace {

using analysis::HeatmapMetric;
using analysis::HeatmapRows;

// Window units: a step count, or ns per unit for time windows.
constexpr qint64 kSteps = 0;
constexpr std::array<std::pair<const char*, qint64>, 4> kUnits = {
    {{"steps", kSteps}, {"us", 1'000}, {"ms", 1'000'000}, {"s", 1'000'000'000}}};

bool kernel_rows(HeatmapRows rows) {
    return analysis::kernel_metric_rows(rows);
}

void select_data(QComboBox* box, int value) {
    const int i = box->findData(value);
    if (i >= 0) box->setCurrentIndex(i);
}

QLabel* caption(const QString& text, QWidget* buddy, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setBuddy(buddy);
    return label;
}

}  // namespace

HeatmapControls::HeatmapControls(QWidget* parent)
    : QWidget(parent),
      metric_(new QComboBox(this)),
      rows_(new QComboBox(this)),
      window_(new QSpinBox(this)),
      window_unit_(new QComboBox(this)),
      top_n_(new QSpinBox(this)),
      sla_windows_(new QSpinBox(this)) {
    metric_->addItem(tr("Step latency"), int(HeatmapMetric::StepLatency));
    metric_->addItem(tr("ITL"), int(HeatmapMetric::Itl));
    metric_->addItem(tr("TTFT"), int(HeatmapMetric::Ttft));
    metric_->addItem(tr("Kernel duration"), int(HeatmapMetric::KernelDuration));
    rows_->addItem(tr("Phase"), int(HeatmapRows::Phase));
    rows_->addItem(tr("Request"), int(HeatmapRows::Request));
    rows_->addItem(tr("Token position"), int(HeatmapRows::Position));
    rows_->addItem(tr("Requests in flight"), int(HeatmapRows::Concurrency));
    rows_->addItem(tr("Batch composition"), int(HeatmapRows::Batch));
    rows_->addItem(tr("Kernel (top N)"), int(HeatmapRows::Kernel));
    rows_->addItem(tr("Lane"), int(HeatmapRows::Lane));
    rows_->addItem(tr("Rank"), int(HeatmapRows::Rank));
    rows_->addItem(tr("Kernel role"), int(HeatmapRows::Role));
    window_->setRange(1, 1'000'000);
    for (const auto& [name, per] : kUnits) window_unit_->addItem(QString::fromLatin1(name), per);
    top_n_->setRange(1, 500);
    // Sized to their longest item, the combo boxes made the Heatmap tab (and
    // so the main window) wider than a 1600 px screen; their popups still
    // show every item in full.
    for (QComboBox* box : {metric_, rows_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(9);
    }
    sla_windows_->setRange(0, 100'000);
    sla_windows_->setSpecialValueText(tr("half"));
    sla_windows_->setToolTip(
        tr("Calibrate each row's SLA on its first N windows, the baseline (half: "
           "the first half); only windows after the baseline are flagged for "
           "recalibration"));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(caption(tr("&Metric"), metric_, this));
    layout->addWidget(metric_);
    layout->addWidget(caption(tr("&Rows"), rows_, this));
    layout->addWidget(rows_);
    layout->addWidget(caption(tr("&Window"), window_, this));
    layout->addWidget(window_);
    layout->addWidget(window_unit_);
    layout->addWidget(caption(tr("&Top"), top_n_, this));
    layout->addWidget(top_n_);
    layout->addWidget(caption(tr("&SLA windows"), sla_windows_, this));
    layout->addWidget(sla_windows_);
    layout->addStretch(1);

    // The defaults of `tokenscope-cli heatmap`: phase rows, step latency, 16-step windows.
    analysis::HeatmapSpec defaults;
    defaults.window = analysis::WindowKind::Steps;
    defaults.window_size = 16;
    applySpec(defaults);
    auto changed = [this] {
        if (!quiet_) emit specChanged();
    };
    connect(rows_, &QComboBox::currentIndexChanged, this, [this, changed] {
        fitMetricToRows();
        updateEnabled();
        changed();
    });
    connect(metric_, &QComboBox::currentIndexChanged, this, changed);
    connect(window_, &QSpinBox::valueChanged, this, changed);
    connect(window_unit_, &QComboBox::currentIndexChanged, this, changed);
    connect(top_n_, &QSpinBox::valueChanged, this, changed);
    connect(sla_windows_, &QSpinBox::valueChanged, this, changed);
}

analysis::HeatmapSpec HeatmapControls::spec() const {
    analysis::HeatmapSpec s;
    s.rows = static_cast<HeatmapRows>(rows_->currentData().toInt());
    s.metric = static_cast<HeatmapMetric>(metric_->currentData().toInt());
    const qint64 per = window_unit_->currentData().toLongLong();
    s.window = per == kSteps ? analysis::WindowKind::Steps : analysis::WindowKind::Time;
    s.window_size = per == kSteps ? window_->value() : window_->value() * per;
    s.top_n = static_cast<std::size_t>(top_n_->value());
    s.sla_windows = static_cast<std::size_t>(sla_windows_->value());
    return s;
}

void HeatmapControls::setSpec(const analysis::HeatmapSpec& s) {
    pinned_ = true;
    applySpec(s);
}

void HeatmapControls::applySpec(const analysis::HeatmapSpec& s) {
    quiet_ = true;
    select_data(rows_, int(s.rows));
    select_data(metric_, int(s.metric));
    qint64 per = kSteps;
    if (s.window == analysis::WindowKind::Time) {
        // The largest unit that divides the width keeps the number small and exact.
        per = 1'000;
        for (const auto& [name, unit] : kUnits)
            if (unit != kSteps && s.window_size % unit == 0) per = unit;
    }
    window_unit_->setCurrentIndex(window_unit_->findData(per));
    window_->setValue(static_cast<int>(per == kSteps ? s.window_size : s.window_size / per));
    top_n_->setValue(static_cast<int>(s.top_n));
    sla_windows_->setValue(static_cast<int>(s.sla_windows));
    fitMetricToRows();
    updateEnabled();
    quiet_ = false;
}

void HeatmapControls::fitMetricToRows() {
    const bool kernels = kernel_rows(static_cast<HeatmapRows>(rows_->currentData().toInt()));
    auto* model = qobject_cast<QStandardItemModel*>(metric_->model());
    for (int i = 0; i < metric_->count(); ++i) {
        const bool kernel_metric = static_cast<HeatmapMetric>(metric_->itemData(i).toInt()) ==
                                   HeatmapMetric::KernelDuration;
        if (model != nullptr) model->item(i)->setEnabled(kernel_metric == kernels);
    }
    const bool is_kernel_metric =
        static_cast<HeatmapMetric>(metric_->currentData().toInt()) == HeatmapMetric::KernelDuration;
    if (is_kernel_metric != kernels) {
        const QSignalBlocker block(metric_);
        select_data(metric_,
                    int(kernels ? HeatmapMetric::KernelDuration : HeatmapMetric::StepLatency));
    }
}

void HeatmapControls::updateEnabled() {
    top_n_->setEnabled(static_cast<HeatmapRows>(rows_->currentData().toInt()) ==
                       HeatmapRows::Kernel);
}

void HeatmapControls::save(const QString& group) const {
    QSettings settings;
    settings.beginGroup(group);
    const auto s = spec();
    settings.setValue(QStringLiteral("rows"),
                      QString::fromUtf8(analysis::to_string(s.rows).data()));
    settings.setValue(QStringLiteral("metric"),
                      QString::fromUtf8(analysis::to_string(s.metric).data()));
    settings.setValue(QStringLiteral("steps"), s.window == analysis::WindowKind::Steps);
    settings.setValue(QStringLiteral("window"), static_cast<qint64>(s.window_size));
    settings.setValue(QStringLiteral("top"), static_cast<qulonglong>(s.top_n));
    settings.setValue(QStringLiteral("sla_windows"), static_cast<qulonglong>(s.sla_windows));
}

void HeatmapControls::fitToRun(const trace::RunData& run, const QString& base) {
    const auto kind = analysis::kind_of(run.info);
    // A joined run remembers its own choice: its default (ITL by request) is not a trace's.
    group_ = base + QLatin1Char('/') +
             (analysis::is_joined_run(run) ? QStringLiteral("joined")
                                           : QString::fromLatin1(analysis::to_string(kind).data()));
    if (pinned_) return;
    applySpec(analysis::default_heatmap_spec(run));
    restore(group_);
}

void HeatmapControls::fitToRuns(const trace::RunData& a, const trace::RunData& b,
                                const QString& base) {
    const analysis::HeatmapSpec spec = analysis::default_compare_spec(a, b);
    if (spec.rows != analysis::HeatmapRows::Role) return fitToRun(a, base);
    // Two engines' traces: remembered apart from comparisons of one engine's runs.
    group_ = base + QStringLiteral("/engines");
    if (pinned_) return;
    applySpec(spec);
    restore(group_);
}

void HeatmapControls::saveChoice() const {
    if (!group_.isEmpty()) save(group_);
}

void HeatmapControls::restore(const QString& group) {
    QSettings settings;
    settings.beginGroup(group);
    if (!settings.contains(QStringLiteral("rows"))) return;
    analysis::HeatmapSpec s = spec();
    const auto rows = analysis::heatmap_rows_from_string(
        settings.value(QStringLiteral("rows")).toString().toStdString());
    const auto metric = analysis::heatmap_metric_from_string(
        settings.value(QStringLiteral("metric")).toString().toStdString());
    if (rows) s.rows = *rows;
    if (metric) s.metric = *metric;
    s.window = settings.value(QStringLiteral("steps")).toBool() ? analysis::WindowKind::Steps
                                                                : analysis::WindowKind::Time;
    s.window_size = std::max<qint64>(1, settings.value(QStringLiteral("window"), 16).toLongLong());
    s.top_n = settings.value(QStringLiteral("top"), 20).toULongLong();
    s.sla_windows = settings.value(QStringLiteral("sla_windows"), 0).toULongLong();
    applySpec(s);
}

}  // namespace tokenscope::ui
