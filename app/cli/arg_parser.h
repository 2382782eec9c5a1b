#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tokenscope::cli {

// Thrown for bad usage; the CLI prints it on one line and exits with status 1.
struct UsageError {
    std::string message;
};

// What help_text() writes: the text of --help, or the same options as a
// section of the man page (tokenscope-cli --help-man asks every command).
enum class HelpFormat { kText, kMan };

struct OptionSpec {
    std::string name;        // without the leading "--"
    std::string value_name;  // empty for a flag
    std::string help;
    std::string default_value;
};

// Just enough of getopt_long for subcommands: --name value, --name=value,
// flags, positionals, and everything after "--" kept verbatim.
class ArgParser {
  public:
    ArgParser(std::string command, std::string synopsis, std::string description);
    ArgParser& option(std::string name, std::string value_name, std::string help,
                      std::string default_value = {});
    ArgParser& flag(std::string name, std::string help);

    // Throws UsageError on unknown options or missing values.
    void parse(const std::vector<std::string>& args);

    bool help_requested() const { return has("help"); }
    std::string help_text() const;
    // Process-wide, set once by main before any command runs.
    static void set_help_format(HelpFormat format);

    bool has(const std::string& name) const;
    std::string get(const std::string& name) const;  // value or default
    long long get_int(const std::string& name) const;
    double get_double(const std::string& name) const;
    // A non-negative time with its unit ("12.5ms", "250us", "2s", "900ns") in nanoseconds.
    std::int64_t get_duration_ns(const std::string& name) const;
    const std::vector<std::string>& positionals() const { return positionals_; }
    const std::vector<std::string>& rest() const { return rest_; }

  private:
    std::string man_section() const;
    const OptionSpec* find(const std::string& name) const;

    std::string command_, synopsis_, description_;
    std::vector<OptionSpec> specs_;
    std::map<std::string, std::string> values_;
    std::vector<std::string> positionals_;
    std::vector<std::string> rest_;
};

// Nanoseconds in a time unit: ns, us, ms or s; nullopt for anything else.
std::optional<long long> time_unit_ns(std::string_view unit);

}  // namespace tokenscope::cli
