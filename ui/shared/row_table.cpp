#include "row_table.h"

#include <QEvent>
#include <QHeaderView>
#include <QHelpEvent>
#include <QTableView>
#include <QTimer>
#include <QToolTip>
#include <algorithm>
#include <numeric>
#include <vector>

namespace tokenscope::ui {
namespace {

constexpr int kMinColumn = 36;  // a column never gets narrower than a few characters

// Widths that sum to at most `room`: each column keeps its natural width up to a cap,
// the cap as high as the room allows (water filling), so narrow columns stay whole.
std::vector<int> fit_widths(const std::vector<int>& natural, int room) {
    const int total = std::accumulate(natural.begin(), natural.end(), 0);
    if (total <= room || natural.empty()) return natural;
    std::vector<int> sorted = natural;
    std::sort(sorted.begin(), sorted.end());
    int left = room;
    int cap = kMinColumn;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        const int rest = static_cast<int>(sorted.size() - i);
        if (sorted[i] * rest > left) {
            cap = std::max(kMinColumn, left / rest);
            break;
        }
        left -= sorted[i];
    }
    std::vector<int> out;
    for (int w : natural) out.push_back(std::min(w, cap));
    return out;
}

// QTableView::sizeHintForColumn is protected; a member pointer named through a subclass
// that makes it public calls it on any table (the column's widest visible cell).
struct Access : QTableView {
    using QTableView::sizeHintForColumn;
};

class ColumnFit : public QObject {
  public:
    explicit ColumnFit(QTableView* view)
        : QObject(view),
          view_(view),
          viewport_(view->viewport()),
          header_viewport_(view->horizontalHeader()->viewport()) {
        timer_.setSingleShot(true);
        timer_.setInterval(0);
        connect(&timer_, &QTimer::timeout, this, &ColumnFit::fit);
        viewport_->installEventFilter(this);
        header_viewport_->installEventFilter(this);
        view->installEventFilter(this);
        watch(view->model());
    }

    void watch(QAbstractItemModel* model) {
        if (model == nullptr) return;
        for (const char* signal : {SIGNAL(modelReset()), SIGNAL(layoutChanged()),
                                   SIGNAL(rowsInserted(QModelIndex, int, int)),
                                   SIGNAL(rowsRemoved(QModelIndex, int, int)),
                                   SIGNAL(dataChanged(QModelIndex, QModelIndex, QList<int>)),
                                   SIGNAL(headerDataChanged(Qt::Orientation, int, int))})
            connect(model, signal, &timer_, SLOT(start()));
    }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Resize || event->type() == QEvent::Show ||
            event->type() == QEvent::FontChange)
            timer_.start();
        // The pointers kept at construction, not view_->viewport(): the view sends events
        // while it is being destroyed, when it is no longer a QAbstractScrollArea
        // (UBSan: member call on an object of the wrong dynamic type).
        if (event->type() != QEvent::ToolTip) return false;
        if (watched == viewport_) return showElided(static_cast<QHelpEvent*>(event));
        if (watched == header_viewport_) return showElidedTitle(static_cast<QHelpEvent*>(event));
        return false;
    }

  private:
    void fit() {
        QAbstractItemModel* model = view_->model();
        if (model == nullptr) return;
        QHeaderView* header = view_->horizontalHeader();
        std::vector<int> cells, titles;
        std::vector<int> shown;  // logical indices of the visible columns
        for (int c = 0; c < model->columnCount(); ++c) {
            if (view_->isColumnHidden(c)) continue;
            shown.push_back(c);
            cells.push_back(std::max(kMinColumn, (view_->*(&Access::sizeHintForColumn))(c)));
            titles.push_back(header->sectionSizeHint(c));
        }
        const int room = view_->viewport()->width() - 2;
        // The cells whole first: where the room is short, a header elides before a number.
        std::vector<int> widths = fit_widths(cells, room);
        int left = room - std::accumulate(widths.begin(), widths.end(), 0);
        for (std::size_t i = 0; i < widths.size() && left > 0; ++i) {
            const int more = std::min(left, std::max(0, titles[i] - widths[i]));
            widths[i] += more;
            left -= more;
        }
        for (std::size_t i = 0; i < shown.size(); ++i) header->resizeSection(shown[i], widths[i]);
    }

    // An elided cell without a tooltip of its own shows its whole text.
    bool showElided(QHelpEvent* event) {
        const QModelIndex index = view_->indexAt(event->pos());
        if (!index.isValid() || index.data(Qt::ToolTipRole).isValid()) return false;
        const QString text = index.data(Qt::DisplayRole).toString();
        if (text.isEmpty() ||
            view_->columnWidth(index.column()) >= view_->sizeHintForIndex(index).width())
            return false;
        QToolTip::showText(event->globalPos(), text, view_->viewport(), view_->visualRect(index));
        return true;
    }

    // A header cut short shows its whole title (unless the model gives a tooltip).
    bool showElidedTitle(QHelpEvent* event) {
        QHeaderView* header = view_->horizontalHeader();
        const int section = header->logicalIndexAt(event->pos());
        QAbstractItemModel* model = view_->model();
        if (section < 0 || model == nullptr ||
            model->headerData(section, Qt::Horizontal, Qt::ToolTipRole).isValid() ||
            header->sectionSize(section) >= header->sectionSizeHint(section))
            return false;
        QToolTip::showText(event->globalPos(),
                           model->headerData(section, Qt::Horizontal).toString(), header);
        return true;
    }

    QTableView* view_;
    QObject* viewport_;
    QObject* header_viewport_;
    QTimer timer_;
};

}  // namespace

QTableView* make_row_table(QAbstractItemModel* model, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->verticalHeader()->hide();
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    fit_columns(view);
    return view;
}

void fit_columns(QTableView* view) {
    view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideRight);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view->horizontalHeader()->setStretchLastSection(false);
    view->horizontalHeader()->setTextElideMode(Qt::ElideRight);
    new ColumnFit(view);
}

}  // namespace tokenscope::ui
