#pragma once

// Waiting for background work in GUI tests without guessing how long it takes.
#include <QCoreApplication>
#include <QTest>

#include "ui/shared/worker_pool.h"

namespace tokenscope::test {

// Every task of the GUI's worker pool has ended and every result it queued for the GUI
// thread has been delivered (a task's future finishes before the pool counts it done,
// and its watcher's event is then posted), so whatever the work would still send has
// arrived: after this a negative check ("no second verdict") needs no qWait. Returns
// false when the pool stays busy for 30 s.
[[nodiscard]] inline bool settle() {
    do {
        if (!ui::WorkerPool::instance().waitForIdle(30000)) return false;
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();  // and zero-time timers a result started
    } while (!ui::WorkerPool::instance().waitForIdle(0));
    return true;
}

}  // namespace tokenscope::test
