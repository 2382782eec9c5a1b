#include "gui_words.h"

#include <QRegularExpression>
#include <array>
#include <utility>

namespace tokenscope::ui {
namespace {

struct Control {
    const char* flag;
    const char* label;  // as the New Run dialog or the window labels it
    bool takes_choice;  // "--backend model" names a choice: Backend “model”
};

constexpr std::array<Control, 17> kControls = {{
    {"backend", "Backend", true},
    {"preset", "Preset", true},
    {"gpu", "GPU preset", true},
    {"strategy", "Strategy", true},
    {"batch", "Batch", false},
    {"prompt", "Prompt tokens", false},
    {"tokens", "New tokens", false},
    {"top-k", "Top-k", false},
    {"beams", "Beams", false},
    {"draft-layers", "Draft layers", false},
    {"gamma", "Gamma", false},
    {"acceptance", "Acceptance rate", false},
    {"seed", "Seed", false},
    {"out", "Output file", false},
    {"name", "Name", false},
    {"steps-from", "Step pattern", false},
    {"steps-from-nvtx", "Step pattern", false},
}};

const Control* control(const QString& flag) {
    for (const Control& c : kControls)
        if (flag == QLatin1String(c.flag)) return &c;
    return nullptr;
}

}  // namespace

QString GuiWords::fromCli(const QString& message) {
    QString text = message;
    // "(--steps-from REGEX)": the field, not the flag's syntax.
    static const QRegularExpression syntax(QStringLiteral("\\(--steps-from(?:-nvtx)? REGEX\\)"));
    text.replace(syntax, QStringLiteral("(the Step pattern field)"));
    // "use --x" asks for a choice in the window.
    static const QRegularExpression use(QStringLiteral("\\buse (?=--)"));
    text.replace(use, QStringLiteral("choose "));
    static const QRegularExpression flag(
        QStringLiteral("--([a-z][a-z-]*)(?:[ =]([A-Za-z0-9_.:+-]+))?"));
    QString out;
    qsizetype last = 0;
    for (auto it = flag.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(text).mid(last, m.capturedStart() - last);
        last = m.capturedEnd();
        const Control* c = control(m.captured(1));
        const QString label = c != nullptr
                                  ? QString::fromUtf8(c->label)
                                  : m.captured(1).replace(QLatin1Char('-'), QLatin1Char(' '));
        // A value after a flag that takes none is the sentence's next word: keep it.
        static const QRegularExpression word(
            QStringLiteral("^(or|and|is|are|only|to|for|with|the|a|an|of|in|on|not|must)$"));
        if (m.captured(2).isEmpty()) {
            out += label;
        } else if (c != nullptr && c->takes_choice && !word.match(m.captured(2)).hasMatch()) {
            out += QStringLiteral("%1 \u201c%2\u201d").arg(label, m.captured(2));
        } else {
            out += label;
            last = m.capturedStart(2) - 1;  // the separator and the word come next
        }
    }
    out += QStringView(text).mid(last);
    return out;
}

}  // namespace tokenscope::ui
