// The sentence that says how two runs' iterations of one phase differ
// (docs/compare.md, Engine iterations).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "iteration_diff.h"

namespace tokenscope::analysis {
namespace {

// A part is named in the sentence when it is above this share of the P50 delta.
constexpr double kPartShare = 0.05;

// "25.8 ms" at or above a millisecond, "0.054 ms" below, "12 ns" below a microsecond.
std::string ms_text(double ns) {
    char buf[48];
    const double v = std::abs(ns);
    if (v >= 1e6)
        std::snprintf(buf, sizeof buf, "%.1f ms", ns / 1e6);
    else if (v >= 1e3)
        std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.0f ns", ns);
    return buf;
}

std::string phase_word(trace::Phase phase) {
    return phase == trace::Phase::Prefill ? "prefill" : "decode";
}

// "GEMM" stays; "Attention" reads "attention" inside a sentence.
std::string in_sentence(std::string name) {
    if (name.size() > 1 && std::islower(static_cast<unsigned char>(name[1])))
        name[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
    return name;
}

// "; 24.0 ms of it is GPU idle, 1.8 ms GEMM": the parts above kPartShare of the delta,
// largest first, signed so that a part going the other way reads negative; "the rest"
// when what they leave is itself above that share.
std::string parts_clause(const PhaseIterationDiff& d) {
    const double delta = d.p50_delta_ns, sign = delta < 0 ? -1.0 : 1.0;
    std::vector<const IterationPart*> named;
    for (const IterationPart& p : d.parts)
        if (std::abs(p.delta_ns) > kPartShare * std::abs(delta)) named.push_back(&p);
    std::stable_sort(named.begin(), named.end(),
                     [](const IterationPart* x, const IterationPart* y) {
                         return std::abs(x->delta_ns) > std::abs(y->delta_ns);
                     });
    if (named.empty()) return "; no part of it is above 5 % alone";
    std::string out;
    double rest = delta;
    for (const IterationPart* p : named) {
        out += out.empty() ? "; " + ms_text(sign * p->delta_ns) + " of it is "
                           : ", " + ms_text(sign * p->delta_ns) + " ";
        out += in_sentence(part_name(*p));
        rest -= p->delta_ns;
    }
    if (std::abs(rest) > kPartShare * std::abs(delta)) out += ", the rest " + ms_text(sign * rest);
    return out;
}

}  // namespace

std::string part_name(const IterationPart& part) {
    return part.role ? std::string(display_name(*part.role)) : std::string("GPU idle");
}

std::string part_key(const IterationPart& part) {
    return part.role ? std::string(to_string(*part.role)) : std::string("idle");
}

std::string iteration_sentence(const PhaseIterationDiff& d) {
    const std::string phase = phase_word(d.phase);
    const std::size_t na = d.a.steps.size(), nb = d.b.steps.size();
    if (na == 0 || nb == 0)
        return "Only " + std::string(na == 0 ? "B" : "A") + " has " + phase + " iterations (" +
               std::to_string(na == 0 ? nb : na) + ").";
    std::string out = "B's " + phase + " iterations ";
    if (std::abs(d.p50_delta_ns) < 0.5) {
        out += "take as long as A's (P50 " + ms_text(d.a.duration.p50) + ")";
    } else {
        out += "are " + ms_text(std::abs(d.p50_delta_ns)) +
               (d.p50_delta_ns > 0 ? " slower" : " faster") + " (P50)";
        out += parts_clause(d);
    }
    out += ".";
    if (na >= 2 && nb >= 2 && !d.significant) {
        char p[32];
        std::snprintf(p, sizeof p, "%.3g", d.test.p_value);
        out += std::string(" Not significant (Mann-Whitney p = ") + p + ").";
    }
    return out;
}

// A trace that began while its GPU still ran earlier work shows that wait as GPU idle
// (import/trace_start_backlog.h): the sentence says so, or its idle part would read as
// the engine's own.
std::string backlog_caution(const trace::RunData& a, const trace::RunData& b) {
    std::string out;
    for (const auto* side : {&a, &b}) {
        for (const auto& d : side->diagnostics) {
            if (d.name != "trace_start_backlog") continue;
            out += std::string(" ") + (side == &a ? "A" : "B") +
                   "'s trace began while its GPU still ran earlier work (its first operation "
                   "waited " +
                   ms_text(d.value * 1e6) + "): that wait counts as GPU idle here.";
        }
    }
    return out;
}

}  // namespace tokenscope::analysis
