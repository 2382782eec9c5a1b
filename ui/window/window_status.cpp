#include "window_status.h"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

namespace tokenscope::ui {

WindowStatus::WindowStatus(QStatusBar* bar)
    : QObject(bar),
      message_(new QLabel(bar)),
      task_(new QLabel(bar)),
      progress_(new QProgressBar(bar)),
      cancel_(new QPushButton(tr("Cancel"), bar)) {
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    progress_->setMaximumWidth(220);
    progress_->setVisible(false);
    cancel_->setVisible(false);
    task_->setVisible(false);
    connect(cancel_, &QPushButton::clicked, this, &WindowStatus::cancelRequested);
    bar->addWidget(message_, 1);
    bar->addPermanentWidget(task_);
    bar->addPermanentWidget(progress_);
    bar->addPermanentWidget(cancel_);
}

void WindowStatus::showMessage(const QString& text, bool error) {
    message_->setText(text);
    message_->setToolTip(text);
    message_->setForegroundRole(error ? QPalette::BrightText : QPalette::WindowText);
    message_->setStyleSheet(error ? QStringLiteral("color: #d55e00; font-weight: bold;")
                                  : QString());
}

QString WindowStatus::message() const {
    return message_->text();
}

void WindowStatus::showTask(const QString& what) {
    progress_->setRange(0, 0);  // busy until the first progress report
    progress_->setVisible(true);
    cancel_->setVisible(true);
    cancel_->setEnabled(true);
    task_->setText(what);
    task_->setVisible(true);
}

void WindowStatus::showProgress(qint64 done, qint64 total) {
    progress_->setRange(0, static_cast<int>(total));
    progress_->setValue(static_cast<int>(done));
}

void WindowStatus::showQueries(const QStringList& what) {
    const bool any = !what.isEmpty();
    progress_->setRange(0, 0);
    progress_->setVisible(any);
    cancel_->setVisible(any);
    cancel_->setEnabled(any);
    task_->setText(what.join(QStringLiteral("; ")));
    task_->setVisible(any);
}

QString WindowStatus::taskText() const {
    return task_->isHidden() ? QString() : task_->text();
}

}  // namespace tokenscope::ui
