// info, stats and step heatmaps on a summarised .tokenscope file (DESIGN.md section 17),
// through the real tokenscope-cli: they read the stored activity totals, never the
// activities, so a memory limit the activities would break lets them through; and they
// print what a whole read prints (the same file with its summaries marked missing).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "../store/store_test_util.h"
#include "cli_process.h"
#include "store/store_writer.h"
#include "summarised_files.h"
#include "support/old_store.h"

namespace {

namespace fs = std::filesystem;
using tokenscope::test::CliResult;
using tokenscope::test::run_cli;
using tokenscope::test::TempDir;
using tokenscope::test::whole_copy;

class SummarisedCli : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new TempDir;
        // A serving run of 8 GPUs (iteration steps, all-reduces, copies, launches) ...
        serving_ = dir_->file("serving.tokenscope");
        tokenscope::test::write_serving_run(serving_, "serving");
        // ... and a decode with its requests and tokens, from the store tests.
        decode_ = dir_->file("decode.tokenscope");
        decode_run_ = tokenscope::store::test::sample_run("decode", 3);
        // A warm-up kernel before the first step: time windows start at it.
        decode_run_.activities.push_back({10, 700, 0, 0, 1, 0, 1,
                                          tokenscope::trace::ActivityKind::Kernel,
                                          tokenscope::trace::CopyKind::None});
        tokenscope::store::StoreWriter(decode_).write_run(decode_run_);
        // The serving run as `import` writes it: attributed once, the record kept in the file.
        kept_ = dir_->file("kept.tokenscope");
        const CliResult imported =
            run_cli("import --progress none " + serving_ + " --out " + kept_);
        ASSERT_EQ(imported.status, 0) << imported.err;
    }
    static void TearDownTestSuite() { delete dir_; }

    // A second serving run (seed 2), written once.
    static std::string second_serving_run() {
        const std::string path = dir_->file("serving_seed2.tokenscope");
        if (fs::exists(path)) return path;
        tokenscope::test::write_serving_run(path, "serving 2", 2);
        return path;
    }

    static TempDir* dir_;
    static std::string serving_, decode_, kept_;
    static tokenscope::trace::RunData decode_run_;
};

TempDir* SummarisedCli::dir_ = nullptr;
std::string SummarisedCli::serving_, SummarisedCli::decode_, SummarisedCli::kept_;
tokenscope::trace::RunData SummarisedCli::decode_run_;

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// The decode's counts as `info --json` must give them, counted here from what was written.
TEST_F(SummarisedCli, InfoCountsWhatWasWrittenWithoutReadingIt) {
    std::map<std::string, std::int64_t> kinds;
    std::map<std::string, std::uint64_t> copy_bytes;
    for (const auto& a : decode_run_.activities) {
        ++kinds[std::string(to_string(a.kind))];
        if (a.kind == tokenscope::trace::ActivityKind::Memcpy)
            copy_bytes[std::string(to_string(a.copy))] += a.bytes;
    }
    // 20,201 activities of 40 bytes do not fit in 256 KiB; the steps and requests do.
    const std::string limit = "TOKENSCOPE_MEMORY_LIMIT=256K";
    const CliResult r = run_cli("info --json --progress none " + decode_, limit);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto run = nlohmann::json::parse(r.out)["runs"][0];
    for (const auto& [kind, n] : kinds) EXPECT_EQ(run["activities"][kind], n) << kind;
    EXPECT_EQ(run["activities"]["memset"], 0);
    EXPECT_EQ(run["copy_bytes"]["h2d"], copy_bytes["h2d"]);
    EXPECT_EQ(run["copies"]["d2h"], 0);
    EXPECT_EQ(run["steps"], decode_run_.steps.size());
    EXPECT_EQ(run["requests"], decode_run_.requests.size());
    EXPECT_EQ(run["counter_samples"], decode_run_.counters.size());
    // The limit bites on a command that reads the activities into memory.
    const CliResult whole = run_cli("breakdown --by-token --progress none " + decode_, limit);
    EXPECT_EQ(whole.status, 1) << whole.out;
    EXPECT_NE(whole.err.find("needs about"), std::string::npos) << whole.err;
    // breakdown reads them slice by slice (stored_analysis_test checks its figures).
    for (const char* cmd : {"stats --json", "heatmap --json", "breakdown --json"}) {
        const CliResult light = run_cli(std::string(cmd) + " --progress none " + decode_, limit);
        EXPECT_EQ(light.status, 0) << cmd << ": " << light.err;
    }
}

// A damaged activity page fails what reads the activities, naming the file, and nothing
// else: a summarised run opened for its totals walks only the tables it reads, so it opens
// in the same time at any size (docs/hostile-input.md). Read whole, it fails before a row.
TEST_F(SummarisedCli, ADamagedActivityPageFailsWhatReadsActivities) {
    const std::string damaged = dir_->file("damaged.tokenscope");
    fs::copy_file(decode_, damaged, fs::copy_options::overwrite_existing);
    tokenscope::test::corrupt_root_page(damaged, "activity_chunk");
    auto fails = [&](const std::string& cmd, const std::string& path) {
        const CliResult r = run_cli(cmd + " --progress none " + path);
        EXPECT_EQ(r.status, 1) << cmd << ": " << r.out;
        EXPECT_TRUE(tokenscope::test::one_line(r.err)) << r.err;
        EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("corrupt file"), std::string::npos) << r.err;
    };
    EXPECT_EQ(run_cli("info --json --progress none " + damaged).status, 0);
    EXPECT_EQ(run_cli("stats --json --progress none " + damaged).status, 0);
    fails("breakdown", damaged);
    fails("heatmap --rows kernel", damaged);
    const std::string whole = whole_copy(damaged);
    fails("info", whole);
    // A damaged table the totals' read needs fails it too.
    const std::string steps = dir_->file("steps.tokenscope");
    fs::copy_file(decode_, steps, fs::copy_options::overwrite_existing);
    tokenscope::test::corrupt_root_page(steps, "step");
    fails("info", steps);
}

// `import` copies a .tokenscope run as it streams out of the file (StoreWriter::copy_run):
// a memory limit its activities would break lets it through. The copy holds what was
// written (counted here from the run in memory) and reads as the source reads.
TEST_F(SummarisedCli, ImportCopiesARunWithoutReadingItWhole) {
    const std::string copy = dir_->file("copied.tokenscope");
    const std::string limit = "TOKENSCOPE_MEMORY_LIMIT=256K";
    const CliResult r = run_cli("import --progress none " + decode_ + " --out " + copy, limit);
    ASSERT_EQ(r.status, 0) << r.err;
    std::map<std::string, std::int64_t> kinds;
    for (const auto& a : decode_run_.activities) ++kinds[std::string(to_string(a.kind))];
    const CliResult info = run_cli("info --json --progress none " + copy);
    ASSERT_EQ(info.status, 0) << info.err;
    const auto run = nlohmann::json::parse(info.out)["runs"][0];
    for (const auto& [kind, n] : kinds) EXPECT_EQ(run["activities"][kind], n) << kind;
    EXPECT_EQ(run["steps"], decode_run_.steps.size());
    EXPECT_EQ(run["requests"], decode_run_.requests.size());
    EXPECT_GT(tokenscope::test::query_int(copy, "SELECT count(*) FROM step_attribution"), 0);
    for (const char* cmd : {"breakdown --json --steps", "heatmap --json --rows kernel"}) {
        const CliResult want = run_cli(std::string(cmd) + " --progress none " + decode_);
        const CliResult got = run_cli(std::string(cmd) + " --progress none " + copy);
        ASSERT_EQ(got.status, 0) << cmd << ": " << got.err;
        EXPECT_EQ(got.out, replace_all(want.out, decode_, copy)) << cmd;
    }
}

// `import` kept the serving run's attribution: breakdown reads the record, not one
// activity, so a damaged activity page fails only what reads activities. Read whole (its
// summaries marked missing), the file still fails.
TEST_F(SummarisedCli, AKeptAttributionIsReadInsteadOfTheActivities) {
    const std::string damaged = dir_->file("kept_damaged.tokenscope");
    fs::copy_file(kept_, damaged, fs::copy_options::overwrite_existing);
    EXPECT_GT(tokenscope::test::query_int(damaged, "SELECT count(*) FROM step_attribution"), 0);
    tokenscope::test::corrupt_root_page(damaged, "activity_chunk");
    const std::string limit = "TOKENSCOPE_MEMORY_LIMIT=256K";
    const CliResult kept = run_cli("breakdown --json --steps --progress none " + kept_);
    const CliResult read = run_cli("breakdown --json --steps --progress none " + damaged, limit);
    ASSERT_EQ(read.status, 0) << read.err;
    EXPECT_EQ(read.out, replace_all(kept.out, kept_, damaged));
    EXPECT_EQ(run_cli("breakdown --by-token --progress none " + damaged).status, 1);
    EXPECT_EQ(run_cli("breakdown --progress none " + whole_copy(damaged)).status, 1);
}

// `run` attributes the run it wrote, as `import` does: the record is in the file, and
// breakdown prints from it what a whole read prints.
TEST_F(SummarisedCli, ARunIsAttributedAsItIsWritten) {
    const std::string path = dir_->file("model.tokenscope");
    const CliResult r = run_cli(
        "run --backend model --preset tiny --gpu H100-SXM5 --batch 2 --prompt 16 --tokens 8 "
        "--seed 3 --quiet --progress none --out " +
        path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_GT(tokenscope::test::query_int(path, "SELECT count(*) FROM step_attribution"), 0);
    const std::string copy = whole_copy(path);
    const CliResult kept = run_cli("breakdown --json --steps --progress none " + path);
    const CliResult whole = run_cli("breakdown --json --steps --progress none " + copy);
    ASSERT_EQ(kept.status, 0) << kept.err;
    EXPECT_EQ(kept.out, replace_all(whole.out, copy, path));
}

// stats --slowest reads the activities of the slowest tokens' windows alone: what it prints
// is what a whole read prints (their kernels and attribution included), and a damaged
// activity page fails it, naming the file. A model decode: each token's step is its window.
TEST_F(SummarisedCli, TheSlowestTokensReadTheirWindows) {
    const std::string path = dir_->file("tokens.tokenscope");
    const CliResult r = run_cli(
        "run --backend model --preset tiny --gpu H100-SXM5 --batch 2 --prompt 16 --tokens 8 "
        "--seed 5 --quiet --progress none --out " +
        path);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string copy = whole_copy(path);
    for (const char* cmd : {"stats --json --slowest 3", "stats --slowest 4"}) {
        const CliResult light = run_cli(std::string(cmd) + " --progress none " + path);
        const CliResult whole = run_cli(std::string(cmd) + " --progress none " + copy);
        ASSERT_EQ(light.status, 0) << light.err;
        EXPECT_EQ(light.out, replace_all(whole.out, copy, path)) << cmd;
    }
    const CliResult json = run_cli("stats --json --slowest 3 --progress none " + path);
    const auto slow = nlohmann::json::parse(json.out).at("runs").at(0).at("slowest_tokens");
    ASSERT_EQ(slow.size(), 3u);
    EXPECT_FALSE(slow[0].at("top_kernels").empty()) << slow[0];
    const std::string damaged = dir_->file("tokens_damaged.tokenscope");
    fs::copy_file(path, damaged, fs::copy_options::overwrite_existing);
    tokenscope::test::corrupt_root_page(damaged, "activity_chunk");
    const CliResult bad = run_cli("stats --slowest 2 --progress none " + damaged);
    EXPECT_EQ(bad.status, 1) << bad.out;
    EXPECT_NE(bad.err.find(damaged), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("corrupt file"), std::string::npos) << bad.err;
    EXPECT_EQ(run_cli("stats --progress none " + damaged).status, 0);
}

// diff reads what it needs of two summarised runs' activities from their files, a stretch
// at a time: it prints what it prints on the runs read whole, but for each kernel's P95,
// which comes from a duration histogram within the bound the JSON states (and the text
// says so).
TEST_F(SummarisedCli, DiffReadsTheKernelsFromTheFiles) {
    const std::string other = second_serving_run();
    const std::string whole_a = whole_copy(serving_), whole_b = whole_copy(other);
    const CliResult light = run_cli("diff --json --progress none " + serving_ + " " + other);
    const CliResult whole = run_cli("diff --json --progress none " + whole_a + " " + whole_b);
    ASSERT_EQ(light.status, 0) << light.err;
    ASSERT_EQ(whole.status, 0) << whole.err;
    auto got = nlohmann::json::parse(light.out);
    auto want = nlohmann::json::parse(
        replace_all(replace_all(whole.out, whole_a, serving_), whole_b, other));
    ASSERT_EQ(got["kernels"].size(), want["kernels"].size());
    ASSERT_GT(want["kernels"].size(), 5u);
    for (std::size_t i = 0; i < want["kernels"].size(); ++i) {
        auto& g = got["kernels"][i];
        auto& w = want["kernels"][i];
        ASSERT_EQ(g["name"], w["name"]);
        for (const char* side : {"a", "b"}) {
            const double exact = w[side]["p95_ns"].get<double>();
            const double bound = g[side]["p95_error"].get<double>();
            EXPECT_EQ(w[side]["p95_error"].get<double>(), 0.0);
            if (g[side]["count"].get<std::int64_t>() > 0) {
                EXPECT_NEAR(bound, 1.0 / 128, 1e-12);  // half of one of 64 sub-buckets
            }
            EXPECT_LE(std::abs(g[side]["p95_ns"].get<double>() - exact), bound * exact + 1e-9)
                << w["name"] << " " << side;
            g[side].erase("p95_ns"), w[side].erase("p95_ns");
            g[side].erase("p95_error"), w[side].erase("p95_error");
        }
        g.erase("p95_delta_ns"), w.erase("p95_delta_ns");
    }
    EXPECT_EQ(got, want);
    const CliResult text = run_cli("diff --progress none " + serving_ + " " + other);
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("from duration histograms, each within ±0.8%"), std::string::npos);
}

// A kernel delta heatmap of two summarised runs reads the kernels from the files too, so a
// memory limit the runs read whole break lets it through: the rows and empty cells of a
// whole read, each delta within the bound of its two P95s (from whole-read heatmaps of the
// same rows and window).
TEST_F(SummarisedCli, DiffKernelHeatmapReadsTheKernelsFromTheFiles) {
    const std::string other = second_serving_run();
    const std::string whole_a = whole_copy(serving_), whole_b = whole_copy(other);
    const std::string args =
        "diff --json --progress none --heatmap-rows kernel --heatmap-window 5ms ";
    const std::string limit = "TOKENSCOPE_MEMORY_LIMIT=4M";
    const CliResult light = run_cli(args + serving_ + " " + other, limit);
    ASSERT_EQ(light.status, 0) << light.err;
    const CliResult refused = run_cli(args + whole_a + " " + whole_b, limit);
    EXPECT_EQ(refused.status, 1) << refused.out;
    EXPECT_NE(refused.err.find("needs about"), std::string::npos) << refused.err;
    const CliResult whole = run_cli(args + whole_a + " " + whole_b);
    ASSERT_EQ(whole.status, 0) << whole.err;
    const auto got = nlohmann::json::parse(light.out).at("delta_heatmap");
    const auto want = nlohmann::json::parse(whole.out).at("delta_heatmap");
    EXPECT_NEAR(got.at("p95_error").get<double>(), 1.0 / 128, 1e-12);
    EXPECT_EQ(want.at("p95_error").get<double>(), 0.0);
    auto cells_of = [&](const std::string& path) {
        const CliResult r = run_cli(
            "heatmap --json --progress none --rows kernel --metric kernel --window 5ms " + path);
        EXPECT_EQ(r.status, 0) << r.err;
        std::map<std::string, nlohmann::json> rows;
        const auto heatmap = nlohmann::json::parse(r.out);  // outlives the loop
        for (const auto& row : heatmap.at("runs").at(0).at("rows"))
            rows[row.at("label").get<std::string>()] = row.at("cells");
        return rows;
    };
    auto a = cells_of(whole_a), b = cells_of(whole_b);
    ASSERT_EQ(got.at("rows").size(), want.at("rows").size());
    std::int64_t checked = 0;
    for (std::size_t r = 0; r < want.at("rows").size(); ++r) {
        const auto& gr = got["rows"][r];
        const auto& wr = want["rows"][r];
        const std::string label = wr.at("label");
        ASSERT_EQ(gr.at("label"), label);
        ASSERT_EQ(gr.at("delta_ns").size(), wr.at("delta_ns").size());
        for (std::size_t c = 0; c < wr["delta_ns"].size(); ++c) {
            ASSERT_EQ(gr["delta_ns"][c].is_null(), wr["delta_ns"][c].is_null()) << label << c;
            // A delta needs both sides: a kernel in one run only has none.
            if (wr["delta_ns"][c].is_null()) continue;
            ASSERT_TRUE(a.count(label) && b.count(label)) << label;
            const double pa = a.at(label).at(c).at("p95_ns"), pb = b.at(label).at(c).at("p95_ns");
            EXPECT_NEAR(wr["delta_ns"][c].get<double>(), pb - pa, 1e-6) << label << c;
            EXPECT_LE(std::abs(gr["delta_ns"][c].get<double>() - (pb - pa)),
                      (std::abs(pa) + std::abs(pb)) / 128 + 1e-6)
                << label << c;
            ++checked;
        }
    }
    EXPECT_GT(checked, 100);
}

// Kernel and role rows read the kernels from the file, a lane at a time, into a histogram
// per cell: the same rows, columns and counts as a whole read, each P95 within the bound
// the JSON states (0 for the whole read) and the text names.
TEST_F(SummarisedCli, KernelHeatmapsReadTheKernelsFromTheFile) {
    const std::string copy = whole_copy(serving_);
    for (const char* rows : {"kernel", "role", "lane"}) {
        const std::string cmd = std::string("heatmap --json --progress none --rows ") + rows + " ";
        const CliResult light = run_cli(cmd + serving_);
        const CliResult whole = run_cli(cmd + copy);
        ASSERT_EQ(light.status, 0) << light.err;
        ASSERT_EQ(whole.status, 0) << whole.err;
        auto got = nlohmann::json::parse(light.out)["runs"][0];
        auto want = nlohmann::json::parse(whole.out)["runs"][0];
        EXPECT_EQ(want["p95_error"].get<double>(), 0.0);
        const double bound = got["p95_error"].get<double>();
        EXPECT_NEAR(bound, 1.0 / 128, 1e-12);
        ASSERT_EQ(got["rows"].size(), want["rows"].size()) << rows;
        ASSERT_GT(want["rows"].size(), 1u);
        std::int64_t cells = 0;
        for (std::size_t r = 0; r < want["rows"].size(); ++r) {
            auto& gr = got["rows"][r];
            auto& wr = want["rows"][r];
            ASSERT_EQ(gr["label"], wr["label"]);
            ASSERT_EQ(gr["cells"].size(), wr["cells"].size());
            for (std::size_t c = 0; c < wr["cells"].size(); ++c) {
                EXPECT_EQ(gr["cells"][c]["count"], wr["cells"][c]["count"]);
                if (wr["cells"][c]["p95_ns"].is_null()) continue;
                const double exact = wr["cells"][c]["p95_ns"].get<double>();
                EXPECT_LE(std::abs(gr["cells"][c]["p95_ns"].get<double>() - exact),
                          bound * exact + 1e-9);
                ++cells;
            }
        }
        EXPECT_GT(cells, 8) << rows;
        EXPECT_EQ(got["columns"], want["columns"]);
    }
    const CliResult text = run_cli("heatmap --rows kernel --progress none " + serving_);
    EXPECT_NE(text.out.find("each P95 from a duration histogram, within ±0.8%"), std::string::npos)
        << text.out;
}

enum class File { Serving, Decode, Kept };

struct Case {
    const char* command;
    File file;
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.command
        << (c.file == File::Serving  ? " on the serving run"
            : c.file == File::Decode ? " on the decode"
                                     : " on the imported serving run");
}

class SameAsWhole : public SummarisedCli, public ::testing::WithParamInterface<Case> {
  protected:
    std::string path() const {
        switch (GetParam().file) {
            case File::Serving:
                return serving_;
            case File::Decode:
                return decode_;
            case File::Kept:
                return kept_;
        }
        return {};
    }
};

// Read from the totals (and the kept attribution) or whole, every command prints the same
// (but for the file's name).
TEST_P(SameAsWhole, PrintsWhatAWholeReadPrints) {
    const std::string path = this->path();
    const std::string copy = whole_copy(path);
    const std::string cmd = std::string(GetParam().command) + " --progress none ";
    const CliResult light = run_cli(cmd + path);
    const CliResult whole = run_cli(cmd + copy);
    ASSERT_EQ(light.status, 0) << light.err;
    ASSERT_EQ(whole.status, 0) << whole.err;
    EXPECT_FALSE(light.out.empty());
    EXPECT_EQ(light.out, replace_all(whole.out, copy, path));
}

INSTANTIATE_TEST_SUITE_P(
    Commands, SameAsWhole,
    ::testing::Values(
        Case{"info --json", File::Serving}, Case{"info", File::Serving},
        Case{"info --csv", File::Decode}, Case{"info --json", File::Decode},
        Case{"stats --json", File::Serving}, Case{"stats --json", File::Decode},
        Case{"stats --csv", File::Decode}, Case{"heatmap --json", File::Serving},
        Case{"heatmap --json", File::Decode},
        Case{"heatmap --json --metric itl --window 500us", File::Decode},
        Case{"heatmap --json --rows phase --metric step --window 20ms", File::Serving},
        Case{"stats --json --slowest 3", File::Decode},
        Case{"breakdown --json --steps", File::Serving},
        Case{"breakdown --json --steps", File::Decode}, Case{"breakdown", File::Serving},
        Case{"breakdown --csv --steps", File::Decode},
        Case{"breakdown --json --by-token", File::Serving},
        Case{"breakdown --json --steps", File::Kept}, Case{"breakdown", File::Kept},
        Case{"breakdown --csv --steps", File::Kept}, Case{"info --json", File::Kept}));

}  // namespace
