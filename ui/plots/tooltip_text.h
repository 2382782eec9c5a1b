#pragma once

#include <QApplication>
#include <QPoint>
#include <QScreen>
#include <QString>
#include <QToolTip>
#include <QWidget>

namespace tokenscope::ui::plots {

// A name for a rich-text tooltip, HTML-escaped, that can wrap: a C++ kernel name of 300
// characters without a space made the tooltip wider than the screen (Qt wraps rich-text
// tooltips at about 80 characters, but only where a line may break). A zero-width space
// after each "::", ",", "<", "(" and "_", and every 40 characters of anything else,
// gives it places to break; the text reads the same.
inline QString breakable_html(const QString& name) {
    constexpr int kRun = 40;
    const QChar zwsp(0x200B);
    QString out;
    out.reserve(name.size() + name.size() / 8);
    int run = 0;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name[i];
        out += c;
        run = c.isSpace() ? 0 : run + 1;
        const bool after = c == QLatin1Char(',') || c == QLatin1Char('<') ||
                           c == QLatin1Char('(') || c == QLatin1Char('_') ||
                           (c == QLatin1Char(':') && i > 0 && name[i - 1] == QLatin1Char(':'));
        if ((after && run > 8) || run >= kRun) {
            out += zwsp;
            run = 0;
        }
    }
    return out.toHtmlEscaped();
}

// QToolTip::showText, then the tip moved back inside the free area of its screen: Qt
// places it from the size it guessed before showing it, and a wrapped rich-text tip
// ends up a few pixels past the right edge near it.
inline void show_tooltip(const QPoint& global, const QString& text, QWidget* widget) {
    QToolTip::showText(global, text, widget);
    QScreen* screen = QGuiApplication::screenAt(global);
    if (screen == nullptr && widget != nullptr) screen = widget->screen();
    if (screen == nullptr) return;
    const QRect free = screen->availableGeometry();
    for (QWidget* tip : QApplication::topLevelWidgets()) {
        if (!tip->inherits("QTipLabel") || !tip->isVisible()) continue;
        QRect r = tip->frameGeometry();
        if (r.right() > free.right()) r.moveRight(free.right());
        if (r.bottom() > free.bottom()) r.moveBottom(free.bottom());
        if (r.left() < free.left()) r.moveLeft(free.left());
        if (r.top() < free.top()) r.moveTop(free.top());
        if (r != tip->frameGeometry()) tip->move(r.topLeft());
    }
}

}  // namespace tokenscope::ui::plots
