#pragma once

#include <QObject>
#include <QStringList>

class QMenu;
class QWidget;

namespace tokenscope::ui {

// File > Open Recent and the Open dialog's folder, both kept in QSettings
// ("recent/files", newest first, and "recent/dir") so they survive restarts.
class RecentFiles : public QObject {
    Q_OBJECT
  public:
    // Fills `menu` (owned by the caller) with the saved files.
    RecentFiles(QMenu* menu, QObject* parent = nullptr);

    // Puts `paths` first, as absolute paths, keeping at most kMax.
    void add(const QStringList& paths);
    QStringList files() const;
    // The Open dialog, starting in the folder of the last files chosen there;
    // remembers the new folder. Empty when the user cancels.
    QStringList choose(QWidget* parent);

    static constexpr int kMax = 10;

  signals:
    void openRequested(const QString& path);

  private:
    void refresh();

    QMenu* menu_;
};

}  // namespace tokenscope::ui
