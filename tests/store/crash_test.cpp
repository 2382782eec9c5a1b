#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"

namespace tokenscope::store {
namespace {

using test::TempDir;

// What the child has made durable: after add_activity(i) returns with a new
// committed_batches(), activities 0..i are in the file.
struct Report {
    std::int64_t run_id;
    std::int64_t batches;
    std::int64_t committed;
};

trace::Activity generated(std::int64_t i) {
    return {i * 100,
            i * 100 + 60,
            static_cast<std::uint64_t>(i) * 3,
            0,
            static_cast<std::uint32_t>(i % 5),
            static_cast<std::uint32_t>(i),
            0,
            trace::ActivityKind::Kernel,
            trace::CopyKind::None};
}

[[noreturn]] void child_capture(const std::string& path, int fd) {
    try {
        StoreWriter writer(path);
        trace::RunInfo info;
        info.name = "killed capture";
        auto w = writer.begin_run(info);
        w->add_lane({trace::LaneKind::GpuStream, 0, getpid(), 7, "stream 7"});
        std::int64_t last = 0;
        for (std::int64_t i = 0;; ++i) {
            w->add_activity(generated(i));
            if (w->committed_batches() != last) {
                last = w->committed_batches();
                Report r{w->run_id(), last, i + 1};
                if (write(fd, &r, sizeof r) != sizeof r) _exit(3);
            }
            if (i % 100 == 0) std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
    } catch (...) {
        _exit(2);
    }
}

bool read_report(int fd, Report& r) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 10'000) <= 0) return false;  // a stuck child must not hang the test
    return read(fd, &r, sizeof r) == sizeof r;
}

TEST(StoreCrash, KilledWriterLeavesEveryCommittedBatch) {
    TempDir dir;
    std::string path = dir.file("killed.tokenscope");
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        child_capture(path, fds[1]);
    }
    close(fds[1]);
    constexpr std::int64_t kBatches = 4;
    Report last{0, 0, 0};
    bool ok = true;
    while (ok && last.batches < kBatches) ok = read_report(fds[0], last);
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    close(fds[0]);
    ASSERT_TRUE(ok) << "the child stopped reporting commits";
    ASSERT_TRUE(WIFSIGNALED(status)) << "child exited on its own, status " << status;

    StoreReader reader(path);
    trace::RunData run = reader.load_run(last.run_id);
    EXPECT_EQ(run.info.name, "killed capture");
    EXPECT_FALSE(run.info.complete);
    ASSERT_GE(static_cast<std::int64_t>(run.activities.size()), last.committed);
    for (std::int64_t i = 0; i < last.committed; ++i)
        ASSERT_EQ(run.activities[static_cast<std::size_t>(i)], generated(i)) << "activity " << i;
    ASSERT_EQ(run.diagnostics.size(), 1u);
    EXPECT_EQ(run.diagnostics[0].name, "capture_incomplete");
    EXPECT_EQ(run.diagnostics[0].severity, trace::Severity::DataLoss);
}

}  // namespace
}  // namespace tokenscope::store
