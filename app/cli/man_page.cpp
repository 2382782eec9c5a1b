#include "man_page.h"

#include <iostream>

#include "arg_parser.h"
#include "commands.h"
#include "man/roff.h"

namespace tokenscope::cli {

namespace {

void print_header(std::ostream& out) {
    out << ".TH TOKENSCOPE\\-CLI 1 \"\" " << man::roff_quoted("tokenscope " TOKENSCOPE_VERSION)
        << " \"User Commands\"\n"
           ".SH NAME\n"
           "tokenscope\\-cli \\- latency of LLM decoding: runs, statistics, breakdowns, "
           "heatmaps and comparisons\n"
           ".SH SYNOPSIS\n"
           ".B tokenscope\\-cli\n"
           ".I COMMAND\n"
           "[\\fIFILE\\fR...] [\\fIoptions\\fR]\n"
           ".br\n"
           ".B tokenscope\\-cli\n"
           "\\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR\n"
           ".SH DESCRIPTION\n"
           "Makes decode runs (a cost model on GPU presets, the fp32 CPU reference, or CUDA "
           "kernels traced with CUPTI), imports foreign traces (Nsight Systems SQLite, "
           "PyTorch profiler JSON, serving benchmark results) and reports on "
           "\\fI.tokenscope\\fR files: TTFT, TPOT and inter-token latency percentiles, "
           "attribution of each step, P95 heatmaps and comparisons of two runs. Tables "
           "print as text; "
           "\\fB\\-\\-csv\\fR gives the same rows and \\fB\\-\\-json\\fR a JSON document "
           "with times in integer nanoseconds. The GUI, \\fBtokenscope\\fR(1), shows the "
           "same numbers.\n"
           ".SH OPTIONS\n";
    for (const auto& o : kTopOptions)
        out << ".TP\n"
            << man::roff_option_tag(o.name, "") << '\n'
            << man::roff_text(o.help) << '\n';
}

void print_footer(std::ostream& out) {
    out << ".SH EXIT STATUS\n"
           ".TP\n0\nsuccess\n"
           ".TP\n1\nbad input or usage; one line on standard error names the file and the "
           "problem\n"
           ".TP\n2\ninternal error\n"
           ".TP\n3\nno GPU or driver for a GPU backend\n"
           ".TP\n130\ncancelled with Ctrl\\-C\n"
           ".SH SEE ALSO\n"
           ".BR tokenscope (1)\n";
}

}  // namespace

void print_man_page(const std::vector<ManCommand>& commands) {
    // Commands print their help on std::cout, so the whole page goes there.
    std::ostream& out = std::cout;
    ArgParser::set_help_format(HelpFormat::kMan);
    print_header(out);
    out << ".SH COMMANDS\n";
    for (const auto& c : commands) {
        out.flush();
        try {
            // Each command prints its own section through ArgParser::help_text().
            if (c.fn({"--help"}) == kExitOk) continue;
        } catch (const UsageError&) {
        }
        // A command without --help still gets its summary; the build goes on but
        // says so, and the man/--help test fails on the same command.
        std::cerr << "tokenscope-cli --help-man: '" << c.name << " --help' failed\n";
        out << ".SS " << man::roff_quoted(c.name) << '\n' << man::roff_text(c.summary) << '\n';
    }
    print_footer(out);
}

}  // namespace tokenscope::cli
