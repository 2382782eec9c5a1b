// GUI tests never read or write the user's real settings: use_test_settings()
// (tests/support/test_settings.h) moves QSettings into a directory of the test's
// own, and ctest gives every GUI test a private XDG_CONFIG_HOME besides.
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

#include "support/test_settings.h"
#include "ui/window/main_window.h"

class SettingsIsolationTest : public QObject {
    Q_OBJECT

  private slots:
    void settingsLiveInTheTestsOwnDirectory() {
        const QString home_config = QDir::homePath() + QStringLiteral("/.config");
        tokenscope::test::use_test_settings(QStringLiteral("settings_isolation_test"));
        QVERIFY(QStandardPaths::isTestModeEnabled());
        QSettings settings;
        settings.setValue(QStringLiteral("probe"), 42);
        settings.sync();
        const QString file = QFileInfo(settings.fileName()).absoluteFilePath();
        QVERIFY2(QFileInfo::exists(file), qPrintable(file));
        QVERIFY2(file.startsWith(QDir::tempPath() + QLatin1Char('/')), qPrintable(file));
        QVERIFY2(!file.startsWith(home_config), qPrintable(file));
        QCOMPARE(tokenscope::test::test_settings_dir(), QFileInfo(file).absolutePath());
    }

    // What the window writes (the time unit, recent files) lands there too.
    void theWindowWritesThere() {
        { tokenscope::ui::MainWindow window; }
        const QString file = QFileInfo(QSettings().fileName()).absoluteFilePath();
        QVERIFY2(file.startsWith(tokenscope::test::test_settings_dir()), qPrintable(file));
        QCOMPARE(QSettings().value(QStringLiteral("probe")).toInt(), 42);
    }

    // Under ctest the environment points any settings a test forgot to move
    // away from the user's ~/.config as well.
    void ctestGivesAPrivateConfigHome() {
        const QByteArray xdg = qgetenv("XDG_CONFIG_HOME");
        if (xdg.isEmpty()) QSKIP("not run by ctest");
        QVERIFY2(
            !QString::fromLocal8Bit(xdg).startsWith(QDir::homePath() + QStringLiteral("/.config")),
            xdg.constData());
    }
};

QTEST_MAIN(SettingsIsolationTest)
#include "settings_isolation_test.moc"
