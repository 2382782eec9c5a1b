#include "batch_label.h"

#include <algorithm>

namespace tokenscope::analysis {
namespace {

enum Shape : std::int64_t { kDecode = 0, kPrefill = 1, kMixed = 2, kUnknown = 3 };
constexpr std::int64_t kShapeScale = std::int64_t{1} << 32;

std::string part(const char* what, std::int32_t requests, std::int32_t tokens) {
    std::string out = what;
    if (requests >= 0) out += " " + std::to_string(requests) + " req";
    if (tokens >= 0) out += " " + std::to_string(tokens) + " tok";
    return out;
}

}  // namespace

std::string describe_batch(const trace::BatchComposition& b) {
    if (!b.known()) return {};
    // A side with no requests and no tokens is left out: "decode 8 req 8 tok".
    auto some = [](std::int32_t requests, std::int32_t tokens) {
        return requests > 0 || tokens > 0;
    };
    std::string out;
    if (some(b.prefill_requests, b.prefill_tokens))
        out = part("prefill", b.prefill_requests, b.prefill_tokens);
    if (some(b.decode_requests, b.decode_tokens))
        out += (out.empty() ? "" : ", ") + part("decode", b.decode_requests, b.decode_tokens);
    return out.empty() ? "empty" : out;
}

std::int64_t batch_row_key(const trace::BatchComposition& b) {
    if (!b.known()) return kUnknown * kShapeScale;
    const bool prefill = b.has_prefill();
    const bool decode = b.decode_requests > 0 || b.decode_tokens > 0;
    if (prefill && decode) return kMixed * kShapeScale;
    if (prefill) return kPrefill * kShapeScale + std::max(0, b.prefill_requests);
    return kDecode * kShapeScale + std::max(0, b.decode_requests);
}

std::string batch_row_label(std::int64_t key) {
    const std::int64_t shape = key / kShapeScale, requests = key % kShapeScale;
    switch (shape) {
        case kDecode:
            return "decode " + std::to_string(requests) + " req";
        case kPrefill:
            return "prefill " + std::to_string(requests) + " req";
        case kMixed:
            return "mixed";
        default:
            return "batch unknown";
    }
}

}  // namespace tokenscope::analysis
