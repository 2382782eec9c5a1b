#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;

namespace tokenscope::ui {

// The main window's status bar: the last message (an error in colour), and while work
// runs, what runs, a progress bar and one Cancel button. The window decides what to
// cancel; this only says that the user asked.
class WindowStatus : public QObject {
    Q_OBJECT
  public:
    explicit WindowStatus(QStatusBar* bar);

    void showMessage(const QString& text, bool error);
    QString message() const;
    // Work that reports progress (a file opening): `what`, a busy bar until the first
    // showProgress(), Cancel.
    void showTask(const QString& what);
    void showProgress(qint64 done, qint64 total);
    // The tabs' queries have no progress to report: a busy bar, what runs (joined),
    // and Cancel; nothing of it when `what` is empty.
    void showQueries(const QStringList& what);
    // What runs, as shown next to the progress bar; empty when nothing does.
    QString taskText() const;

    QProgressBar* progressBar() const { return progress_; }
    QPushButton* cancelButton() const { return cancel_; }

  signals:
    void cancelRequested();

  private:
    QLabel* message_;
    QLabel* task_;
    QProgressBar* progress_;
    QPushButton* cancel_;
};

}  // namespace tokenscope::ui
