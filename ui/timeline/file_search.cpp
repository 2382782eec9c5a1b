#include "file_search.h"

#include <algorithm>
#include <tuple>

#include "store/lane_stream.h"
#include "store/store_reader.h"

namespace tokenscope::ui {
namespace {

// Thrown by the pass's callback to end it at kMaxMatches.
struct Enough {};

}  // namespace

std::vector<FileSearch::Match> FileSearch::scan(const std::string& path, const trace::RunData& run,
                                                const QString& text, const trace::StopToken& stop) {
    std::vector<Match> out;
    const QString needle = text.trimmed();
    if (needle.isEmpty()) return out;
    std::vector<char> wanted(run.strings.size(), 0);
    bool any = false;
    for (std::uint32_t id = 1; id < run.strings.size(); ++id) {
        const auto s = run.strings.str(id);
        if (QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()))
                .contains(needle, Qt::CaseInsensitive))
            wanted[id] = any = true;
    }
    if (!any) return out;
    const store::StoreReader reader(path, store::ReaderOptions::pass());
    try {
        store::for_each_stored_activity(
            reader, run.info.id, run.lanes.size(),
            [&](const trace::Activity& a) {
                if (a.name >= wanted.size() || !wanted[a.name]) return;
                if (out.size() == kMaxMatches) throw Enough{};
                out.push_back({a.lane, a.start_ns, a.end_ns});
            },
            stop);
    } catch (const Enough&) {
    }
    // Through time across all lanes, as TimelineSearch steps.
    std::stable_sort(out.begin(), out.end(), [](const Match& x, const Match& y) {
        return std::tie(x.start_ns, x.lane) < std::tie(y.start_ns, y.lane);
    });
    return out;
}

void FileSearch::set(const QString& text, std::vector<Match> matches) {
    text_ = text;
    matches_ = std::move(matches);
    current_ = static_cast<std::size_t>(-1);
}

const FileSearch::Match& FileSearch::next() {
    current_ = current_ + 1 >= matches_.size() ? 0 : current_ + 1;
    return matches_[current_];
}

const FileSearch::Match& FileSearch::previous() {
    current_ = (current_ == 0 || current_ >= matches_.size()) ? matches_.size() - 1 : current_ - 1;
    return matches_[current_];
}

const FileSearch::Match& FileSearch::seek(std::int64_t t) {
    const auto it =
        std::lower_bound(matches_.begin(), matches_.end(), t,
                         [](const Match& m, std::int64_t time) { return m.start_ns < time; });
    current_ = it == matches_.end() ? 0 : static_cast<std::size_t>(it - matches_.begin());
    return matches_[current_];
}

}  // namespace tokenscope::ui
