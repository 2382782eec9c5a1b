#pragma once

#include <QGroupBox>
#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace tokenscope::ui {

// What the launcher's sweep mode runs: `tokenscope-cli sweep` over a grid typed
// as on the command line (docs/sweeps.md).
struct SweepLaunch {
    QString backend = QStringLiteral("model");  // decode points: model, cpu or cuda
    // Option name (as after "--": batch, prompt, qps, max-num-seqs...) and its
    // values as typed ("1,8,32", "128:4096:x2"); empty values are left out.
    std::vector<std::pair<QString, QString>> grid;
    int warmup = 2, repeats = 5;
    QString name;  // empty: the CLI names the sweep by its axes
    QString out;   // the .tokenscope file the sweep is added to
};

// The `tokenscope-cli sweep` child for a SweepLaunch.
struct SweepChild {
    QStringList arguments;  // after the program: sweep --out F ... --progress json
    QString problem;        // non-empty: it cannot run, and why (naming the field)
    qint64 points = 0;      // the grid's size
};

// The one place the child's command line is made, so the dialog and its test
// agree; each field is expanded as the CLI expands it, so a typo is named here.
SweepChild sweep_child(const SweepLaunch& launch);
// The launcher's status line while a sweep runs: runs done of all, elapsed, and the
// ETA from the mean time per run so far (as the CLI's own progress line).
QString sweep_status(qint64 done, qint64 total, qint64 elapsed_ms);

// The sweep fields of the run launcher: the grid (one line per parameter, in the
// CLI's syntax), the backend for decode points, warm-up and counted repeats.
class SweepLaunchForm : public QGroupBox {
    Q_OBJECT
  public:
    explicit SweepLaunchForm(QWidget* parent = nullptr);

    SweepLaunch launch(const QString& out) const;
    // The line edit of one grid option ("batch", "qps", ...); nullptr if none.
    QLineEdit* field(const QString& option) const;
    QComboBox* backendBox() const { return backend_; }
    QSpinBox* warmupBox() const { return warmup_; }
    QSpinBox* repeatsBox() const { return repeats_; }

  signals:
    void changed();

  private:
    QComboBox* backend_ = nullptr;
    QComboBox* summary_ = nullptr;
    QSpinBox* warmup_ = nullptr;
    QSpinBox* repeats_ = nullptr;
    QLineEdit* name_ = nullptr;
    std::vector<std::pair<QString, QLineEdit*>> fields_;
};

}  // namespace tokenscope::ui
