#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

class QTimer;
class QWidget;

namespace tokenscope::ui {

class MainWindow;

// `tokenscope --screenshots DIR [FILE]`: opens the bundled sample run, or FILE,
// and saves each tab of the main window as DIR/timeline.png, heatmap.png,
// breakdown.png and compare.png (the first two runs as A and B; left out when
// FILE holds one run). Each grab waits until that tab's background work is done,
// so no picture shows a "Computing…" placeholder.
class ScreenshotTaker : public QObject {
    Q_OBJECT
  public:
    ScreenshotTaker(MainWindow* window, QString dir, QObject* parent = nullptr);
    ~ScreenshotTaker() override;

    // Gives up, reporting which tab it waited for, after this long per tab.
    void setTimeoutMs(int ms) { timeout_ms_ = ms; }
    // Pictures of this file instead of the sample.
    void setFile(const QString& path) { file_ = path; }
    void start();
    // The pictures written so far, by file name.
    const QStringList& saved() const { return saved_; }

  signals:
    // ok: every picture is saved; otherwise `message` says what went wrong.
    void finished(bool ok, const QString& message);
    // One picture was written (its file name), with the window as it shows in it.
    void pictureSaved(const QString& file);

  private:
    struct Shot {
        QString file;
        QWidget* tab;
        std::function<void()> prepare;
        std::function<bool()> ready;
    };

    void onOpened(int count);
    void zoomTimeline();
    void beginShot();
    void poll();
    void fail(const QString& message);

    MainWindow* window_;
    QString dir_;
    QString file_;
    QTimer* poll_;
    std::vector<Shot> shots_;
    QStringList saved_;
    std::size_t current_ = 0;
    int settle_polls_ = 0;
    int timeout_ms_ = 60000;
    QElapsedTimer waited_;
    bool done_ = false;
};

}  // namespace tokenscope::ui
