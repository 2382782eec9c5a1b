#include "step_pattern_panel.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTextDocumentFragment>
#include <QTreeView>
#include <QVBoxLayout>
#include <regex>
#include <string_view>

#include "import/step_presets.h"

namespace tokenscope::ui {
namespace {

const trace::Diagnostic* no_steps(const OpenRun& run) {
    if (!run.valid()) return nullptr;
    for (const auto& d : run.data->diagnostics)
        if (d.name == "no_steps") return &d;
    return nullptr;
}

}  // namespace

// The marker shapes of the presets in step_presets.h, looser than the presets themselves
// (which also read the batch from the marker): a trace whose markers differ a little from
// what a preset expects still frames its iterations with one of these.
const QList<StepPatternPanel::Suggestion>& StepPatternPanel::suggestions() {
    static const QList<Suggestion> kList = {
        {QStringLiteral("^execute_"), tr("vLLM V1, SGLang: execute_… annotations")},
        {QStringLiteral(R"(gpu_model_runner\.py\(\d+\): execute_model)"),
         tr("vLLM V1 Python stacks")},
        {QStringLiteral(R"(^step\[)"), tr("SGLang: step[DECODE bs=N]")},
        {QStringLiteral(R"(scheduler\.py\(\d+\): _run_batch_inner)"), tr("SGLang Python stacks")},
        {QStringLiteral("_forward_step"), tr("TensorRT-LLM")},
        {QStringLiteral("^ProfilerStep#"), tr("PyTorch profiler steps")},
        {QStringLiteral("^(step|iteration|decode)"), tr("generic step names")},
    };
    return kList;
}

StepPatternPanel::StepPatternPanel(QWidget* parent)
    : QWidget(parent),
      message_(new QLabel(this)),
      presets_(new QLabel(this)),
      help_(new QLabel(this)),
      pattern_(new QComboBox(this)),
      apply_(new QPushButton(tr("&Apply"), this)),
      error_(new QLabel(this)) {
    for (QLabel* label : {message_, presets_, help_}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    }
    message_->setTextFormat(Qt::RichText);
    presets_->setTextFormat(Qt::PlainText);
    help_->setTextFormat(Qt::PlainText);
    help_->setText(
        tr("Give a regular expression that matches the marker of one engine iteration (a "
           "user annotation, Python function, NVTX range or CPU op; the Timeline's find box "
           "shows the names in the trace), or pick one from the list, and Apply to open the "
           "file again with it."));
    pattern_->setObjectName(QStringLiteral("stepPattern"));
    apply_->setObjectName(QStringLiteral("stepPatternApply"));
    error_->setObjectName(QStringLiteral("stepPatternError"));
    pattern_->setEditable(true);
    pattern_->setInsertPolicy(QComboBox::NoInsert);
    pattern_->setCompleter(nullptr);  // a regex is typed as it is, not completed to another
    // The dock is narrow: the field does not grow to the longest entry, its list does.
    pattern_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    pattern_->setMinimumContentsLength(12);
    pattern_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    // The list: each regex (what the field takes) beside the engines whose markers it matches.
    auto* model = new QStandardItemModel(0, 2, pattern_);
    for (const Suggestion& s : suggestions()) {
        auto* engines = new QStandardItem(s.engines);
        engines->setForeground(palette().color(QPalette::PlaceholderText));
        model->appendRow({new QStandardItem(s.pattern), engines});
    }
    auto* list = new QTreeView(pattern_);
    list->setHeaderHidden(true);
    list->setRootIsDecorated(false);
    list->setAllColumnsShowFocus(true);
    list->setSelectionBehavior(QAbstractItemView::SelectRows);
    pattern_->setModel(model);
    pattern_->setView(list);
    pattern_->setModelColumn(0);
    list->resizeColumnToContents(0);
    list->setColumnWidth(0, list->columnWidth(0) + 24);  // room between regex and engines
    list->resizeColumnToContents(1);
    list->setMinimumWidth(list->columnWidth(0) + list->columnWidth(1) + 8);
    pattern_->lineEdit()->setPlaceholderText(tr("a regex, e.g. ^execute_"));
    pattern_->setToolTip(
        tr("A regular expression (ECMAScript) matched against the names of the trace's "
           "markers: user annotations, Python functions, NVTX ranges and CPU ops. Each "
           "outermost match is one iteration. The Timeline's find box shows the names in "
           "the trace."));
    connect(pattern_->lineEdit(), &QLineEdit::returnPressed, this, &StepPatternPanel::apply);
    connect(pattern_, &QComboBox::editTextChanged, this, [this] { error_->clear(); });
    connect(apply_, &QPushButton::clicked, this, &StepPatternPanel::apply);
    apply_->setToolTip(tr("Open the file again, its iterations framed by this pattern"));
    error_->setWordWrap(true);
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->setStyleSheet(QStringLiteral("color: #d55e00"));

    auto* field = new QLabel(tr("Step &pattern:"), this);
    field->setBuddy(pattern_);
    // The field's name above it: in the narrow dock the field keeps its room.
    auto* row = new QHBoxLayout;
    row->addWidget(pattern_, 1);
    row->addWidget(apply_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(message_);
    layout->addWidget(presets_);
    layout->addWidget(help_);
    layout->addSpacing(4);
    layout->addWidget(field);
    layout->addLayout(row);
    layout->addWidget(error_);
    setRun(OpenRun{});
}

bool StepPatternPanel::wanted(const OpenRun& run) {
    return run.valid() && run.data->steps.empty() && no_steps(run) != nullptr;
}

// The diagnostic's "... an iteration preset (vllm, vllm-sq, ..., generic), so ...".
QStringList StepPatternPanel::presetsTried(const OpenRun& run) {
    if (const trace::Diagnostic* d = no_steps(run)) {
        const QString text = QString::fromStdString(d->text);
        const QString open = QStringLiteral("preset (");
        const qsizetype from = text.indexOf(open);
        const qsizetype to = from < 0 ? -1 : text.indexOf(QLatin1Char(')'), from);
        if (to > from) {
            QStringList names = text.mid(from + open.size(), to - from - open.size())
                                    .split(QLatin1Char(','), Qt::SkipEmptyParts);
            for (QString& n : names) n = n.trimmed();
            names.removeAll(QString());
            if (!names.isEmpty()) return names;
        }
    }
    QStringList names;
    for (std::string_view n : import::StepSelector::preset_names())
        names << QString::fromUtf8(n.data(), static_cast<qsizetype>(n.size()));
    return names;
}

void StepPatternPanel::setRun(const OpenRun& run) {
    run_ = run;
    error_->clear();
    apply_->setEnabled(true);
    pattern_->setEnabled(true);
    setVisible(wanted(run));
    if (!wanted(run)) return;
    if (run.step_pattern.isEmpty()) {
        message_->setText(
            tr("<b>No iterations found:</b> no marker in this trace matched a preset (vLLM, "
               "SGLang, TensorRT-LLM, PyTorch ProfilerStep …), so the run has no steps to "
               "break down."));
        presets_->setText(
            tr("Presets tried: %1.").arg(presetsTried(run).join(QStringLiteral(", "))));
    } else {
        message_->setText(tr("<b>No iterations found:</b> no marker in this trace matched the "
                             "step pattern <code>%1</code>, so the run has no steps to break "
                             "down.")
                              .arg(run.step_pattern.toHtmlEscaped()));
        presets_->clear();
    }
    presets_->setVisible(!presets_->text().isEmpty());
    pattern_->setCurrentIndex(-1);
    pattern_->setEditText(run.step_pattern);
}

void StepPatternPanel::setCompact(bool compact) {
    help_->setVisible(!compact);
}

void StepPatternPanel::setReopening(const QString& pattern) {
    if (!wanted(run_)) return;
    apply_->setEnabled(false);
    pattern_->setEnabled(false);
    error_->setStyleSheet(QString());
    error_->setText(tr("Opening the file again with the step pattern %1…").arg(pattern));
}

void StepPatternPanel::showError(const QString& text) {
    apply_->setEnabled(true);
    pattern_->setEnabled(true);
    error_->setStyleSheet(QStringLiteral("color: #d55e00"));
    error_->setText(text);
}

QString StepPatternPanel::message() const {
    QStringList parts{QTextDocumentFragment::fromHtml(message_->text()).toPlainText()};
    if (!presets_->text().isEmpty()) parts << presets_->text();
    if (!help_->isHidden()) parts << help_->text();  // left out when compact
    return parts.join(QLatin1Char('\n'));
}

QString StepPatternPanel::error() const {
    return error_->text();
}

void StepPatternPanel::apply() {
    if (!run_.valid() || !apply_->isEnabled()) return;
    const QString pattern = pattern_->currentText();
    if (pattern.isEmpty()) {
        showError(tr("Type a step pattern first, or pick one from the list."));
        return;
    }
    // The importer's grammar (import::StepSelector): checked here, so a bad pattern is
    // reported next to the field and the open run stays as it is.
    try {
        const std::regex check(pattern.toStdString(), std::regex::ECMAScript);
        (void)check;
    } catch (const std::regex_error& e) {
        showError(tr("Not a valid regular expression: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    emit applyRequested(run_.path, pattern);
}

}  // namespace tokenscope::ui
