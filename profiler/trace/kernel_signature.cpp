#include "kernel_signature.h"

namespace tokenscope::trace {
namespace {
constexpr std::string_view kAnonymous = "(anonymous namespace)";
}  // namespace

std::string_view signature_head(std::string_view demangled) {
    int depth = 0;
    for (std::size_t i = 0; i < demangled.size(); ++i) {
        const char c = demangled[i];
        if (c == '<') ++depth;
        if (c == '>' && depth > 0) --depth;
        if (c != '(' || depth > 0) continue;
        if (demangled.substr(i, kAnonymous.size()) == kAnonymous) {
            i += kAnonymous.size() - 1;
            continue;
        }
        return demangled.substr(0, i);
    }
    return demangled;
}

std::string qualified_kernel_name(std::string_view demangled) {
    const std::string_view head = signature_head(demangled);
    std::string plain;
    int depth = 0;
    for (const char c : head) {
        if (c == '<') ++depth;
        if (depth == 0) plain += c;
        if (c == '>' && depth > 0) --depth;
    }
    // Drop the return type: what precedes the last space outside "(anonymous namespace)".
    std::size_t from = 0;
    for (std::size_t i = 0; i < plain.size(); ++i) {
        if (plain.compare(i, kAnonymous.size(), kAnonymous) == 0) {
            i += kAnonymous.size() - 1;
            continue;
        }
        if (plain[i] == ' ') from = i + 1;
    }
    std::string out = plain.substr(from);
    return out.empty() ? std::string(demangled) : out;
}

}  // namespace tokenscope::trace
