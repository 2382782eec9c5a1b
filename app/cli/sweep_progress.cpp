#include "sweep_progress.h"

#include <unistd.h>

#include <cstdio>

namespace tokenscope::cli {

SweepProgress::SweepProgress(TerminalProgress::Mode mode, std::int64_t total_runs)
    : mode_(mode), total_(total_runs), started_(std::chrono::steady_clock::now()) {
    if (mode_ == TerminalProgress::Mode::Auto)
        mode_ = isatty(STDERR_FILENO) ? TerminalProgress::Mode::Bar : TerminalProgress::Mode::None;
}

SweepProgress::~SweepProgress() {
    finish();
}

void SweepProgress::start(std::int64_t point, std::int64_t points, std::int64_t repeat,
                          bool warmup) {
    point_ = point;
    points_ = points;
    repeat_ = repeat;
    warmup_ = warmup;
    if (mode_ == TerminalProgress::Mode::Bar) draw();
}

void SweepProgress::done(std::int64_t run_id) {
    ++done_;
    if (mode_ == TerminalProgress::Mode::Json) {
        std::printf(
            "{\"sweep\":{\"point\":%lld,\"points\":%lld,\"repeat\":%lld,\"warmup\":%s,"
            "\"run_id\":%lld,\"done\":%lld,\"total\":%lld}}\n",
            static_cast<long long>(point_), static_cast<long long>(points_),
            static_cast<long long>(repeat_), warmup_ ? "true" : "false",
            static_cast<long long>(run_id), static_cast<long long>(done_),
            static_cast<long long>(total_));
        std::fflush(stdout);
    } else if (mode_ == TerminalProgress::Mode::Bar) {
        draw();
    }
}

void SweepProgress::draw() {
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    // The mean time per finished run so far, times the runs left.
    const double eta =
        done_ > 0 ? secs / static_cast<double>(done_) * static_cast<double>(total_ - done_) : 0.0;
    std::fprintf(
        stderr, "\r\033[Ksweep point %lld/%lld %s %lld  run %lld/%lld  %.0fs  ETA %s",
        static_cast<long long>(point_ + 1), static_cast<long long>(points_),
        warmup_ ? "warm-up" : "repeat", static_cast<long long>(repeat_ + 1),
        static_cast<long long>(done_ + 1), static_cast<long long>(total_), secs,
        done_ > 0 ? (std::to_string(static_cast<long long>(eta + 0.5)) + "s").c_str() : "?");
    std::fflush(stderr);
    drew_ = true;
}

void SweepProgress::finish() {
    if (drew_) {
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
        drew_ = false;
    }
}

}  // namespace tokenscope::cli
