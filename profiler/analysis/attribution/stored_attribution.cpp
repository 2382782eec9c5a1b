#include "stored_attribution.h"

#include <utility>

#include "attribution_record.h"
#include "store/store_writer.h"

namespace tokenscope::analysis {
namespace {

// The record keeps each step's window: steps framed otherwise than when it was made make
// it another run's.
bool same_steps(const AttributionRecord& record, const trace::RunData& run) {
    if (record.steps.size() != run.steps.size()) return false;
    for (std::size_t i = 0; i < run.steps.size(); ++i)
        if (record.steps[i].start_ns != run.steps[i].start_ns ||
            record.steps[i].end_ns != run.steps[i].end_ns)
            return false;
    return true;
}

}  // namespace

std::optional<RunAnalysis> read_stored_analysis(const store::StoreReader& reader,
                                                const trace::RunData& run,
                                                const StoredAnalysisOptions& options,
                                                const trace::StopToken& stop) {
    const auto chunks =
        reader.step_attribution(run.info.id, attribution_record_key(options.attribution));
    if (chunks.empty()) return std::nullopt;
    AttributionRecord record = decode_attribution_record(chunks, reader.path());
    if (!same_steps(record, run)) return std::nullopt;
    return analysis_from_record(run, std::move(record), options.verdict, stop);
}

std::size_t attribute_stored_runs(const std::string& path, const std::vector<std::int64_t>& runs,
                                  const StoredAnalysisOptions& options,
                                  const trace::ProgressFn& progress, const trace::StopToken& stop) {
    const std::string key = attribution_record_key(options.attribution);
    std::vector<std::pair<std::int64_t, std::vector<std::vector<std::uint8_t>>>> made;
    {
        // Read first and written after, once the reader is closed: the writer switches the
        // file's journal, which wants no other connection open.
        const store::StoreReader reader(path, store::ReaderOptions::pass());
        const auto total = static_cast<std::int64_t>(runs.size()) * 1000;
        for (std::size_t k = 0; k < runs.size(); ++k) {
            if (!reader.activity_totals(runs[k]) || !reader.step_attribution(runs[k], key).empty())
                continue;
            const trace::RunData run =
                reader.load_run(runs[k], {}, store::StoreReader::LoadParts::TotalsForActivities);
            auto part = [&](std::int64_t done, std::int64_t of) {
                const auto base = static_cast<std::int64_t>(k) * 1000;
                return !progress || progress(base + (of > 0 ? done * 1000 / of : 0), total);
            };
            made.emplace_back(runs[k], encode_attribution_record(
                                           attribute_stored_run(reader, run, options, part, stop)));
        }
    }
    stop.throw_if_stopped();
    if (made.empty()) return 0;
    store::StoreWriter writer(path);
    for (const auto& [run, chunks] : made) writer.write_step_attribution(run, key, chunks);
    return made.size();
}

}  // namespace tokenscope::analysis
