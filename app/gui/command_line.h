#pragma once

#include <QCommandLineParser>
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace tokenscope::gui {

// The arguments of `tokenscope`: one table serves the parser, --help and the
// man page (--help-man, run by packaging/ at build time). It is read before any
// QApplication exists, so --help and --version work without a display.
class CommandLine {
  public:
    CommandLine();

    // Before QApplication: an exit status when the arguments asked for help, the
    // version or the man page (already printed); nothing when the GUI should start,
    // or when an option is unknown here (Qt's own -platform, -style, ... which
    // QApplication takes out of argv; after_app() parses what is left).
    std::optional<int> before_app(const QStringList& arguments);
    // After QApplication: parses its arguments, an exit status on errors or
    // when help or the version was asked for next to Qt's options.
    std::optional<int> after_app(const QStringList& arguments);

    QStringList files() const { return parser_.positionalArguments(); }
    bool screenshots() const { return parser_.isSet(QStringLiteral("screenshots")); }
    QString screenshots_dir() const { return parser_.value(QStringLiteral("screenshots")); }
    // --size WxH, 1920x1080 when not given; nothing when it does not parse.
    std::optional<QSize> screenshot_size() const;

    QString help_text() const;
    QString man_page() const;

  private:
    struct Option {
        QStringList names;
        QString value_name;
        QString help;
        bool hidden = false;
    };
    std::optional<int> print_requested() const;

    std::vector<Option> table_;
    QCommandLineParser parser_;
};

}  // namespace tokenscope::gui
