#include "inject_config.h"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <regex>

namespace tokenscope::capture::inject {
namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

}  // namespace

InjectConfig InjectConfig::from_environment(std::string* problem) {
    InjectConfig c;
    c.out = env("TOKENSCOPE_CAPTURE_OUT");
    c.steps_regex = env("TOKENSCOPE_STEPS_REGEX");
    c.command_json = env("TOKENSCOPE_COMMAND_JSON");
    c.pm_sampling = env("TOKENSCOPE_PM_SAMPLING") == "1";
    if (c.out.empty()) {
        if (problem)
            *problem = "TOKENSCOPE_CAPTURE_OUT is not set (run through tokenscope-cli capture)";
        return c;
    }
    try {
        std::regex check(c.steps_regex);
    } catch (const std::regex_error& e) {
        // Tracing without steps beats not tracing: the pattern is dropped, not the run.
        c.warning = "TOKENSCOPE_STEPS_REGEX '" + c.steps_regex + "' is not a regex (" + e.what() +
                    "); tracing without steps";
        c.steps_regex.clear();
    }
    if (!c.command_json.empty() && !nlohmann::json::accept(c.command_json))
        c.command_json = nlohmann::json({{"command_text", c.command_json}}).dump();
    return c;
}

std::string InjectConfig::run_name() const {
    std::string name = "capture";
    if (!nlohmann::json::accept(command_json)) return name;
    const auto j = nlohmann::json::parse(command_json);
    if (!j.contains("command") || !j["command"].is_array()) return name;
    name += ":";
    for (const auto& arg : j["command"])
        if (arg.is_string()) name += " " + arg.get<std::string>();
    return name;
}

}  // namespace tokenscope::capture::inject
