#pragma once

#include <QDialog>
#include <QSize>

#include "ui/plots/plot_exporter.h"

class QComboBox;
class QLineEdit;
class QSpinBox;
class QLabel;

namespace tokenscope::ui {

// Asks for a file, a format, a size in pixels and a DPI (see plots::PlotExporter for
// what they mean). CSV, where offered, exports the matrix instead of the picture. The file
// goes beside the run (`run_path`'s folder) unless that folder cannot be written, then
// where the last export went, then the home folder; the field is wide enough to show the
// whole path.
class ExportDialog : public QDialog {
    Q_OBJECT
  public:
    ExportDialog(const QString& base_name, bool offer_csv, QWidget* parent = nullptr,
                 const QString& run_path = QString());

    QString path() const;
    QLineEdit* pathField() const { return path_; }
    // The folder a new export goes to (see the class comment).
    static QString defaultFolder(const QString& run_path);
    plots::PlotExporter::Format format() const;
    QSize size() const;
    int dpi() const;

  private:
    void browse();
    void formatChanged();
    void validate();

    QComboBox* format_;
    QLineEdit* path_;
    QSpinBox* width_;
    QSpinBox* height_;
    QSpinBox* dpi_;
    QLabel* hint_;
};

}  // namespace tokenscope::ui
