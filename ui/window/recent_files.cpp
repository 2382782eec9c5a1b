#include "recent_files.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace tokenscope::ui {
namespace {

// Functions, not global QStrings: no static initialisation order to think about.
QString files_key() {
    return QStringLiteral("recent/files");
}
QString dir_key() {
    return QStringLiteral("recent/dir");
}

}  // namespace

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) {
    refresh();
}

QStringList RecentFiles::files() const {
    return QSettings().value(files_key()).toStringList();
}

void RecentFiles::add(const QStringList& paths) {
    QStringList recent = files();
    for (const QString& p : paths) {
        const QString abs = QFileInfo(p).absoluteFilePath();
        recent.removeAll(abs);
        recent.prepend(abs);
    }
    while (recent.size() > kMax) recent.removeLast();
    QSettings().setValue(files_key(), recent);
    refresh();
}

QStringList RecentFiles::choose(QWidget* parent) {
    QSettings settings;
    const QStringList paths = QFileDialog::getOpenFileNames(
        parent, tr("Open runs or traces"), settings.value(dir_key()).toString(),
        tr("Tokenscope runs (*.tokenscope);;All files (*)"));
    if (!paths.isEmpty()) settings.setValue(dir_key(), QFileInfo(paths.first()).absolutePath());
    return paths;
}

void RecentFiles::refresh() {
    menu_->clear();
    const QStringList recent = files();
    for (const QString& path : recent)
        menu_->addAction(path, this, [this, path] { emit openRequested(path); });
    menu_->setEnabled(!recent.isEmpty());
}

}  // namespace tokenscope::ui
