// The Fleet view on /metrics scrapes (docs/fleet.md, Snapshots): one vLLM scrape is
// one column labelled "since the server started" with the quantile of its buckets;
// two scrapes with a counter reset between them show the reset in the status line.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <fstream>

#include "../../fleet/snapshot_scrapes.h"
#include "fleet/fleet_spec.h"
#include "ui/fleet/fleet_query.h"
#include "ui/fleet/fleet_tab.h"
#include "ui/plots/heatmap_plot.h"

using namespace tokenscope;
using namespace tokenscope::fleet_test;

namespace {

constexpr std::int64_t kT0 = 1'764'612'000;  // 2025-12-01T18:00:00Z
constexpr std::int64_t kStarted = kT0 - 6 * 3600;

std::string scraped_at(std::int64_t t) {
    return "# scraped at " + fleet::format_rfc3339(t) + "\n";
}

}  // namespace

class FleetSnapshotTabTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    ui::FleetQuery query(const QString& file) const {
        ui::FleetQuery q;
        q.source = ui::FleetQuery::Source::File;
        q.file = file;
        q.metric = QStringLiteral("ttft");
        q.by = QStringLiteral("model_name");
        q.compare = ui::FleetQuery::Compare::PreviousRange;  // nothing to compare for scrapes
        return q;
    }
    QString write(const char* name, const std::string& text) const {
        const QString path = dir_.filePath(QLatin1String(name));
        std::ofstream(path.toStdString()) << text;
        return path;
    }

  private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("TokenscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("fleet_snapshot_tab_test"));
        QVERIFY(dir_.isValid());
    }

    void oneScrapeIsOneColumnSinceTheServerStarted() {
        const Counts e0 = lognormal_counts(kVllmTtftBounds, 1200, 0.18, 0.6);
        const Counts e1 = lognormal_counts(kVllmTtftBounds, 800, 0.25, 0.7);
        const QString file = write(
            "vllm.prom", scraped_at(kT0) + vllm_scrape({{"0", e0, kStarted}, {"1", e1, kStarted}}));
        ui::FleetTab tab;
        QSignalSpy done(&tab, &ui::FleetTab::queryDone);
        tab.runQuery(query(file));
        QVERIFY(done.wait(20000));
        QVERIFY2(tab.matrix().has_value(), qPrintable(tab.statusText()));
        QVERIFY(!tab.earlierMatrix().has_value());
        QVERIFY2(tab.statusText().contains(QStringLiteral("since the server started")),
                 qPrintable(tab.statusText()));
        const auto* plot = tab.findChild<ui::plots::HeatmapPlot*>(QStringLiteral("fleetHeatmap"));
        QVERIFY(plot);
        const auto& data = plot->heatmap();
        QCOMPARE(data.column_labels, QStringList{QStringLiteral("since the server started")});
        QVERIFY2(data.title.contains(QStringLiteral("since the server started")),
                 qPrintable(data.title));
        const double want = *scrape_quantile(0.95, kVllmTtftBounds, plus(e0, e1)) * 1e9;
        QVERIFY(data.value(0, 0).has_value());
        QVERIFY(std::abs(*data.value(0, 0) - want) <= want * 1e-12);
        QVERIFY2(plot->cellToolTip(0, 0).contains(QStringLiteral("since the server started")),
                 qPrintable(plot->cellToolTip(0, 0)));
    }

    void aCounterResetShowsInTheStatus() {
        const Counts before = lognormal_counts(kSglangTtftBounds, 900, 0.9, 0.8);
        const Counts after = lognormal_counts(kSglangTtftBounds, 40, 0.5, 0.8);
        const QString file = write("reset.prom", scraped_at(kT0) + sglang_scrape(before) +
                                                     scraped_at(kT0 + 3600) + sglang_scrape(after));
        ui::FleetTab tab;
        QSignalSpy done(&tab, &ui::FleetTab::queryDone);
        tab.runQuery(query(file));
        QVERIFY(done.wait(20000));
        QVERIFY2(tab.matrix().has_value(), qPrintable(tab.statusText()));
        QCOMPARE(tab.matrix()->spec.metric, std::string("sglang:time_to_first_token_seconds"));
        QVERIFY2(tab.statusText().contains(QStringLiteral("counter reset")),
                 qPrintable(tab.statusText()));
        const auto* plot = tab.findChild<ui::plots::HeatmapPlot*>(QStringLiteral("fleetHeatmap"));
        QCOMPARE(plot->heatmap().column_labels, QStringList{QStringLiteral("18:00")});
    }
};

QTEST_MAIN(FleetSnapshotTabTest)
#include "fleet_snapshot_tab_test.moc"
