#pragma once

#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QString>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "analysis/attribution/run_analysis.h"
#include "analysis/heatmap/heatmap.h"
#include "open_run.h"

namespace tokenscope::ui {

class BackgroundQuery;

// The one producer of what the views of a run show, as hotspot's parser feeds all
// its views: each run's analysis (per-step attribution and verdict from one coverage,
// analysis::analyse_run) and its heatmaps (analysis::compute_heatmap, one per spec).
// Every view claims what it shows; each product is computed once however many views
// claim it, kept while one does, and dropped (its work stopped) when none does. The
// work runs on BackgroundQuery objects: it never blocks the GUI thread, and a cancel
// stops it. The Breakdown tab and the Attribution dock read the current run's
// analysis (setRun); the Heatmap tab claims its heatmap; the Compare tab claims the
// analyses and heatmaps of A and B, so a run opened and compared is analysed once.
class RunAnalyzer : public QObject {
    Q_OBJECT
  public:
    explicit RunAnalyzer(QObject* parent = nullptr);
    ~RunAnalyzer() override;

    // What one view shows. A heatmap is one run under one spec.
    struct Claim {
        QList<OpenRun> analyses;
        QList<QPair<OpenRun, analysis::HeatmapSpec>> heatmaps;
    };
    // Replaces what `holder` claims; starts what is neither ready nor being computed,
    // and restarts what of it was cancelled. A product started here runs on `slot`
    // (the holder's own query, so its busy state and stop token are the holder's)
    // unless another product still in use runs there. An empty claim releases all.
    void claim(const QObject* holder, const Claim& claim, BackgroundQuery* slot = nullptr);
    void release(const QObject* holder) { claim(holder, {}); }
    // Stops what `holder` claims that is still being computed (also for the other views
    // that claim it: one Cancel stops the work). Returns true when something was.
    bool cancel(const QObject* holder);

    // A product once computed; null while it is computed, after an error or a cancel,
    // and when nobody claims it.
    std::shared_ptr<const analysis::RunAnalysis> analysis(const trace::RunData* run) const;
    std::shared_ptr<const analysis::Heatmap> heatmap(const trace::RunData* run,
                                                     const analysis::HeatmapSpec& spec) const;
    // Why a product failed (empty unless it did), whether it is being computed, and
    // whether it was cancelled before it finished.
    QString error(const trace::RunData* run,
                  const std::optional<analysis::HeatmapSpec>& spec = std::nullopt) const;
    bool pending(const trace::RunData* run,
                 const std::optional<analysis::HeatmapSpec>& spec = std::nullopt) const;
    bool stopped(const trace::RunData* run,
                 const std::optional<analysis::HeatmapSpec>& spec = std::nullopt) const;
    // The query a product runs on (its stop token); null when nobody claims it.
    BackgroundQuery* queryOf(const trace::RunData* run,
                             const std::optional<analysis::HeatmapSpec>& spec = std::nullopt) const;

    // The current run, whose analysis the Breakdown tab and the Attribution dock show:
    // claims it (no new work when it is analysed or being analysed). An invalid run
    // releases it. The same run set again after a cancel restarts it.
    void setRun(const OpenRun& run);
    const OpenRun& run() const { return run_; }
    // run()'s analysis once ready(); null while it is computed, after an error or a
    // cancel, and when no run is set.
    std::shared_ptr<const analysis::RunAnalysis> result() const;
    // Why the analysis of run() failed; empty unless failed() was emitted for it.
    QString error() const { return error(run_.data.get()); }
    bool busy() const { return pending(run_.data.get()); }
    QString what() const;
    // The query of run()'s analysis (of the last one when none is set).
    BackgroundQuery* query() const;

  public slots:
    // Stops run()'s analysis (emits cancelled()); the same run set again restarts it.
    bool cancel();

  signals:
    // About run() only:
    void started();  // run() changed and its analysis began
    void ready();
    void failed(const QString& message);
    void cancelled();
    void busyChanged(bool busy, const QString& what);
    // Any product finished, failed or was cancelled: the holders look at their claims.
    void updated();

  private:
    struct Product;
    Product* find(const trace::RunData* run,
                  const std::optional<analysis::HeatmapSpec>& spec) const;
    bool claimed(const Product& p) const;
    Product* add(const OpenRun& run, const std::optional<analysis::HeatmapSpec>& spec);
    void start(Product& p, BackgroundQuery* slot);
    void drop(std::size_t index);
    void watch(BackgroundQuery* query);
    void finished(Product& p);
    void onCancelled(BackgroundQuery* query);
    void updateBusy();

    OpenRun run_;
    std::vector<std::unique_ptr<Product>> products_;
    std::map<const QObject*, Claim> claims_;
    std::set<const QObject*> tracked_;  // holders whose destruction releases their claim
    std::vector<BackgroundQuery*> watched_;
    QPair<bool, QString> shown_busy_{false, QString()};
    BackgroundQuery* query_;  // the current run's slot
};

}  // namespace tokenscope::ui
