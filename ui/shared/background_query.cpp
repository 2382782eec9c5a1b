#include "background_query.h"

namespace tokenscope::ui {

BackgroundQuery::BackgroundQuery(QObject* parent) : QObject(parent) {}

BackgroundQuery::~BackgroundQuery() {
    stop_.request_stop();
}

void BackgroundQuery::stopLive() {
    // Idle, the token belongs to a finished query; stopping it again is harmless.
    stop_.request_stop();
    stop_ = trace::StopSource();
}

quint64 BackgroundQuery::start(const QString& what) {
    stopLive();
    ++generation_;
    setBusy(true, what);
    return generation_;
}

bool BackgroundQuery::finish(quint64 generation) {
    if (!isCurrent(generation)) {
        emit discarded(generation);
        return false;
    }
    setBusy(false, QString());
    return true;
}

bool BackgroundQuery::cancel() {
    if (!busy_) return false;
    stopLive();
    ++generation_;
    setBusy(false, QString());
    emit cancelled();
    return true;
}

void BackgroundQuery::clear() {
    stopLive();
    ++generation_;
    setBusy(false, QString());
}

void BackgroundQuery::setBusy(bool busy, const QString& what) {
    if (busy == busy_ && (!busy || what == what_)) return;
    busy_ = busy;
    what_ = what;
    emit busyChanged(busy, what);
}

}  // namespace tokenscope::ui
