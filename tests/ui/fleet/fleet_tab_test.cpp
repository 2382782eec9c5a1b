// The Fleet view (docs/fleet.md): the matrix from an OpenMetrics file written
// here with known quantiles per cell; a server that accepts and never answers keeps
// the GUI responsive and Cancel stops the transfer; a refused connection names the URL.
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <cmath>
#include <ctime>
#include <fstream>
#include <sstream>

#include "../../fleet/fleet_histograms.h"
#include "../../fleet/tiny_http_server.h"
#include "ui/fleet/fleet_compare_view.h"
#include "ui/fleet/fleet_query.h"
#include "ui/fleet/fleet_tab.h"
#include "ui/plots/fleet_plot_data.h"
#include "ui/plots/heatmap_marks.h"
#include "ui/plots/heatmap_plot.h"
#include "ui/shared/worker_pool.h"

using namespace tokenscope;
using fleet_test::Fleet;

namespace {

constexpr double kQ = 0.9;  // not the default, so a view that ignores q fails

// Two models over 8 hours: qwen has no data in hour 2 (a blank cell) and llama
// degrades tenfold in hours 5-7, after the 4-window SLA baseline (a flag at 5).
Fleet planted_fleet() {
    Fleet f;
    f.start_s = 1764547200;  // 2025-12-01T00:00:00Z, a whole hour
    f.rows = {"llama-8b", "qwen-7b"};
    f.hours.assign(2, std::vector<fleet_test::HourSpec>(8));
    for (std::size_t h = 0; h < 8; ++h) {
        f.hours[0][h] = {h >= 5 ? 1.5 : 0.15 + 0.01 * static_cast<double>(h), 0.5,
                         3600.0 + 100.0 * static_cast<double>(h)};
        f.hours[1][h] = {0.03, 0.4, h == 2 ? 0.0 : 1800.0};
    }
    return f;
}

// A query_range answer of bucket increases: every hour around now carries the
// buckets of `cum` (points at other times than the window ends are ignored), so the
// matrix is the same whichever hour the tab's "now" falls in.
std::string canned_answer(const std::string& row, const std::vector<double>& cum) {
    const std::int64_t hour = static_cast<std::int64_t>(std::time(nullptr)) / 3600 * 3600;
    std::string result;
    for (std::size_t b = 0; b < cum.size(); ++b) {
        std::string values;
        for (std::int64_t k = -5; k <= 1; ++k)
            values += (values.empty() ? "[" : ",[") + std::to_string(hour + k * 3600) + ",\"" +
                      std::to_string(static_cast<long long>(cum[b])) + "\"]";
        result += (result.empty() ? "" : ",") + std::string("{\"metric\":{\"le\":\"") +
                  fleet_test::le_text(b) + "\",\"model_name\":\"" + row + "\"},\"values\":[" +
                  values + "]}";
    }
    return "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[" + result +
           "]}}";
}

std::string read_all(const QString& path) {
    std::ifstream in(path.toStdString());
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

class FleetTabTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("TokenscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("fleet_tab_test"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.path());
        QVERIFY(dir_.isValid());
    }

    void offlineFileFillsTheMatrix() {
        const Fleet f = planted_fleet();
        const QString om = dir_.filePath(QStringLiteral("fleet.om"));
        fleet_test::write_openmetrics(f, om.toStdString());
        ui::FleetQuery q;
        q.source = ui::FleetQuery::Source::File;
        q.file = om;
        q.metric = QStringLiteral("ttft");
        q.by = QStringLiteral("model_name");
        q.range = QStringLiteral("8h");
        q.quantile = kQ;

        ui::FleetTab tab;
        QSignalSpy done(&tab, &ui::FleetTab::queryDone);
        tab.runQuery(q);
        QVERIFY(tab.busy());  // the file is read on the pool, not here
        QVERIFY(done.wait(20000));
        QCOMPARE(done.takeFirst().at(0).toBool(), true);
        QVERIFY2(tab.matrix().has_value(), qPrintable(tab.statusText()));

        const auto* plot = tab.findChild<ui::plots::HeatmapPlot*>(QStringLiteral("fleetHeatmap"));
        QVERIFY(plot);
        const auto& data = plot->heatmap();
        QCOMPARE(data.row_labels, QStringList({"llama-8b", "qwen-7b"}));
        QCOMPARE(data.column_count, std::size_t{8});
        for (std::size_t r = 0; r < 2; ++r)
            for (std::size_t h = 0; h < 8; ++h) {
                const auto want = fleet_test::expected_quantile(kQ, f.buckets(r, h));
                const auto& got = data.value(r, h);
                QCOMPARE(got.has_value(), want.has_value());
                if (want)
                    QVERIFY2(std::abs(*got - *want * 1e9) <= 1e-6 * *want * 1e9,
                             qPrintable(QStringLiteral("row %1 hour %2: %3 ns, want %4 s")
                                            .arg(r)
                                            .arg(h)
                                            .arg(*got)
                                            .arg(*want)));
            }
        QVERIFY(plot->cellToolTip(1, 2).contains(QStringLiteral("blank")));
        // The status and title name a long temporary path; the tab must still fit beside the
        // main window's docks.
        QVERIFY2(tab.minimumSizeHint().width() <= 900,
                 qPrintable(QString::number(tab.minimumSizeHint().width())));
        // Columns read as the windows' UTC start times; the scale names the quantile.
        QCOMPARE(data.column_labels.front(), QStringLiteral("00:00"));
        QCOMPARE(data.column_labels.back(), QStringLiteral("07:00"));
        QVERIFY2(plot->colorScale()->axis()->label().startsWith(QStringLiteral("P90 ")),
                 qPrintable(plot->colorScale()->axis()->label()));

        // The tooltip names the quantile, its value and the rate behind it.
        const QString tip = plot->cellToolTip(0, 1);
        const double obs = f.hours[0][1].observations;
        QVERIFY2(tip.contains(QStringLiteral("P90")), qPrintable(tip));
        QVERIFY2(tip.contains(QLocale::c().toString(obs / 3600.0, 'g', 3) + QStringLiteral("/s")),
                 qPrintable(tip));
        QVERIFY2(tip.contains(ui::plots::FleetPlotData::durationText(data.value(0, 1))),
                 qPrintable(tip));

        // The planted degradation: outlined cells and a recalibration flag at hour 5.
        QCOMPARE(tab.matrix()->map.row_flag[0], std::optional<std::size_t>(5));
        QVERIFY(!tab.matrix()->map.row_flag[1]);
        QVERIFY(plot->marks()->flagCount() >= 1);
        QVERIFY(plot->marks()->breachCount() >= 3);

        const auto* table = tab.findChild<QTableWidget*>(QStringLiteral("calibrationTable"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("llama-8b"));
        QCOMPARE(table->item(0, 3)->text(),
                 QString::fromUtf8(fleet::to_string(tab.matrix()->calibration[0].state).data()));
        QVERIFY(table->item(0, 5)->text() != QStringLiteral("\u2014"));  // a calibration started

        const QString png = dir_.filePath(QStringLiteral("fleet.png"));
        QString error;
        QVERIFY2(tab.exportImage(png, &error), qPrintable(error));
        QCOMPARE(QImage(png).size(), QSize(1600, 900));
        const QString rules = dir_.filePath(QStringLiteral("rules.yml"));
        QVERIFY2(tab.exportRules(rules, &error), qPrintable(error));
        const std::string text = read_all(rules);
        // One rule per row, each naming its row.
        std::size_t rules_written = 0;
        for (auto at = text.find("- alert: TokenscopeFleetSLA"); at != std::string::npos;
             at = text.find("- alert: TokenscopeFleetSLA", at + 1))
            ++rules_written;
        QCOMPARE(rules_written, std::size_t{2});
        QVERIFY(text.find("llama-8b") != std::string::npos);
        QVERIFY(text.find("qwen-7b") != std::string::npos);

        if (const QByteArray shot = qgetenv("TOKENSCOPE_FLEET_SCREENSHOT"); !shot.isEmpty()) {
            tab.resize(1400, 820);
            tab.show();
            QTest::qWait(50);
            QVERIFY(tab.grab().save(QString::fromLocal8Bit(shot)));
        }
    }

    // Compare: the 8 hours before against the last 8, from one file, on one colour
    // scale, and B - A per window.
    void comparesTwoRanges() {
        Fleet f;
        f.start_s = 1764547200;
        f.rows = {"llama-8b", "qwen-7b"};
        f.hours.assign(2, std::vector<fleet_test::HourSpec>(16));
        for (std::size_t h = 0; h < 16; ++h) {
            const double later = h >= 8 ? 2.0 : 1.0;
            f.hours[0][h] = {0.1 * later + 0.002 * static_cast<double>(h % 8), 0.5, 2000.0};
            f.hours[1][h] = {0.04, 0.4, 1000.0 + 50.0 * static_cast<double>(h)};
        }
        const QString om = dir_.filePath(QStringLiteral("two_ranges.om"));
        fleet_test::write_openmetrics(f, om.toStdString());
        ui::FleetQuery q;
        q.source = ui::FleetQuery::Source::File;
        q.file = om;
        q.range = QStringLiteral("8h");
        q.compare = ui::FleetQuery::Compare::PreviousRange;
        q.quantile = 0.99;
        ui::FleetTab tab;
        QSignalSpy done(&tab, &ui::FleetTab::queryDone);
        tab.runQuery(q);
        QVERIFY(done.wait(20000));
        QVERIFY2(done.takeFirst().at(0).toBool(), qPrintable(tab.statusText()));
        QVERIFY(tab.earlierMatrix().has_value());
        const auto* view = tab.compareView();
        const auto& a = view->earlierPlot()->heatmap();
        const auto& b = view->laterPlot()->heatmap();
        const auto& d = view->deltaPlot()->heatmap();
        QCOMPARE(d.column_count, std::size_t{8});
        for (std::size_t r = 0; r < 2; ++r)
            for (std::size_t h = 0; h < 8; ++h) {
                const double wa = *fleet_test::expected_quantile(0.99, f.buckets(r, h)) * 1e9;
                const double wb = *fleet_test::expected_quantile(0.99, f.buckets(r, h + 8)) * 1e9;
                QVERIFY(a.value(r, h) && std::abs(*a.value(r, h) - wa) <= 1e-6 * wa);
                QVERIFY(b.value(r, h) && std::abs(*b.value(r, h) - wb) <= 1e-6 * wb);
                QVERIFY(d.value(r, h) &&
                        std::abs(*d.value(r, h) - (wb - wa)) <= 1e-6 * std::max(wa, wb));
            }
        QCOMPARE(a.column_labels.front(), QStringLiteral("00:00"));
        QCOMPARE(b.column_labels.front(), QStringLiteral("08:00"));
        const QCPRange ra = view->earlierPlot()->colorMap()->dataRange();
        const QCPRange rb = view->laterPlot()->colorMap()->dataRange();
        QCOMPARE(ra.lower, rb.lower);
        QCOMPARE(ra.upper, rb.upper);
        QVERIFY2(view->deltaPlot()->colorScale()->axis()->label().startsWith(
                     QStringLiteral("\u0394 P99 ")),
                 qPrintable(view->deltaPlot()->colorScale()->axis()->label()));
        if (QString shot = qEnvironmentVariable("TOKENSCOPE_FLEET_SCREENSHOT"); !shot.isEmpty()) {
            tab.resize(1400, 1000);
            tab.findChild<QTabWidget*>(QStringLiteral("fleetPages"))->setCurrentIndex(1);
            tab.show();
            QTest::qWait(50);
            QVERIFY(tab.grab().save(
                shot.replace(QStringLiteral(".png"), QStringLiteral("_compare.png"))));
        }
    }

    // Accepts and never answers: the GUI keeps running its event loop, Cancel ends the
    // query at once on screen and the transfer within a few seconds, and says so with the URL.
    void silentServerIsCancelled() {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        QList<QTcpSocket*> peers;
        connect(&server, &QTcpServer::newConnection, this, [&] {
            while (QTcpSocket* s = server.nextPendingConnection()) peers << s;
        });
        ui::FleetQuery q;
        q.url = QStringLiteral("http://127.0.0.1:%1").arg(server.serverPort());
        q.timeout_s = 120;
        ui::FleetTab tab;
        tab.show();
        tab.runQuery(q);
        QTRY_VERIFY_WITH_TIMEOUT(!peers.isEmpty(), 10000);
        QVERIFY(tab.busy());
        QVERIFY(tab.statusText().contains(q.url));

        int ticks = 0;
        QTimer tick;
        connect(&tick, &QTimer::timeout, this, [&] { ++ticks; });
        tick.start(10);
        QTest::qWait(600);
        QVERIFY2(ticks >= 10, qPrintable(QStringLiteral("%1 ticks in 600 ms").arg(ticks)));
        QVERIFY(tab.busy());

        auto* cancel = tab.findChild<QPushButton*>(QStringLiteral("cancelButton"));
        QVERIFY(cancel && cancel->isEnabled());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(!tab.busy());
        QVERIFY2(tab.statusText().contains(QStringLiteral("Cancelled")) &&
                     tab.statusText().contains(q.url),
                 qPrintable(tab.statusText()));
        // curl sees the stop at its next progress call and hangs up.
        QTRY_VERIFY_WITH_TIMEOUT(peers.front()->state() == QAbstractSocket::UnconnectedState, 5000);
        QVERIFY(ui::WorkerPool::instance().waitForIdle(5000));
        QVERIFY(!tab.matrix());
    }

    // A server's answer (with the bearer token sent), saved and reopened offline.
    void serverAnswerIsSavedAndReopened() {
        const Fleet f = planted_fleet();
        const auto cum = f.buckets(0, 0);
        fleet_test::TinyHttpServer server(fleet_test::TinyHttpServer::Mode::Canned,
                                          canned_answer("llama-8b", cum));
        ui::FleetQuery q;
        q.url = QString::fromStdString(server.url());
        q.auth = ui::FleetQuery::Auth::Bearer;
        q.secret = QStringLiteral("tok-live");
        q.range = QStringLiteral("3h");
        ui::FleetTab tab;
        QSignalSpy done(&tab, &ui::FleetTab::queryDone);
        tab.runQuery(q);
        QVERIFY(done.wait(20000));
        QVERIFY2(done.takeFirst().at(0).toBool(), qPrintable(tab.statusText()));
        QVERIFY(server.last_request().find("Authorization: Bearer tok-live") != std::string::npos);
        const double want = *fleet_test::expected_quantile(0.95, cum) * 1e9;
        for (std::size_t c = 0; c < 3; ++c) {
            const auto& got = tab.plot()->heatmap().value(0, c);
            QVERIFY(got && std::abs(*got - want) <= 1e-6 * want);
        }
        auto* save = tab.findChild<QPushButton*>(QStringLiteral("saveAnswerButton"));
        QVERIFY(save && save->isEnabled());
        const QString saved = dir_.filePath(QStringLiteral("answer.json"));
        QString error;
        QVERIFY2(tab.saveAnswer(saved, &error), qPrintable(error));

        ui::FleetQuery offline = q;
        offline.source = ui::FleetQuery::Source::File;
        offline.file = saved;
        ui::FleetTab again;
        QSignalSpy again_done(&again, &ui::FleetTab::queryDone);
        again.runQuery(offline);
        QVERIFY(again_done.wait(20000));
        QVERIFY2(again_done.takeFirst().at(0).toBool(), qPrintable(again.statusText()));
        QCOMPARE(again.plot()->heatmap().row_labels, QStringList({"llama-8b"}));
        const auto& last = again.plot()->heatmap().value(0, 2);
        QVERIFY(last && std::abs(*last - want) <= 1e-6 * want);
    }

    void refusedConnectionNamesTheUrl() {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();
        ui::FleetQuery q;
        q.url = QStringLiteral("http://127.0.0.1:%1").arg(port);
        ui::FleetTab tab;
        QSignalSpy done(&tab, &ui::FleetTab::queryDone);
        tab.runQuery(q);
        QVERIFY(done.wait(20000));
        QCOMPARE(done.takeFirst().at(0).toBool(), false);
        QVERIFY2(tab.statusText().contains(q.url) && tab.statusText().contains("refused"),
                 qPrintable(tab.statusText()));
    }
};

QTEST_MAIN(FleetTabTest)
#include "fleet_tab_test.moc"
