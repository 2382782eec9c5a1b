#include "run_analyzer.h"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>

#include "analysis/attribution/stored_analysis.h"
#include "analysis/attribution/stored_attribution.h"
#include "analysis/heatmap/stored_heatmap.h"
#include "background_query.h"
#include "store/store_error.h"
#include "store/store_reader.h"

namespace tokenscope::ui {
namespace {

// What the background work hands back: the product, or why it failed.
struct Outcome {
    std::shared_ptr<const analysis::RunAnalysis> analysis;
    std::shared_ptr<const analysis::Heatmap> heatmap;
    QString error;
};

template <typename Make>
Outcome attempt(Make make) {
    Outcome o;
    try {
        make(o);
    } catch (const trace::Cancelled&) {
        throw;  // not a failure: the query drops it silently
    } catch (const std::exception& e) {
        o.error = QString::fromUtf8(e.what());
    }
    return o;
}

// The run's analysis as its .tokenscope file keeps it (import wrote it: stored_attribution.h),
// read in milliseconds; else made from the activities in memory. A file that is foreign,
// holds no record for this run or cannot be read for it falls back to the computation:
// the loader has read the run whole already. A run whose activities stayed in the file
// (trace::RunData::in_file) without a record is analysed from the file slice by slice, as
// `breakdown` does; a file that fails then says why (it names itself).
analysis::RunAnalysis kept_or_computed(const OpenRun& run, const trace::StopToken& stop) {
    const bool in_file = run.data->in_file.has_value();
    if (run.file_run >= 0 && (run.step_pattern.isEmpty() || in_file)) {
        try {
            const store::StoreReader reader(run.path.toStdString(), store::ReaderOptions::pass());
            const auto ids = reader.run_ids();
            const auto at = static_cast<std::size_t>(run.file_run);
            const bool same = at < ids.size() && ids[at] == run.data->info.id;
            if (same)
                if (auto kept = analysis::read_stored_analysis(reader, *run.data, {}, stop))
                    return *std::move(kept);
            if (same && in_file)
                return analysis::analyse_stored_run(reader, *run.data, {}, {}, stop);
        } catch (const store::StoreError&) {
            if (in_file) throw;
        }
    }
    return analysis::analyse_run(*run.data, {}, {}, stop);
}

// A run whose activities stayed in its file reads its kernels from there for kernel rows
// (a histogram per cell, stored_heatmap.h); every other heatmap is made from memory.
analysis::Heatmap heatmap_of(const OpenRun& run, const analysis::HeatmapSpec& spec,
                             const trace::StopToken& stop) {
    if (!run.data->in_file) return analysis::compute_heatmap(*run.data, spec, stop);
    const store::StoreReader reader(run.path.toStdString(), store::ReaderOptions::pass());
    return analysis::compute_stored_heatmap(reader, *run.data, spec, stop);
}

}  // namespace

struct RunAnalyzer::Product {
    OpenRun run;
    std::optional<analysis::HeatmapSpec> spec;  // nullopt: the run's analysis
    std::shared_ptr<const analysis::RunAnalysis> analysis;
    std::shared_ptr<const analysis::Heatmap> heatmap;
    QString error;
    bool done = false;  // analysis, heatmap or error is set
    QPointer<BackgroundQuery> query;
    bool own = false;  // `query` is this product's alone (else a holder's slot)
    quint64 generation = 0;

    bool is(const trace::RunData* r, const std::optional<analysis::HeatmapSpec>& s) const {
        return run.data.get() == r && spec == s;
    }
    bool inFlight() const { return !done && query && query->isCurrent(generation); }
    // Cancelled (or its holder's slot was taken over) before it finished.
    bool stopped() const { return !done && !inFlight(); }
};

RunAnalyzer::RunAnalyzer(QObject* parent) : QObject(parent), query_(new BackgroundQuery(this)) {
    watch(query_);
}

RunAnalyzer::~RunAnalyzer() {
    // Silent from here on: the analyzer is usually a child of the view that listens
    // to busyChanged, and by the time QObject deletes children that view's own
    // destructor has run, so a signal now would call a slot on a half-destroyed
    // widget (UBSan's vptr check caught it in ui_joined_views_test).
    blockSignals(true);
    // Work on a holder's slot must not deliver to this object once it is gone; work on
    // its own queries stops with them (children).
    for (const auto& p : products_)
        if (!p->own && p->inFlight()) p->query->clear();
}

RunAnalyzer::Product* RunAnalyzer::find(const trace::RunData* run,
                                        const std::optional<analysis::HeatmapSpec>& spec) const {
    if (run == nullptr) return nullptr;
    for (const auto& p : products_)
        if (p->is(run, spec)) return p.get();
    return nullptr;
}

bool RunAnalyzer::claimed(const Product& p) const {
    for (const auto& [holder, c] : claims_) {
        if (!p.spec) {
            for (const OpenRun& r : c.analyses)
                if (r.data == p.run.data) return true;
        } else {
            for (const auto& [r, spec] : c.heatmaps)
                if (r.data == p.run.data && spec == *p.spec) return true;
        }
    }
    return false;
}

void RunAnalyzer::claim(const QObject* holder, const Claim& want, BackgroundQuery* slot) {
    const bool empty = want.analyses.isEmpty() && want.heatmaps.isEmpty();
    if (empty && !claims_.count(holder)) return;
    if (holder != this && tracked_.insert(holder).second)
        connect(holder, &QObject::destroyed, this, [this, holder] {
            tracked_.erase(holder);
            release(holder);  // a holder that did not release its claim itself
        });
    claims_[holder] = want;
    auto need = [&](const OpenRun& run, const std::optional<analysis::HeatmapSpec>& spec) {
        if (!run.valid()) return;
        Product* p = find(run.data.get(), spec);
        if (p == nullptr) p = add(run, spec);
        if (!p->done && !p->inFlight()) start(*p, slot);  // new, or cancelled before
    };
    for (const OpenRun& run : want.analyses) need(run, std::nullopt);
    for (const auto& [run, spec] : want.heatmaps) need(run, spec);
    // Started first, so a product taking over a slot supersedes the dropped one's work
    // there instead of going idle and busy again.
    for (std::size_t i = products_.size(); i-- > 0;)
        if (!claimed(*products_[i])) drop(i);
    if (empty) claims_.erase(holder);
    updateBusy();
}

RunAnalyzer::Product* RunAnalyzer::add(const OpenRun& run,
                                       const std::optional<analysis::HeatmapSpec>& spec) {
    auto p = std::make_unique<Product>();
    p->run = run;
    p->spec = spec;
    products_.push_back(std::move(p));
    return products_.back().get();
}

void RunAnalyzer::start(Product& p, BackgroundQuery* slot) {
    const bool slot_free =
        slot != nullptr && std::none_of(products_.begin(), products_.end(), [&](const auto& o) {
            return o.get() != &p && o->query == slot && o->inFlight() && claimed(*o);
        });
    if (slot_free) {
        if (p.own && p.query) p.query->deleteLater();
        p.query = slot;
        p.own = false;
    } else if (!p.own || !p.query) {
        p.query = new BackgroundQuery(this);
        p.own = true;
    }
    watch(p.query);
    p.done = false;
    p.error.clear();
    p.analysis.reset();
    p.heatmap.reset();
    Product* target = &p;
    auto done = [this, target](const Outcome& o) {
        // Only the live query of a product still here delivers (BackgroundQuery drops the
        // rest); the check guards a product replaced meanwhile.
        if (std::none_of(products_.begin(), products_.end(),
                         [&](const auto& q) { return q.get() == target; }))
            return;
        target->analysis = o.analysis;
        target->heatmap = o.heatmap;
        target->error = o.error;
        target->done = true;
        finished(*target);
    };
    // The jobs take copies of the run, whose data is shared: it stays alive while they read.
    if (p.spec) {
        const analysis::HeatmapSpec spec = *p.spec;
        p.generation = p.query->run(
            tr("Computing the heatmap…"),
            [run = p.run, spec](const trace::StopToken& stop) {
                return attempt([&](Outcome& o) {
                    o.heatmap =
                        std::make_shared<const analysis::Heatmap>(heatmap_of(run, spec, stop));
                });
            },
            done);
    } else {
        p.generation = p.query->run(
            tr("Attributing steps and assessing the run…"),
            [run = p.run](const trace::StopToken& stop) {
                return attempt([&](Outcome& o) {
                    o.analysis =
                        std::make_shared<const analysis::RunAnalysis>(kept_or_computed(run, stop));
                });
            },
            done);
    }
}

void RunAnalyzer::drop(std::size_t index) {
    const std::unique_ptr<Product> p = std::move(products_[index]);
    products_.erase(products_.begin() + static_cast<std::ptrdiff_t>(index));
    if (!p->query) return;
    if (p->own) {
        p->query->clear();        // stops the work
        p->query->deleteLater();  // not now: its own signal may have led here
    } else if (p->query->isCurrent(p->generation)) {
        p->query->clear();
    }
}

void RunAnalyzer::watch(BackgroundQuery* query) {
    if (std::find(watched_.begin(), watched_.end(), query) != watched_.end()) return;
    watched_.push_back(query);
    connect(query, &BackgroundQuery::cancelled, this, [this, query] { onCancelled(query); });
    connect(query, &BackgroundQuery::busyChanged, this, &RunAnalyzer::updateBusy);
    connect(query, &QObject::destroyed, this, [this, query] {
        watched_.erase(std::remove(watched_.begin(), watched_.end(), query), watched_.end());
    });
}

void RunAnalyzer::finished(Product& p) {
    const bool current = p.is(run_.data.get(), std::nullopt);
    const bool ok = p.analysis != nullptr;
    const QString error = p.error;
    emit updated();  // a holder may change its claim here: `p` may be gone after it
    if (current) {
        if (ok)
            emit ready();
        else
            emit failed(error);
    }
    updateBusy();
}

void RunAnalyzer::onCancelled(BackgroundQuery* query) {
    const Product* current = find(run_.data.get(), std::nullopt);
    const bool current_stopped = current && current->query == query && current->stopped();
    emit updated();
    if (current_stopped) emit cancelled();
    updateBusy();
}

void RunAnalyzer::updateBusy() {
    const QPair<bool, QString> now(busy(), what());
    if (now == shown_busy_) return;
    shown_busy_ = now;
    emit busyChanged(now.first, now.second);
}

bool RunAnalyzer::cancel(const QObject* holder) {
    const auto it = claims_.find(holder);
    if (it == claims_.end()) return false;
    // Collected first: a cancel's signals may lead a holder to claim anew.
    QList<QPointer<BackgroundQuery>> live;
    for (const auto& p : products_)
        if (p->inFlight()) {
            const Claim& c = it->second;
            const bool mine =
                p->spec ? std::any_of(
                              c.heatmaps.begin(), c.heatmaps.end(),
                              [&](const auto& h) { return p->is(h.first.data.get(), h.second); })
                        : std::any_of(c.analyses.begin(), c.analyses.end(),
                                      [&](const OpenRun& r) { return r.data == p->run.data; });
            if (mine) live.push_back(p->query);
        }
    bool any = false;
    for (const auto& q : live)
        if (q) any = q->cancel() || any;
    return any;
}

std::shared_ptr<const analysis::RunAnalysis> RunAnalyzer::analysis(
    const trace::RunData* run) const {
    const Product* p = find(run, std::nullopt);
    return p ? p->analysis : nullptr;
}

std::shared_ptr<const analysis::Heatmap> RunAnalyzer::heatmap(
    const trace::RunData* run, const analysis::HeatmapSpec& spec) const {
    const Product* p = find(run, spec);
    return p ? p->heatmap : nullptr;
}

QString RunAnalyzer::error(const trace::RunData* run,
                           const std::optional<analysis::HeatmapSpec>& spec) const {
    const Product* p = find(run, spec);
    return p ? p->error : QString();
}

bool RunAnalyzer::pending(const trace::RunData* run,
                          const std::optional<analysis::HeatmapSpec>& spec) const {
    const Product* p = find(run, spec);
    return p && p->inFlight();
}

bool RunAnalyzer::stopped(const trace::RunData* run,
                          const std::optional<analysis::HeatmapSpec>& spec) const {
    const Product* p = find(run, spec);
    return p && p->stopped();
}

BackgroundQuery* RunAnalyzer::queryOf(const trace::RunData* run,
                                      const std::optional<analysis::HeatmapSpec>& spec) const {
    const Product* p = find(run, spec);
    return p ? p->query.data() : nullptr;
}

void RunAnalyzer::setRun(const OpenRun& run) {
    const bool same = run.data == run_.data;
    if (same && run.valid() && find(run.data.get(), std::nullopt) && !stopped(run.data.get()))
        return;  // analysed or on its way
    run_ = run;
    claim(this, run.valid() ? Claim{{run}, {}} : Claim{}, query_);
    if (busy()) emit started();
}

std::shared_ptr<const analysis::RunAnalysis> RunAnalyzer::result() const {
    return analysis(run_.data.get());
}

QString RunAnalyzer::what() const {
    const Product* p = find(run_.data.get(), std::nullopt);
    return p && p->inFlight() ? p->query->what() : QString();
}

BackgroundQuery* RunAnalyzer::query() const {
    BackgroundQuery* q = queryOf(run_.data.get());
    return q ? q : query_;
}

bool RunAnalyzer::cancel() {
    Product* p = find(run_.data.get(), std::nullopt);
    return p && p->inFlight() && p->query->cancel();
}

}  // namespace tokenscope::ui
