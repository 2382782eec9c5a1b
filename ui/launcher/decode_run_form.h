#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace tokenscope::ui {

// The run dialog's built-in decode: workload (preset and its shape, batch, prompt, new
// tokens), decoding strategy with its options, and backend with the cost model's GPU
// preset, starting where `tokenscope-cli run` does without options
// (capture::run_defaults). Only the options of the chosen strategy are enabled.
class DecodeRunForm : public QWidget {
    Q_OBJECT
  public:
    explicit DecodeRunForm(QWidget* parent = nullptr);

    // Empty when the fields can run into `output`; otherwise the first problem, naming
    // the field.
    QString problem(const QString& output) const;
    // The options after `run` for the fields (without --name and --out).
    QStringList arguments() const;

    QComboBox* presetBox() const { return preset_; }
    QLabel* shapeLabel() const { return shape_; }
    QSpinBox* batchBox() const { return batch_; }
    QSpinBox* promptBox() const { return prompt_; }
    QSpinBox* tokensBox() const { return tokens_; }
    QComboBox* strategyBox() const { return strategy_; }
    QSpinBox* topKBox() const { return top_k_; }
    QSpinBox* beamsBox() const { return beams_; }
    QSpinBox* draftLayersBox() const { return draft_layers_; }
    QSpinBox* gammaBox() const { return gamma_; }
    QSpinBox* seedBox() const { return seed_; }
    QComboBox* backendBox() const { return backend_; }
    QLabel* backendNote() const { return backend_note_; }
    QComboBox* gpuBox() const { return gpu_; }

  signals:
    // A field changed: the problem may have.
    void changed();

  private:
    QWidget* buildWorkload();
    QWidget* buildStrategy();
    QWidget* buildBackend();
    void fillBackends();
    void updateShape();
    void updateStrategy();
    void updateBackend();

    QComboBox* preset_ = nullptr;
    QLabel* shape_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QSpinBox* prompt_ = nullptr;
    QSpinBox* tokens_ = nullptr;
    QComboBox* strategy_ = nullptr;
    QSpinBox* top_k_ = nullptr;
    QSpinBox* beams_ = nullptr;
    QSpinBox* draft_layers_ = nullptr;
    QSpinBox* gamma_ = nullptr;
    QDoubleSpinBox* acceptance_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QComboBox* backend_ = nullptr;
    QLabel* backend_note_ = nullptr;
    QComboBox* gpu_ = nullptr;
};

}  // namespace tokenscope::ui
