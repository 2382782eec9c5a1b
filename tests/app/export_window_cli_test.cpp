// `export --chrome --from --to` through the real tokenscope-cli: a window of a run, read
// from the file when the run's activities stayed there (a summarised .tokenscope run:
// only the window's activities are read, so a memory limit the whole run breaks lets it
// through), cut in memory otherwise. Expected events: the run read whole by the store, the
// activities overlapping the window counted here.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_process.h"
#include "store/store_reader.h"
#include "summarised_files.h"
#include "support/fixtures.h"
#include "support/old_store.h"
#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using tokenscope::test::CliResult;
using tokenscope::test::run_cli;
using tokenscope::test::TempDir;

// What the Chrome trace of a window must hold, counted from the run read whole.
struct Counts {
    std::int64_t activities = 0;
    std::int64_t kernels_with_launch = 0;
    std::int64_t graph_nodes = 0;
    std::int64_t steps = 0;
    bool operator==(const Counts&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Counts& c) {
    return out << c.activities << " activities, " << c.kernels_with_launch << " launches, "
               << c.graph_nodes << " graph nodes, " << c.steps << " steps";
}

struct WholeRun {
    tokenscope::trace::RunData data;
    std::int64_t origin = 0;  // the timeline ruler's zero
    std::int64_t end = 0;     // exclusive
};

WholeRun read_whole(const std::string& path) {
    tokenscope::store::StoreReader reader(path);
    WholeRun r{reader.load_run(reader.run_ids().front())};
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (const auto& a : r.data.activities) {
        lo = std::min(lo, a.start_ns);
        hi = std::max(hi, a.end_ns);
    }
    for (const auto& s : r.data.steps) {
        lo = std::min(lo, s.start_ns);
        hi = std::max(hi, s.end_ns);
    }
    for (const auto& c : r.data.counters) {
        lo = std::min(lo, c.time_ns);
        hi = std::max(hi, c.time_ns);
    }
    r.origin = lo;
    r.end = hi + 1;  // just past the last record, as the export's default window ends
    return r;
}

Counts expected(const WholeRun& run, std::int64_t from_ns, std::int64_t to_ns) {
    const std::int64_t t0 = run.origin + from_ns, t1 = run.origin + to_ns;
    Counts c;
    for (const auto& a : run.data.activities) {
        const bool in = a.start_ns < t1 && (a.end_ns > t0 || a.start_ns >= t0);
        if (!in) continue;
        ++c.activities;
        if (a.kind == tokenscope::trace::ActivityKind::Kernel &&
            run.data.launches.find(a.correlation))
            ++c.kernels_with_launch;
        if (run.data.graphs.find(a)) ++c.graph_nodes;
    }
    for (const auto& s : run.data.steps)
        if (s.start_ns < t1 && (s.end_ns > t0 || s.start_ns >= t0)) ++c.steps;
    return c;
}

Counts exported(const std::string& path) {
    const auto trace = nlohmann::json::parse(std::ifstream(path));
    Counts c;
    for (const auto& e : trace.at("traceEvents")) {
        const std::string ph = e.at("ph");
        if (ph != "X" && ph != "i") continue;
        if (e.at("cat") == "step") {
            ++c.steps;
            continue;
        }
        ++c.activities;
        const auto& args = e.at("args");
        if (args.contains("grid")) ++c.kernels_with_launch;
        if (args.contains("graph id")) ++c.graph_nodes;
    }
    return c;
}

std::string us(std::int64_t ns) {
    return std::to_string(ns / 1000) + "us";
}

class ExportWindow : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new TempDir;
        serving_ = dir_->file("serving.tokenscope");
        tokenscope::test::write_serving_run(serving_, "serving");
    }
    static void TearDownTestSuite() { delete dir_; }

    static TempDir* dir_;
    static std::string serving_;
};

TempDir* ExportWindow::dir_ = nullptr;
std::string ExportWindow::serving_;

// 120,000 activities need about 4.6 MiB whole; a tenth of the run fits 2 MiB.
TEST_F(ExportWindow, AWindowOfASummarisedRunReadsOnlyTheWindow) {
    const WholeRun run = read_whole(serving_);
    const std::int64_t span = run.end - run.origin;
    const std::int64_t from = span / 3 / 1000 * 1000, to = from + span / 10 / 1000 * 1000;
    const Counts want = expected(run, from, to);
    ASSERT_GT(want.activities, 1000);
    ASSERT_GT(want.kernels_with_launch, 100);
    ASSERT_GT(want.steps, 0);
    const std::string limit = "TOKENSCOPE_MEMORY_LIMIT=2M";
    const std::string out = dir_->file("window.json");
    const CliResult r = run_cli("export --progress none " + serving_ + " --chrome " + out +
                                    " --from " + us(from) + " --to " + us(to),
                                limit);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(exported(out), want);
    EXPECT_NE(r.out.find("(" + std::to_string(want.activities) + " activities, "),
              std::string::npos)
        << r.out;
    // The whole run does not fit that limit, and says so before reading an activity.
    const CliResult whole = run_cli(
        "export --progress none " + serving_ + " --chrome " + dir_->file("all.json"), limit);
    EXPECT_EQ(whole.status, 1) << whole.out;
    EXPECT_TRUE(tokenscope::test::one_line(whole.err)) << whole.err;
    EXPECT_NE(whole.err.find(serving_), std::string::npos) << whole.err;
    EXPECT_NE(whole.err.find("needs about"), std::string::npos) << whole.err;
}

// The same window of a run read whole (its summaries marked missing) is cut in memory and
// writes the same file; without a window, every activity is written.
TEST_F(ExportWindow, AWholeReadCutsTheSameWindow) {
    const std::string copy = tokenscope::test::whole_copy(serving_);
    const WholeRun run = read_whole(serving_);
    const std::string window = " --from " + us((run.end - run.origin) / 2) + " --to " +
                               us((run.end - run.origin) / 2 + 2'000'000);
    const std::string a = dir_->file("a.json"), b = dir_->file("b.json");
    ASSERT_EQ(run_cli("export --progress none " + serving_ + " --chrome " + a + window).status, 0);
    ASSERT_EQ(run_cli("export --progress none " + copy + " --chrome " + b + window).status, 0);
    std::ifstream fa(a), fb(b);
    const std::string ta((std::istreambuf_iterator<char>(fa)), {});
    const std::string tb((std::istreambuf_iterator<char>(fb)), {});
    EXPECT_FALSE(ta.empty());
    EXPECT_EQ(ta, tb);
    const std::string all = dir_->file("all.json");
    ASSERT_EQ(run_cli("export --progress none " + serving_ + " --chrome " + all).status, 0);
    EXPECT_EQ(exported(all), expected(run, 0, run.end - run.origin));
}

// A real trace (HTA's V100 rank, 4,350 kernels with launch facts), imported, then a window
// from the middle: its kernels keep their grid and block.
TEST_F(ExportWindow, ARealTracesWindowKeepsItsLaunchFacts) {
    const std::string fixture =
        tokenscope::test::fixture_path("kineto/hta_v100_ns_resolution_rank0.json.gz");
    TOKENSCOPE_NEED_FIXTURE_FILE(fixture);
    const std::string stored = dir_->file("hta.tokenscope");
    const CliResult imported = run_cli("import --progress none " + fixture + " --out " + stored);
    ASSERT_EQ(imported.status, 0) << imported.err;
    const WholeRun run = read_whole(stored);
    const std::int64_t span = run.end - run.origin;
    const std::int64_t from = span * 2 / 5 / 1000 * 1000, to = span * 3 / 5 / 1000 * 1000;
    const Counts want = expected(run, from, to);
    ASSERT_GT(want.kernels_with_launch, 0);
    const std::string out = dir_->file("hta.json");
    const CliResult r = run_cli("export --progress none " + stored + " --chrome " + out +
                                " --from " + us(from) + " --to " + us(to));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(exported(out), want);
}

// The window is read without walking every activity chunk first (minutes for a file of a
// billion that is not cached): a damaged page fails the read that meets it, naming the file,
// and no trace is left half written.
TEST_F(ExportWindow, ADamagedActivityPageFailsTheWindowNamingTheFile) {
    const std::string damaged = dir_->file("damaged.tokenscope");
    fs::copy_file(serving_, damaged, fs::copy_options::overwrite_existing);
    tokenscope::test::corrupt_root_page(damaged, "activity_chunk");
    const std::string out = dir_->file("damaged.json");
    const CliResult r =
        run_cli("export --progress none " + damaged + " --chrome " + out + " --from 1ms --to 2ms");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_TRUE(tokenscope::test::one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(damaged), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("corrupt"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
}

TEST_F(ExportWindow, ABadWindowIsAUsageError) {
    const std::string out = dir_->file("bad.json");
    for (const char* window : {"--from 2ms --to 1ms", "--from 12", "--to -3ms", "--from 1 ms"}) {
        const CliResult r =
            run_cli("export --progress none " + serving_ + " --chrome " + out + " " + window);
        EXPECT_EQ(r.status, 1) << window << ": " << r.err;
        EXPECT_TRUE(tokenscope::test::one_line(r.err)) << r.err;
    }
    EXPECT_FALSE(fs::exists(out));
}

}  // namespace
