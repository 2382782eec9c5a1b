#pragma once

#include <QString>
#include <cstdint>

#include "fleet/fleet_spec.h"
#include "fleet/prometheus_client.h"

class QSettings;

namespace tokenscope::ui {

// What File > Open Prometheus… asks for (docs/fleet.md): a server or a
// saved answer / OpenMetrics file, and the matrix to compute from it. save()
// keeps everything but the secret in QSettings; the secret (bearer token or
// basic-auth password) lives in the keyring (SecretStore), never in plain text.
struct FleetQuery {
    enum class Source { Server, File };
    enum class Auth { None, Bearer, Basic };
    // A second matrix to compare with: the range just before, or a week earlier.
    enum class Compare { None, PreviousRange, PreviousWeek };

    Source source = Source::Server;
    QString url = QStringLiteral("http://localhost:9090");
    QString file;  // Source::File: a saved query_range answer or OpenMetrics text
    Auth auth = Auth::None;
    QString user;
    QString secret;  // never written by save()
    QString ca_file;
    QString metric = QStringLiteral("ttft");  // preset or histogram name
    QString by = QStringLiteral("model_name");
    QString range = QStringLiteral("24h");
    QString window = QStringLiteral("1h");
    double quantile = 0.95;
    double timeout_s = 30;
    Compare compare = Compare::None;

    static FleetQuery load(QSettings& settings);
    void save(QSettings& settings) const;

    // The matrix spec with windows ending at or before `end_s`. Throws
    // std::invalid_argument with a message naming the field at fault.
    fleet::FleetSpec spec(std::int64_t end_s) const;
    fleet::PrometheusConfig config() const;
    // How much earlier the compared range ends; 0 without Compare.
    std::int64_t compareOffset_s() const;
    // Where the query's answer comes from, for every status and error line.
    QString sourceName() const;
    // The keyring entry of this URL's secret; empty without authentication.
    QString secretKey() const;
};

}  // namespace tokenscope::ui
