#include "terminal_progress.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>

namespace tokenscope::cli {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_sigint(int) {
    g_interrupted.store(true);
}

}  // namespace

TerminalProgress::Mode TerminalProgress::parse_mode(const std::string& text) {
    if (text == "bar") return Mode::Bar;
    if (text == "json") return Mode::Json;
    if (text == "none") return Mode::None;
    return Mode::Auto;
}

TerminalProgress::TerminalProgress(std::string label, Mode mode)
    : label_(std::move(label)), mode_(mode), started_(std::chrono::steady_clock::now()) {
    if (mode_ == Mode::Auto) mode_ = isatty(STDERR_FILENO) ? Mode::Bar : Mode::None;
    // Ctrl-C and the GUI launcher's terminate() both cancel the work cleanly.
    std::signal(SIGINT, on_sigint);
    std::signal(SIGTERM, on_sigint);
}

TerminalProgress::~TerminalProgress() {
    finish();
}

bool TerminalProgress::interrupted() {
    return g_interrupted.load();
}

trace::ProgressFn TerminalProgress::callback() {
    return [this](std::int64_t done, std::int64_t total) { return report(done, total); };
}

bool TerminalProgress::report(std::int64_t done, std::int64_t total) {
    if (g_interrupted.load()) return false;
    auto now = std::chrono::steady_clock::now();
    // Redrawing more than ~10 times a second only costs time.
    if (done < total && now - last_ < std::chrono::milliseconds(100)) return true;
    last_ = now;
    double fraction = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
    if (mode_ == Mode::Json) {
        std::printf("{\"progress\":{\"task\":\"%s\",\"done\":%lld,\"total\":%lld}}\n",
                    label_.c_str(), static_cast<long long>(done), static_cast<long long>(total));
        std::fflush(stdout);
    } else if (mode_ == Mode::Bar) {
        constexpr int kWidth = 30;
        int filled = static_cast<int>(fraction * kWidth);
        std::string bar(static_cast<std::size_t>(filled), '#');
        bar.resize(kWidth, '.');
        double secs = std::chrono::duration<double>(now - started_).count();
        std::fprintf(stderr, "\r%s [%s] %5.1f%% %.1fs", label_.c_str(), bar.c_str(),
                     fraction * 100.0, secs);
        std::fflush(stderr);
        drew_ = true;
    }
    return true;
}

void TerminalProgress::finish() {
    if (drew_) {
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
        drew_ = false;
    }
}

}  // namespace tokenscope::cli
