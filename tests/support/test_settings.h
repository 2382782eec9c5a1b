#pragma once
// GUI tests keep their settings to themselves: never the user's real ones
// (~/.config/Tokenscope), and a fresh, empty set for each test program.
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

namespace tokenscope::test {

// Call first in initTestCase(). QStandardPaths goes to its test mode, and QSettings
// to a directory of this process that is removed when it exits.
inline void use_test_settings(const QString& application) {
    QStandardPaths::setTestModeEnabled(true);
    static const QTemporaryDir dir;
    QCoreApplication::setOrganizationName(QStringLiteral("TokenscopeTest"));
    QCoreApplication::setApplicationName(application);
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

// Where use_test_settings() keeps them (for the test that checks it).
inline QString test_settings_dir() {
    return QFileInfo(QSettings().fileName()).absoluteDir().absolutePath();
}

}  // namespace tokenscope::test
