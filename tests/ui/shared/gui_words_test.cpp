// The GUI speaks of its controls, never of tokenscope-cli's flags: messages it passes on
// are translated (ui/shared/gui_words.h), and none of its own texts names a flag.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include "ui/shared/gui_words.h"

using namespace tokenscope;

class GuiWordsTest : public QObject {
    Q_OBJECT
  private slots:
    // One row per message the GUI passes on: what the CLI or a backend said, what the
    // window shows.
    void flagsBecomeControls_data() {
        QTest::addColumn<QString>("cli");
        QTest::addColumn<QString>("gui");
        // profiler/capture/cpu/cpu_run_spec.cpp's advice, as a failed New Run shows it.
        QTest::newRow("cpu backend too small")
            << QStringLiteral(
                   "cpu backend: llama-8b needs 32 GB; use --preset tiny or --backend model")
            << QStringLiteral(
                   "cpu backend: llama-8b needs 32 GB; choose Preset \u201ctiny\u201d "
                   "or Backend \u201cmodel\u201d");
        QTest::newRow("shape too big")
            << QStringLiteral(
                   "too big; reduce --batch, --prompt or --tokens, or use --backend model")
            << QStringLiteral(
                   "too big; reduce Batch, Prompt tokens or New tokens, or choose "
                   "Backend \u201cmodel\u201d");
        QTest::newRow("no steps")
            << QStringLiteral(
                   "so the run has no steps; give a step pattern "
                   "(--steps-from REGEX) to frame iterations")
            << QStringLiteral(
                   "so the run has no steps; give a step pattern (the Step pattern "
                   "field) to frame iterations");
        const QString plain = QStringLiteral("no GPU found: the driver is not loaded");
        QTest::newRow("no flag, unchanged") << plain << plain;
    }

    void flagsBecomeControls() {
        QFETCH(QString, cli);
        QFETCH(QString, gui);
        QCOMPARE(ui::GuiWords::fromCli(cli), gui);
    }

    void anUnknownFlagIsNotShown() {
        QVERIFY(!ui::GuiWords::fromCli(QStringLiteral("use --frobnicate 3")).contains(u"--"));
    }

    // No text the GUI translates names a flag (the child's arguments and a placeholder
    // showing the user's own program are not texts of ours).
    void noGuiTextNamesAFlag() {
        const QDir ui_dir(QStringLiteral(TOKENSCOPE_SOURCE_DIR "/ui"));
        QStringList sources;  // every feature folder's, ui/shared/'s and ui/plots/'
        for (QDirIterator it(ui_dir.path(), {QStringLiteral("*.cpp")}, QDir::Files,
                             QDirIterator::Subdirectories);
             it.hasNext();)
            sources << ui_dir.relativeFilePath(it.next());
        QVERIFY(sources.size() > 20);
        static const QRegularExpression text(QStringLiteral("tr\\(\\s*\"((?:[^\"\\\\]|\\\\.)*)\""));
        static const QRegularExpression flag(QStringLiteral("(^|[ (\"])--[a-z]"));
        QStringList found;
        for (const QString& name : sources) {
            QFile file(ui_dir.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString source = QString::fromUtf8(file.readAll());
            for (auto it = text.globalMatch(source); it.hasNext();) {
                const QString literal = it.next().captured(1);
                if (flag.match(literal).hasMatch() &&
                    !literal.startsWith(QStringLiteral("python ")))
                    found << name + QStringLiteral(": ") + literal;
            }
        }
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(GuiWordsTest)
#include "gui_words_test.moc"
