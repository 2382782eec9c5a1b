#pragma once

#include <string>
#include <vector>

namespace tokenscope::cli {

// Each subcommand parses its own arguments and returns the process exit status
// (docs/cli.md, Exit status: 0 ok, 1 bad input or usage, 2 internal error, 3 no GPU).
int cmd_run(const std::vector<std::string>& args);
int cmd_info(const std::vector<std::string>& args);
int cmd_stats(const std::vector<std::string>& args);
int cmd_breakdown(const std::vector<std::string>& args);
int cmd_heatmap(const std::vector<std::string>& args);
int cmd_diff(const std::vector<std::string>& args);
int cmd_import(const std::vector<std::string>& args);
int cmd_export(const std::vector<std::string>& args);
int cmd_capture(const std::vector<std::string>& args);
int cmd_sweep(const std::vector<std::string>& args);
int cmd_sweep_report(const std::vector<std::string>& args);
int cmd_fleet(const std::vector<std::string>& args);

inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 1;
inline constexpr int kExitInternal = 2;
inline constexpr int kExitNoGpu = 3;
inline constexpr int kExitCancelled = 130;

}  // namespace tokenscope::cli
