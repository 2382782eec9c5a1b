#include "token_table.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "analysis/join/slow_tokens.h"
#include "analysis/join/stored_slow_tokens.h"
#include "slow_token_model.h"
#include "store/store_reader.h"
#include "ui/shared/background_query.h"
#include "ui/shared/row_table.h"

namespace tokenscope::ui {
namespace {

// What the background explanation hands back: the tokens, or why there are none.
struct Explained {
    std::vector<analysis::SlowToken> tokens;
    QString error;
};

}  // namespace

TokenTable::TokenTable(QWidget* parent)
    : QWidget(parent),
      choice_(new QComboBox(this)),
      status_(new QLabel(this)),
      view_(new QTableView(this)),
      model_(new SlowTokenModel(this)),
      query_(new BackgroundQuery(this)) {
    setObjectName(QStringLiteral("tokenTable"));
    choice_->setObjectName(QStringLiteral("tokenRequestChoice"));
    choice_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    choice_->setMinimumContentsLength(22);
    view_->setObjectName(QStringLiteral("tokenTableView"));
    view_->setModel(model_);
    view_->verticalHeader()->hide();
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setAlternatingRowColors(true);
    fit_columns(view_);  // kernel names elide; the numbers stay whole
    view_->setToolTip(tr("Click a token to select its iteration and kernels in the timeline"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Tokens:"), this));
    bar->addWidget(choice_);
    bar->addWidget(status_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(view_, 1);
    connect(choice_, &QComboBox::currentIndexChanged, this, &TokenTable::recompute);
    auto activate = [this](const QModelIndex& index) {
        if (index.isValid()) emit tokenActivated(index.data(SlowTokenModel::StepRole).toInt());
    };
    connect(view_, &QTableView::clicked, this, activate);
    connect(view_, &QTableView::activated, this, activate);
}

void TokenTable::setRun(const OpenRun& run) {
    run_ = run;
    ready_ = false;
    model_->setRows({});
    const bool joined = run.valid() && run.index && run.index->requests().shown();
    setVisible(joined);
    {
        const QSignalBlocker block(choice_);
        choice_->clear();
        if (joined) {
            choice_->addItem(tr("Slowest %1 of the run").arg(kSlowest), qint64{0});
            std::vector<std::int64_t> ids;
            for (const auto& r : run.data->requests) ids.push_back(r.id);
            std::sort(ids.begin(), ids.end());
            ids.resize(std::min<std::size_t>(ids.size(), kMaxRequestChoices));
            for (std::int64_t id : ids) choice_->addItem(tr("Request %1").arg(id), qint64{id});
        }
    }
    if (!joined) {
        query_->clear();
        return;
    }
    recompute();
}

void TokenTable::setUnit(plots::TimeUnit unit) {
    model_->setUnit(unit);
}

void TokenTable::showRequest(qint64 request) {
    const int i = choice_->findData(request);
    if (i >= 0) choice_->setCurrentIndex(i);
}

void TokenTable::recompute() {
    if (!run_.valid()) return;
    ready_ = false;
    const qint64 request = choice_->currentData().toLongLong();
    analysis::SlowTokenOptions options;
    options.count = kSlowest;
    if (request != 0) options.request = request;
    status_->setText(tr("Finding the tokens' iterations…"));
    auto run_data = run_.data;
    // A run whose activities stayed in its file reads only the tokens' windows from it.
    const std::string path = run_data->in_file ? run_.path.toStdString() : std::string();
    query_->run(
        tr("Explaining the slowest tokens…"),
        [run_data, options, path](const trace::StopToken& stop) {
            Explained out;
            try {
                if (path.empty()) {
                    out.tokens = analysis::slowest_tokens(*run_data, options, stop);
                } else {
                    const store::StoreReader reader(path, store::ReaderOptions::pass());
                    out.tokens = analysis::stored_slowest_tokens(reader, *run_data, options, stop);
                }
            } catch (const trace::Cancelled&) {
                throw;
            } catch (const std::exception& e) {  // a damaged file, named by the error
                out.error = QString::fromStdString(e.what());
            }
            return out;
        },
        [this, request](Explained explained) {
            const std::size_t n = explained.tokens.size();
            model_->setRows(std::move(explained.tokens));
            status_->setText(!explained.error.isEmpty() ? explained.error
                             : request == 0
                                 ? tr("%1 slowest by ITL; click one for its kernels").arg(n)
                                 : tr("%1 tokens of request %2").arg(n).arg(request));
            ready_ = true;
            emit tokensReady();
        });
}

}  // namespace tokenscope::ui
