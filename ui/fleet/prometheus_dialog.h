#pragma once

#include <QDialog>

#include "fleet_query.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace tokenscope::ui {

class SecretStore;

// File > Open Prometheus…: the server (URL, authentication, CA file) or a saved
// answer / OpenMetrics file, and the matrix (metric preset or histogram name, the
// label of the rows, range, window, quantile). Opens with the last query from
// QSettings and its secret from the keyring; accepting validates every field,
// saves the query (the secret to the keyring only) and leaves it in query().
class PrometheusDialog : public QDialog {
    Q_OBJECT
  public:
    explicit PrometheusDialog(QWidget* parent = nullptr);

    FleetQuery query() const;
    void setQuery(const FleetQuery& query);
    SecretStore* secrets() const { return secrets_; }
    // Why the last accept() was refused; empty when it was not.
    QString errorText() const;

  public slots:
    void accept() override;

  private:
    void buildForm();
    void updateEnabled();
    void requestSecret();
    void browseFile(QLineEdit* edit, const QString& filter);

    SecretStore* secrets_;
    QComboBox* source_;
    QLineEdit* url_;
    QLineEdit* file_;
    QComboBox* auth_;
    QLineEdit* user_;
    QLineEdit* secret_;
    QLabel* keyring_;
    QLineEdit* ca_file_;
    QComboBox* metric_;
    QLineEdit* by_;
    QLineEdit* range_;
    QLineEdit* window_;
    QDoubleSpinBox* quantile_;
    QComboBox* compare_;
    QLabel* error_;
    QString secret_key_;  // the entry the secret field was filled from
};

}  // namespace tokenscope::ui
