#pragma once
// The hand-made run (hand_made_run.h) as a .tokenscope file, for the tests that open a
// file through the window's own path (File > Open, a drop) rather than a run in memory.
#include <QString>
#include <QTemporaryDir>
#include <string>

#include "hand_made_run.h"
#include "store/store_writer.h"

namespace tokenscope::test {

// Writes hand_run(run_name) as the only run of the new file `file` in `dir`; its path.
inline QString write_hand_store(const QTemporaryDir& dir, const QString& file,
                                const std::string& run_name) {
    const QString path = dir.filePath(file);
    store::StoreWriter writer(path.toStdString());
    writer.write_run(hand_run(run_name));
    return path;
}

}  // namespace tokenscope::test
