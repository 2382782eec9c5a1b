#include "export_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSpinBox>
#include <algorithm>

namespace tokenscope::ui {

using Format = plots::PlotExporter::Format;

QString ExportDialog::defaultFolder(const QString& run_path) {
    // A joined run's path is "a + b": beside its first file.
    const QString first = run_path.split(QStringLiteral(" + ")).value(0);
    if (!first.isEmpty()) {
        const QFileInfo folder(QFileInfo(first).absolutePath());
        if (folder.isDir() && folder.isWritable()) return folder.absoluteFilePath();
    }
    const QString last = QSettings().value(QStringLiteral("export/dir")).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir()) return last;
    return QDir::homePath();
}

ExportDialog::ExportDialog(const QString& base_name, bool offer_csv, QWidget* parent,
                           const QString& run_path)
    : QDialog(parent),
      format_(new QComboBox(this)),
      path_(new QLineEdit(this)),
      width_(new QSpinBox(this)),
      height_(new QSpinBox(this)),
      dpi_(new QSpinBox(this)),
      hint_(new QLabel(this)) {
    setWindowTitle(tr("Export plot"));
    QSettings settings;
    format_->addItem(tr("PNG image"), int(Format::Png));
    format_->addItem(tr("SVG vector image"), int(Format::Svg));
    format_->addItem(tr("PDF document"), int(Format::Pdf));
    if (offer_csv) format_->addItem(tr("CSV matrix (P95 in ns)"), int(Format::Csv));
    for (QSpinBox* box : {width_, height_}) box->setRange(16, 20000);
    width_->setSuffix(tr(" px"));
    height_->setSuffix(tr(" px"));
    width_->setValue(settings.value(QStringLiteral("export/width"), 1600).toInt());
    height_->setValue(settings.value(QStringLiteral("export/height"), 1000).toInt());
    dpi_->setRange(24, 2400);
    dpi_->setValue(settings.value(QStringLiteral("export/dpi"), 144).toInt());
    hint_->setWordWrap(true);
    path_->setText(QDir(defaultFolder(run_path)).filePath(base_name + QStringLiteral(".png")));
    // The whole path in view, as wide as the screen allows; its start when it is longer.
    const QScreen* screen = parent != nullptr ? parent->screen() : QGuiApplication::primaryScreen();
    // The screen less the labels, the Browse button and the frame beside the field.
    const int widest = screen != nullptr ? screen->availableGeometry().width() - 240 : 900;
    path_->setMinimumWidth(
        std::min(widest, path_->fontMetrics().horizontalAdvance(path_->text()) + 48));
    path_->setCursorPosition(0);
    path_->setToolTip(path_->text());
    connect(path_, &QLineEdit::textChanged, path_, &QLineEdit::setToolTip);

    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* file_row = new QHBoxLayout;
    file_row->addWidget(path_, 1);
    file_row->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("&Format"), format_);
    // A row whose field is a layout gets no buddy from addRow: the label would show its
    // '&' ("F&ile"). Its own label, with the path field as buddy: "File", Alt+L.
    auto* file_label = new QLabel(tr("Fi&le"), this);
    file_label->setObjectName(QStringLiteral("exportFileLabel"));
    file_label->setBuddy(path_);
    form->addRow(file_label, file_row);
    form->addRow(tr("&Width"), width_);
    form->addRow(tr("&Height"), height_);
    form->addRow(tr("&DPI"), dpi_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint_);
    layout->addWidget(buttons);

    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChanged);
    for (QSpinBox* box : {width_, height_, dpi_})
        connect(box, &QSpinBox::valueChanged, this, &ExportDialog::validate);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        QSettings s;
        s.setValue(QStringLiteral("export/width"), width_->value());
        s.setValue(QStringLiteral("export/height"), height_->value());
        s.setValue(QStringLiteral("export/dpi"), dpi_->value());
        s.setValue(QStringLiteral("export/dir"), QFileInfo(path()).absolutePath());
        accept();
    });
    validate();
}

QString ExportDialog::path() const {
    return path_->text().trimmed();
}

Format ExportDialog::format() const {
    return static_cast<Format>(format_->currentData().toInt());
}

QSize ExportDialog::size() const {
    return {width_->value(), height_->value()};
}

int ExportDialog::dpi() const {
    return dpi_->value();
}

void ExportDialog::browse() {
    const QString ext = plots::PlotExporter::extension(format());
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Export to"), path(), QStringLiteral("%1 (*.%2)").arg(ext.toUpper(), ext));
    if (!chosen.isEmpty()) path_->setText(chosen);
}

void ExportDialog::formatChanged() {
    // Keep the file name and its extension in step with the format.
    const QFileInfo info(path());
    path_->setText(info.dir().filePath(info.completeBaseName() + QLatin1Char('.') +
                                       plots::PlotExporter::extension(format())));
    const bool image = format() != Format::Csv;
    for (QSpinBox* box : {width_, height_, dpi_}) box->setEnabled(image);
    validate();
}

void ExportDialog::validate() {
    const QString bad =
        format() == Format::Csv ? QString() : plots::PlotExporter::checkSize(size(), dpi());
    const QSize layout = plots::PlotExporter::layoutSize(size(), dpi());
    hint_->setText(bad.isEmpty()
                       ? tr("%1 x %2 px at %3 DPI = %4 x %5 in; laid out as %6 x %7 at 96 DPI.")
                             .arg(width_->value())
                             .arg(height_->value())
                             .arg(dpi())
                             .arg(width_->value() / double(dpi()), 0, 'f', 2)
                             .arg(height_->value() / double(dpi()), 0, 'f', 2)
                             .arg(layout.width())
                             .arg(layout.height())
                       : bad);
    if (auto* box = findChild<QDialogButtonBox*>())
        box->button(QDialogButtonBox::Ok)->setEnabled(bad.isEmpty());
}

}  // namespace tokenscope::ui
