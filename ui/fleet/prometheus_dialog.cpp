#include "prometheus_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>
#include <ctime>
#include <stdexcept>

#include "secret_store.h"

namespace tokenscope::ui {
namespace {

template <typename W>
W* named(W* widget, const char* name) {
    widget->setObjectName(QLatin1String(name));
    return widget;
}

}  // namespace

PrometheusDialog::PrometheusDialog(QWidget* parent)
    : QDialog(parent),
      secrets_(new SecretStore(this)),
      source_(named(new QComboBox(this), "source")),
      url_(named(new QLineEdit(this), "url")),
      file_(named(new QLineEdit(this), "file")),
      auth_(named(new QComboBox(this), "auth")),
      user_(named(new QLineEdit(this), "user")),
      secret_(named(new QLineEdit(this), "secret")),
      keyring_(named(new QLabel(this), "keyringStatus")),
      ca_file_(named(new QLineEdit(this), "caFile")),
      metric_(named(new QComboBox(this), "metric")),
      by_(named(new QLineEdit(this), "by")),
      range_(named(new QLineEdit(this), "range")),
      window_(named(new QLineEdit(this), "window")),
      quantile_(named(new QDoubleSpinBox(this), "quantile")),
      compare_(named(new QComboBox(this), "compare")),
      error_(named(new QLabel(this), "error")) {
    setWindowTitle(tr("Open Prometheus"));
    buildForm();
    QSettings settings;
    setQuery(FleetQuery::load(settings));
    connect(secrets_, &SecretStore::stateChanged, this,
            [this] { keyring_->setText(secrets_->stateText()); });
    connect(secrets_, &SecretStore::secretRead, this, [this](const QString& key, const QString& s) {
        // Only fill an untouched field with the secret of the entry it belongs to.
        if (key == secret_key_ && secret_->text().isEmpty()) secret_->setText(s);
    });
    keyring_->setText(secrets_->stateText());
    requestSecret();
}

void PrometheusDialog::buildForm() {
    source_->addItems(
        {tr("Prometheus server"), tr("File: saved answer, OpenMetrics or /metrics scrape")});
    auth_->addItems({tr("None"), tr("Bearer token"), tr("Basic (user and password)")});
    secret_->setEchoMode(QLineEdit::Password);
    keyring_->setWordWrap(true);
    metric_->setEditable(true);
    metric_->addItems({QStringLiteral("ttft"), QStringLiteral("itl"), QStringLiteral("e2e"),
                       QStringLiteral("queue"), QStringLiteral("tpot")});
    metric_->setToolTip(
        tr("A preset (vLLM's histogram, else SGLang's, else TGI's) or any "
           "histogram's name (with or without _bucket)"));
    compare_->addItems({tr("Nothing"), tr("The range before"), tr("A week earlier")});
    quantile_->setRange(0.5, 0.999);
    quantile_->setDecimals(3);
    quantile_->setSingleStep(0.005);
    error_->setStyleSheet(QStringLiteral("color: #c0392b"));
    error_->setWordWrap(true);

    auto with_browse = [this](QLineEdit* edit, const QString& filter) {
        auto* row = new QHBoxLayout;
        row->addWidget(edit);
        auto* browse = new QPushButton(tr("Browse…"), this);
        connect(browse, &QPushButton::clicked, this, [=, this] { browseFile(edit, filter); });
        row->addWidget(browse);
        return row;
    };
    auto* form = new QFormLayout;
    form->addRow(tr("Source:"), source_);
    form->addRow(tr("URL:"), url_);
    form->addRow(
        tr("File:"),
        with_browse(file_,
                    tr("Fleet answers and scrapes (*.json *.om *.prom *.txt);;All files (*)")));
    form->addRow(tr("Authentication:"), auth_);
    form->addRow(tr("User:"), user_);
    form->addRow(tr("Token / password:"), secret_);
    form->addRow(QString(), keyring_);
    form->addRow(tr("CA file:"),
                 with_browse(ca_file_, tr("PEM files (*.pem *.crt);;All files (*)")));
    form->addRow(tr("Metric:"), metric_);
    form->addRow(tr("Rows by label:"), by_);
    form->addRow(tr("Range:"), range_);
    form->addRow(tr("Window:"), window_);
    form->addRow(tr("Quantile:"), quantile_);
    form->addRow(tr("Compare with:"), compare_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Query"));
    connect(buttons, &QDialogButtonBox::accepted, this, &PrometheusDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(error_);
    layout->addWidget(buttons);

    connect(source_, &QComboBox::currentIndexChanged, this, &PrometheusDialog::updateEnabled);
    connect(auth_, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        requestSecret();
    });
    connect(url_, &QLineEdit::editingFinished, this, &PrometheusDialog::requestSecret);
    connect(user_, &QLineEdit::editingFinished, this, &PrometheusDialog::requestSecret);
}

void PrometheusDialog::updateEnabled() {
    const bool server = source_->currentIndex() == 0;
    const bool auth = server && auth_->currentIndex() != 0;
    url_->setEnabled(server);
    auth_->setEnabled(server);
    ca_file_->setEnabled(server);
    file_->setEnabled(!server);
    user_->setEnabled(server && auth_->currentIndex() == 2);
    secret_->setEnabled(auth);
    keyring_->setVisible(auth);
}

void PrometheusDialog::requestSecret() {
    const QString key = query().secretKey();
    if (key == secret_key_) return;
    secret_key_ = key;
    secret_->clear();
    if (!key.isEmpty()) secrets_->read(key);
}

void PrometheusDialog::browseFile(QLineEdit* edit, const QString& filter) {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Choose a file"), edit->text(), filter);
    if (!path.isEmpty()) edit->setText(path);
}

FleetQuery PrometheusDialog::query() const {
    FleetQuery q;
    q.source = source_->currentIndex() == 1 ? FleetQuery::Source::File : FleetQuery::Source::Server;
    q.url = url_->text().trimmed();
    q.file = file_->text().trimmed();
    q.auth = static_cast<FleetQuery::Auth>(auth_->currentIndex());
    q.user = user_->text().trimmed();
    q.secret = secret_->text();
    q.ca_file = ca_file_->text().trimmed();
    q.metric = metric_->currentText().trimmed();
    q.by = by_->text().trimmed();
    q.range = range_->text().trimmed();
    q.window = window_->text().trimmed();
    q.quantile = quantile_->value();
    q.compare = static_cast<FleetQuery::Compare>(compare_->currentIndex());
    return q;
}

void PrometheusDialog::setQuery(const FleetQuery& q) {
    source_->setCurrentIndex(q.source == FleetQuery::Source::File ? 1 : 0);
    url_->setText(q.url);
    file_->setText(q.file);
    auth_->setCurrentIndex(static_cast<int>(q.auth));
    user_->setText(q.user);
    secret_->setText(q.secret);
    ca_file_->setText(q.ca_file);
    metric_->setCurrentText(q.metric);
    by_->setText(q.by);
    range_->setText(q.range);
    window_->setText(q.window);
    quantile_->setValue(q.quantile);
    compare_->setCurrentIndex(static_cast<int>(q.compare));
    secret_key_ = q.secretKey();
    updateEnabled();
}

QString PrometheusDialog::errorText() const {
    return error_->text();
}

void PrometheusDialog::accept() {
    const FleetQuery q = query();
    try {
        q.spec(static_cast<std::int64_t>(std::time(nullptr)));
        if (q.source == FleetQuery::Source::Server && !q.url.startsWith(QLatin1String("http://")) &&
            !q.url.startsWith(QLatin1String("https://")))
            throw std::invalid_argument("URL: must start with http:// or https://");
        if (q.source == FleetQuery::Source::File && q.file.isEmpty())
            throw std::invalid_argument("file: choose a saved answer or an OpenMetrics file");
    } catch (const std::invalid_argument& e) {
        error_->setText(QString::fromStdString(e.what()));
        return;
    }
    error_->clear();
    QSettings settings;
    q.save(settings);
    if (!q.secretKey().isEmpty()) secrets_->write(q.secretKey(), q.secret);
    QDialog::accept();
}

}  // namespace tokenscope::ui
