#include "command_line.h"

#include <cstdio>

#include "man/roff.h"

namespace tokenscope::gui {

namespace {

const char* const kSynopsis = "[options] [FILE [FILE2]]";
const char* const kDescription =
    "Latency workbench for LLM decoding: timeline, P95 heatmap, breakdown and compare. "
    "One FILE (a .tokenscope run or a foreign trace: Nsight Systems SQLite, PyTorch "
    "profiler JSON, serving benchmark results) opens it, two are compared as A and B, "
    "none opens the bundled sample run.";
const char* const kFilesHelp = ".tokenscope files or traces; two files are compared";
const char* const kQtOptions =
    "Qt's own options (-platform NAME, -style NAME, ...) are accepted as well.";

std::string dashed(const QString& name) {
    return (name.size() == 1 ? "-" : "--") + name.toStdString();
}

}  // namespace

CommandLine::CommandLine() {
    table_ = {
        {{"h", "help"}, {}, "show this help and exit"},
        {{"v", "version"}, {}, "print the version and exit"},
        {{"screenshots"},
         "DIR",
         "save the tabs of the sample run, or of FILE, as PNGs in DIR, then exit"},
        {{"size"}, "WxH", "the window's size for --screenshots (default 1920x1080)"},
        {{"help-man"}, {}, "print the man page (roff) and exit", true},
    };
    for (const Option& o : table_)
        parser_.addOption(QCommandLineOption(o.names, o.help, o.value_name));
    parser_.addPositionalArgument(QStringLiteral("files"), QString::fromUtf8(kFilesHelp),
                                  QStringLiteral("[FILE [FILE2]]"));
}

std::optional<int> CommandLine::before_app(const QStringList& arguments) {
    if (!parser_.parse(arguments)) return std::nullopt;
    return print_requested();
}

std::optional<int> CommandLine::after_app(const QStringList& arguments) {
    if (!parser_.parse(arguments)) {
        std::fprintf(stderr, "tokenscope: %s (see --help)\n", qPrintable(parser_.errorText()));
        return 1;
    }
    if (parser_.isSet(QStringLiteral("size")) && !screenshot_size()) {
        std::fprintf(stderr, "tokenscope: --size %s: expected WIDTHxHEIGHT, e.g. 1366x768\n",
                     qPrintable(parser_.value(QStringLiteral("size"))));
        return 1;
    }
    return print_requested();
}

std::optional<QSize> CommandLine::screenshot_size() const {
    if (!parser_.isSet(QStringLiteral("size"))) return QSize(1920, 1080);
    const QStringList parts = parser_.value(QStringLiteral("size")).split(QLatin1Char('x'));
    if (parts.size() != 2) return std::nullopt;
    bool ok_w = false, ok_h = false;
    const int w = parts[0].toInt(&ok_w), h = parts[1].toInt(&ok_h);
    if (!ok_w || !ok_h || w < 320 || h < 240 || w > 16384 || h > 16384) return std::nullopt;
    return QSize(w, h);
}

std::optional<int> CommandLine::print_requested() const {
    QString text;
    if (parser_.isSet(QStringLiteral("help")))
        text = help_text();
    else if (parser_.isSet(QStringLiteral("version")))
        text = QStringLiteral("tokenscope " TOKENSCOPE_VERSION "\n");
    else if (parser_.isSet(QStringLiteral("help-man")))
        text = man_page();
    else
        return std::nullopt;
    std::fputs(text.toUtf8().constData(), stdout);
    return 0;
}

QString CommandLine::help_text() const {
    QString out = QStringLiteral("usage: tokenscope %1\n\n%2\n\narguments:\n")
                      .arg(QString::fromUtf8(kSynopsis), QString::fromUtf8(kDescription));
    auto row = [&out](const QString& left, const QString& help) {
        out += QStringLiteral("  ") + left.leftJustified(24) + QLatin1Char(' ') + help + '\n';
    };
    row(QStringLiteral("FILE [FILE2]"), QString::fromUtf8(kFilesHelp));
    out += QStringLiteral("\noptions:\n");
    for (const Option& o : table_) {
        if (o.hidden) continue;
        QStringList names;
        for (const QString& n : o.names) names << QString::fromStdString(dashed(n));
        QString left = names.join(QStringLiteral(", "));
        if (!o.value_name.isEmpty()) left += QLatin1Char(' ') + o.value_name;
        row(left, o.help);
    }
    return out + QLatin1Char('\n') + QString::fromUtf8(kQtOptions) + QLatin1Char('\n');
}

QString CommandLine::man_page() const {
    std::string out =
        ".TH TOKENSCOPE 1 \"\" " + man::roff_quoted("tokenscope " TOKENSCOPE_VERSION) +
        " \"User Commands\"\n"
        ".SH NAME\n"
        "tokenscope \\- latency workbench for LLM decoding\n"
        ".SH SYNOPSIS\n"
        ".B tokenscope\n"
        "[\\fIoptions\\fR] [\\fIFILE\\fR [\\fIFILE2\\fR]]\n"
        ".SH DESCRIPTION\n" +
        man::roff_text(kDescription) + "\n.PP\n" + man::roff_text(kQtOptions) + "\n.SH OPTIONS\n";
    for (const Option& o : table_) {
        if (o.hidden) continue;
        std::string tag;
        for (const QString& n : o.names)
            tag += (tag.empty() ? "" : ", ") +
                   man::roff_option_tag(
                       dashed(n), o.names.last() == n ? o.value_name.toStdString() : std::string());
        out += ".TP\n" + tag + '\n' + man::roff_text(o.help.toStdString()) + '\n';
    }
    out +=
        ".SH FILES\n"
        ".TP\n"
        ".I share/tokenscope/sample.tokenscope\n"
        "under the installation prefix (\\fI/usr\\fR for the Debian package): the sample run "
        "opened when no FILE is given, two cost\\-model runs of a Llama\\-1B decode on an H100 "
        "and an H200; \\fIh200\\-llama\\-1b.tokenscope\\fR next to it is a real capture.\n"
        ".SH SEE ALSO\n"
        ".BR tokenscope\\-cli (1)\n";
    return QString::fromStdString(out);
}

}  // namespace tokenscope::gui
