// A capture that fills the disk, through the real binary: it stops with a
// clear message naming the file, and the file keeps every batch committed
// before the disk filled (it opens as an incomplete run, not an empty file).
// The full disk is a 64 MiB tmpfs the test mounts (root only, as in CI): big enough to
// hold the first timed commit (100 ms of a fast model run is 15-20 MB of WAL here; with
// 16 MiB the disk filled before any step was committed once the step rows grew by three
// columns, so the test passed or failed with the machine's speed).
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_process.h"

namespace {

namespace fs = std::filesystem;

using tokenscope::test::run_cli;

TEST(DiskFull, CaptureStopsWithAClearMessageAndKeepsWhatWasCommitted) {
    if (geteuid() != 0) GTEST_SKIP() << "mounting a small tmpfs needs root (CI runs as root)";
    const fs::path base =
        fs::temp_directory_path() / ("tokenscope_full_" + std::to_string(getpid()));
    const fs::path mnt = base / "disk";
    fs::create_directories(mnt);
    ASSERT_EQ(mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64m"), 0)
        << "cannot mount a tmpfs: " << std::strerror(errno);
    const fs::path file = mnt / "full.tokenscope";
    auto r = run_cli(
        "run --backend model --preset llama-70b --batch 64 --tokens 8000 --quiet "
        "--progress none --out " +
        file.string());
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("disk full"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
    auto info = run_cli("info " + file.string() + " --json");
    EXPECT_EQ(info.status, 0) << info.err;
    if (info.status == 0) {
        auto j = nlohmann::json::parse(info.out);
        ASSERT_EQ(j["runs"].size(), 1u);
        const auto& run = j["runs"][0];
        EXPECT_EQ(run["source"], "model");
        EXPECT_FALSE(run["complete"]);
        EXPECT_GT(run["steps"].get<long long>(), 0);
        bool data_loss = false;
        for (const auto& d : run["diagnostics"]) data_loss |= d["severity"] == "data_loss";
        EXPECT_TRUE(data_loss);
    }
    EXPECT_EQ(umount(mnt.c_str()), 0);
    fs::remove_all(base);
}

}  // namespace
