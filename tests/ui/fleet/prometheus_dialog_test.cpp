// File > Open Prometheus…: the query is remembered in QSettings (a test-only
// organization and a temporary folder), the secret never is; without a keyring (no
// D-Bus session here) the dialog says so and keeps the secret for the session only.
#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "ui/fleet/fleet_tab.h"
#include "ui/fleet/prometheus_dialog.h"
#include "ui/fleet/secret_store.h"
#include "ui/window/main_window.h"

using namespace tokenscope;

class PrometheusDialogTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    template <typename W>
    static W* field(QWidget& dialog, const char* name) {
        auto* w = dialog.findChild<W*>(QLatin1String(name));
        if (!w) qFatal("no field %s", name);
        return w;
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");  // no secret service, as in CI
        QCoreApplication::setOrganizationName(QStringLiteral("TokenscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("prometheus_dialog_test"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.path());
        QSettings().clear();
    }

    void remembersTheQueryButNeverTheSecret() {
        const QString token = QStringLiteral("tok-4f9a-secret");
        {
            ui::PrometheusDialog d;
            field<QLineEdit>(d, "url")->setText(QStringLiteral("https://prom.example:9090"));
            field<QComboBox>(d, "auth")->setCurrentIndex(1);  // bearer
            field<QLineEdit>(d, "secret")->setText(token);
            field<QComboBox>(d, "metric")->setCurrentText(QStringLiteral("itl"));
            field<QLineEdit>(d, "by")->setText(QStringLiteral("instance"));
            field<QLineEdit>(d, "range")->setText(QStringLiteral("12h"));
            field<QLineEdit>(d, "window")->setText(QStringLiteral("30m"));
            field<QDoubleSpinBox>(d, "quantile")->setValue(0.99);
            field<QComboBox>(d, "compare")->setCurrentIndex(2);  // a week earlier
            // The keyring's answer (none here) arrives and is said in the dialog.
            QTRY_COMPARE(d.secrets()->state(), ui::SecretStore::State::Unavailable);
            QVERIFY2(field<QLabel>(d, "keyringStatus")->text().contains("session only"),
                     qPrintable(field<QLabel>(d, "keyringStatus")->text()));
            QVERIFY(field<QLabel>(d, "keyringStatus")->isVisibleTo(&d));
            d.accept();
            QCOMPARE(d.result(), int(QDialog::Accepted));
        }
        QSettings().sync();
        QFile ini(QSettings().fileName());
        QVERIFY2(ini.open(QIODevice::ReadOnly), qPrintable(QSettings().fileName()));
        const QByteArray text = ini.readAll();
        QVERIFY(text.contains("prom.example"));
        QVERIFY2(!text.contains(token.toUtf8()), text.constData());

        ui::PrometheusDialog again;
        QCOMPARE(field<QLineEdit>(again, "url")->text(),
                 QStringLiteral("https://prom.example:9090"));
        QCOMPARE(field<QComboBox>(again, "auth")->currentIndex(), 1);
        QCOMPARE(field<QComboBox>(again, "metric")->currentText(), QStringLiteral("itl"));
        QCOMPARE(field<QLineEdit>(again, "by")->text(), QStringLiteral("instance"));
        QCOMPARE(field<QLineEdit>(again, "window")->text(), QStringLiteral("30m"));
        QCOMPARE(field<QDoubleSpinBox>(again, "quantile")->value(), 0.99);
        QCOMPARE(again.query().compare, ui::FleetQuery::Compare::PreviousWeek);
        QCOMPARE(again.query().compareOffset_s(), 7 * 24 * 3600);
        // Kept for this session (no keyring), so the second dialog has it.
        QTRY_COMPARE(field<QLineEdit>(again, "secret")->text(), token);
        QCOMPARE(again.query().config().bearer_token, token.toStdString());
    }

    void refusesBadFields() {
        ui::PrometheusDialog d;
        field<QLineEdit>(d, "url")->setText(QStringLiteral("http://localhost:9090"));
        field<QLineEdit>(d, "range")->setText(QStringLiteral("90m"));
        field<QLineEdit>(d, "window")->setText(QStringLiteral("1h"));
        d.accept();
        QVERIFY(d.result() != QDialog::Accepted);
        QVERIFY2(d.errorText().contains(QStringLiteral("range")), qPrintable(d.errorText()));
        field<QLineEdit>(d, "window")->setText(QStringLiteral("30m"));
        field<QLineEdit>(d, "by")->setText(QStringLiteral("le"));
        d.accept();
        QVERIFY(d.result() != QDialog::Accepted);
        QVERIFY2(d.errorText().contains(QStringLiteral("group by")), qPrintable(d.errorText()));
    }

    void menuOpensTheFleetTab() {
        ui::MainWindow w;
        auto* action = w.findChild<QAction*>(QStringLiteral("open_prometheus_action"));
        QVERIFY(action);
        action->trigger();
        auto* tab = qobject_cast<ui::FleetTab*>(w.tabs()->currentWidget());
        QVERIFY(tab);
        auto* dialog = tab->findChild<ui::PrometheusDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        dialog->reject();
        action->trigger();  // one Fleet tab, however often it is opened
        QCOMPARE(w.findChildren<ui::FleetTab*>().size(), 1);
    }
};

QTEST_MAIN(PrometheusDialogTest)
#include "prometheus_dialog_test.moc"
