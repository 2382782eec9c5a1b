#include "arg_parser.h"

#include <charconv>
#include <cmath>
#include <sstream>

#include "man/roff.h"

namespace tokenscope::cli {

namespace {
HelpFormat help_format = HelpFormat::kText;
}  // namespace

void ArgParser::set_help_format(HelpFormat format) {
    help_format = format;
}

ArgParser::ArgParser(std::string command, std::string synopsis, std::string description)
    : command_(std::move(command)),
      synopsis_(std::move(synopsis)),
      description_(std::move(description)) {
    flag("help", "show this help");
}

ArgParser& ArgParser::option(std::string name, std::string value_name, std::string help,
                             std::string default_value) {
    specs_.push_back(
        {std::move(name), std::move(value_name), std::move(help), std::move(default_value)});
    return *this;
}

ArgParser& ArgParser::flag(std::string name, std::string help) {
    specs_.push_back({std::move(name), {}, std::move(help), {}});
    return *this;
}

const OptionSpec* ArgParser::find(const std::string& name) const {
    for (const auto& s : specs_)
        if (s.name == name) return &s;
    return nullptr;
}

void ArgParser::parse(const std::vector<std::string>& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") {
            rest_.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
            return;
        }
        if (a.rfind("--", 0) != 0 || a.size() == 2) {
            positionals_.push_back(a);
            continue;
        }
        std::string name = a.substr(2), value;
        bool inline_value = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            inline_value = true;
        }
        const OptionSpec* spec = find(name);
        if (!spec) throw UsageError{command_ + ": unknown option --" + name};
        if (spec->value_name.empty()) {
            if (inline_value) throw UsageError{command_ + ": --" + name + " takes no value"};
            values_[name] = "1";
            continue;
        }
        if (!inline_value) {
            if (i + 1 >= args.size())
                throw UsageError{command_ + ": --" + name + " needs a value (" + spec->value_name +
                                 ")"};
            value = args[++i];
        }
        values_[name] = value;
    }
}

bool ArgParser::has(const std::string& name) const {
    return values_.count(name) != 0;
}

std::string ArgParser::get(const std::string& name) const {
    if (auto it = values_.find(name); it != values_.end()) return it->second;
    const OptionSpec* spec = find(name);
    return spec ? spec->default_value : std::string();
}

long long ArgParser::get_int(const std::string& name) const {
    std::string v = get(name);
    long long out = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (ec != std::errc() || ptr != v.data() + v.size())
        throw UsageError{command_ + ": --" + name + " expects an integer, got '" + v + "'"};
    return out;
}

double ArgParser::get_double(const std::string& name) const {
    std::string v = get(name);
    try {
        std::size_t used = 0;
        double d = std::stod(v, &used);
        if (used == v.size()) return d;
    } catch (const std::exception&) {
    }
    throw UsageError{command_ + ": --" + name + " expects a number, got '" + v + "'"};
}

std::optional<long long> time_unit_ns(std::string_view unit) {
    if (unit == "ns") return 1;
    if (unit == "us") return 1000;
    if (unit == "ms") return 1'000'000;
    if (unit == "s") return 1'000'000'000;
    return std::nullopt;
}

std::int64_t ArgParser::get_duration_ns(const std::string& name) const {
    const std::string v = get(name);
    double value = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
    const auto scale = time_unit_ns(std::string_view(ptr, v.data() + v.size()));
    // Below 2^62 ns (146 years): any trace's span, and no overflow once added to a start.
    if (ec != std::errc() || !scale || !(value >= 0) || value * double(*scale) > 4.6e18)
        throw UsageError{command_ + ": --" + name +
                         " expects a time with its unit (ns, us, ms or s), e.g. 12.5ms, got '" + v +
                         "'"};
    return static_cast<std::int64_t>(std::llround(value * static_cast<double>(*scale)));
}

std::string ArgParser::help_text() const {
    if (help_format == HelpFormat::kMan) return man_section();
    std::ostringstream out;
    out << "usage: tokenscope-cli " << command_ << ' ' << synopsis_ << "\n\n"
        << description_ << "\n\noptions:\n";
    for (const auto& s : specs_) {
        std::string left = "  --" + s.name + (s.value_name.empty() ? "" : " " + s.value_name);
        out << left;
        out << std::string(left.size() < 28 ? 28 - left.size() : 1, ' ') << s.help;
        if (!s.default_value.empty()) out << " (default: " << s.default_value << ")";
        out << '\n';
    }
    return out.str();
}

// The same table as the text: one .SS per command, one .TP per option.
std::string ArgParser::man_section() const {
    std::ostringstream out;
    out << ".SS " << man::roff_quoted(command_ + ' ' + synopsis_) << '\n'
        << man::roff_text(description_) << '\n';
    for (const auto& s : specs_) {
        out << ".TP\n" << man::roff_option_tag("--" + s.name, s.value_name) << '\n';
        std::string help = s.help;
        if (!s.default_value.empty()) help += " (default: " + s.default_value + ")";
        out << man::roff_text(help) << '\n';
    }
    return out.str();
}

}  // namespace tokenscope::cli
