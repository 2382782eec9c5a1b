#include "drop_plan.h"

#include <QMimeData>
#include <QUrl>
#include <algorithm>
#include <regex>
#include <set>
#include <string>

#include "import/file_source.h"
#include "import/importer_registry.h"
#include "import/open_any.h"
#include "run_combiner.h"

namespace tokenscope::ui {
namespace {

std::string head_of(const QString& path) {
    import::FileSource source(path.toStdString());
    return std::string(source.head(import::ImporterRegistry::kHeadBytes));
}

}  // namespace

QStringList DropPlan::paths_of(const QMimeData* mime) {
    QStringList paths;
    if (mime == nullptr || !mime->hasUrls()) return paths;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile()) paths << url.toLocalFile();
    return paths;
}

DropPlan::Role DropPlan::role_of(const QString& path) {
    try {
        const std::string head = head_of(path);
        if (import::is_tokenscope_head(head)) return Role::Store;
        const import::Importer* importer =
            import::default_registry().pick(path.toStdString(), head);
        if (importer == nullptr) return Role::Unknown;
        return importer->format() == "client" ? Role::Client : Role::Trace;
    } catch (const std::exception&) {
        return Role::Unknown;  // opening it says what is wrong
    }
}

std::optional<int> DropPlan::rank_of(const QString& path) {
    std::string head;
    try {
        head = head_of(path);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    // Kineto writes "distributedInfo": {"backend": "nccl", "rank": 0, ...} near the top.
    static const std::regex kRank(R"re("distributedInfo"\s*:\s*\{[^}]*?"rank"\s*:\s*(\d+))re");
    std::smatch m;
    if (!std::regex_search(head, m, kRank)) return std::nullopt;
    return std::stoi(m[1].str());
}

DropPlan DropPlan::decide(const QStringList& paths) {
    DropPlan plan;
    plan.paths_ = paths;
    if (paths.size() < 2) return plan;
    QList<Role> roles;
    for (const QString& p : paths) roles << role_of(p);
    if (paths.size() == 2 && roles.count(Role::Client) == 1) {
        const int client = roles.indexOf(Role::Client);
        const Role other = roles[1 - client];
        if (other == Role::Trace || other == Role::Store) {
            plan.action_ = Action::Join;
            plan.paths_ = {paths[client], paths[1 - client]};
            return plan;
        }
    }
    if (roles.count(Role::Trace) == roles.size()) {
        std::set<int> ranks;
        for (const QString& p : paths)
            if (auto r = rank_of(p)) ranks.insert(*r);
        if (ranks.size() == static_cast<std::size_t>(paths.size())) {
            plan.action_ = Action::Merge;
            return plan;
        }
    }
    plan.action_ = Action::Compare;  // the first two, as before joins and merges
    return plan;
}

LoadJob::Combine DropPlan::combine() const {
    if (action_ == Action::Join)
        return [](std::vector<std::vector<trace::RunData>> files,
                  const std::vector<std::string>& paths, const trace::ProgressFn& progress,
                  const trace::StopToken& stop) {
            return RunCombiner::join(std::move(files), paths, progress, stop);
        };
    if (action_ == Action::Merge)
        return [](std::vector<std::vector<trace::RunData>> files,
                  const std::vector<std::string>& paths, const trace::ProgressFn&,
                  const trace::StopToken& stop) {
            return RunCombiner::merge(std::move(files), paths, stop);
        };
    return {};
}

}  // namespace tokenscope::ui
