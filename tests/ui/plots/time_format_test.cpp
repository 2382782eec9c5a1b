// Number formats shared by the views: counter lanes' values.
#include <QTest>

#include "ui/plots/time_format.h"

using tokenscope::ui::plots::TimeFormat;

class TimeFormatTest : public QObject {
    Q_OBJECT
  private slots:
    void ratesOfByteCountersInSiUnits() {
        const QString lane = QStringLiteral("PCIe TX bytes/s (GPU 0)");
        QCOMPARE(TimeFormat::counter(4.94e8, lane), QStringLiteral("494 MB/s"));
        QCOMPARE(TimeFormat::counter(6.62e8, lane), QStringLiteral("662 MB/s"));
        QCOMPARE(TimeFormat::counter(2.5e10, lane), QStringLiteral("25.0 GB/s"));
        QCOMPARE(TimeFormat::counter(1.234e9, lane), QStringLiteral("1.23 GB/s"));
        QCOMPARE(TimeFormat::counter(512, lane), QStringLiteral("512 B/s"));
        QCOMPARE(TimeFormat::counter(3e15, lane), QStringLiteral("3000 TB/s"));
    }
    void otherCountersKeepThreeDigits() {
        QCOMPARE(TimeFormat::counter(1980, QStringLiteral("SM clock MHz")),
                 QStringLiteral("1.98e+03"));
        QCOMPARE(TimeFormat::counter(42.5, QStringLiteral("GPU utilisation %")),
                 QStringLiteral("42.5"));
    }
};

QTEST_MAIN(TimeFormatTest)
#include "time_format_test.moc"
