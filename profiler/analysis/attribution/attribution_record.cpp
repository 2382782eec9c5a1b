#include "attribution_record.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "category.h"
#include "store/store_error.h"
#include "store/varint.h"

namespace tokenscope::analysis {
namespace {

using store::detail::get_varint;
using store::detail::put_varint;
using store::detail::unzigzag;
using store::detail::zigzag;

// Bumped whenever what the record holds or how it is computed changes.
constexpr int kRecordVersion = 1;

class Encoder {
  public:
    void put(std::int64_t v) {
        std::uint8_t buf[10];
        std::uint8_t* end = put_varint(buf, zigzag(static_cast<std::uint64_t>(v)));
        out_.insert(out_.end(), buf, end);
    }
    void put_double(double v) { put(static_cast<std::int64_t>(std::bit_cast<std::uint64_t>(v))); }
    template <std::size_t N>
    void put_all(const std::array<std::int64_t, N>& values) {
        for (std::int64_t v : values) put(v);
    }
    std::vector<std::uint8_t> take() { return std::move(out_); }

  private:
    std::vector<std::uint8_t> out_;
};

class Decoder {
  public:
    Decoder(const std::vector<std::uint8_t>& chunk, std::size_t index, const std::string& path)
        : p_(chunk.data()), end_(chunk.data() + chunk.size()), index_(index), path_(path) {}
    std::int64_t get() {
        std::uint64_t v = 0;
        if (!get_varint(p_, end_, v)) fail("cut short");
        return static_cast<std::int64_t>(unzigzag(v));
    }
    std::int64_t get_count(std::int64_t most) {
        const std::int64_t n = get();
        if (n < 0 || n > most) fail("a count of " + std::to_string(n));
        return n;
    }
    double get_double() {
        const double v = std::bit_cast<double>(static_cast<std::uint64_t>(get()));
        if (!std::isfinite(v)) fail("a value that is not a number");
        return v;
    }
    template <std::size_t N>
    void get_all(std::array<std::int64_t, N>& values) {
        for (std::int64_t& v : values) v = get();
    }
    void finish() {
        if (p_ != end_) fail("bytes past its end");
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw store::StoreError(
            path_, "corrupt file: step_attribution chunk " + std::to_string(index_) + ": " + what);
    }

  private:
    const std::uint8_t* p_;
    const std::uint8_t* end_;
    std::size_t index_;
    const std::string& path_;
};

// nullopt past int64 (forged parts).
std::optional<std::int64_t> sum(const CategoryNs& parts) {
    std::int64_t s = 0;
    for (std::int64_t v : parts)
        if (v < 0 || __builtin_add_overflow(s, v, &s)) return std::nullopt;
    return s;
}

}  // namespace

std::string attribution_record_key(const AttributionOptions& options) {
    // Patterns are length-prefixed: any character may appear in one.
    std::string key = "attribution " + std::to_string(kRecordVersion) + "; driving lane " +
                      std::to_string(options.driving_lane) + "; rules";
    for (const auto& rule : options.name_rules)
        key += " " + std::string(to_string(rule.category)) + ":" +
               std::to_string(rule.pattern.size()) + ":" + rule.pattern;
    return key;
}

std::vector<std::vector<std::uint8_t>> encode_attribution_record(const AttributionRecord& r) {
    std::vector<std::vector<std::uint8_t>> chunks;
    Encoder head;
    head.put(static_cast<std::int64_t>(r.steps.size()));
    head.put(r.nvlink_active_ns);
    head.put(r.gpu_busy_ns);
    head.put(r.iterations ? 1 : 0);
    if (r.iterations) {
        head.put(r.iterations->total_ns);
        head.put_all(r.iterations->assigned);
        head.put_all(r.iterations->hidden);
    }
    head.put(r.launch_delay.ns ? 1 : 0);
    if (r.launch_delay.ns) head.put_double(*r.launch_delay.ns);
    head.put_double(r.launch_delay.relative_error);
    head.put_all(r.run_roles.ns);
    chunks.push_back(head.take());
    for (std::size_t first = 0; first < r.steps.size(); first += kStepsPerChunk) {
        const std::size_t last = std::min(r.steps.size(), first + kStepsPerChunk);
        Encoder steps;
        steps.put(static_cast<std::int64_t>(last - first));
        std::int64_t previous_start = 0;
        for (std::size_t i = first; i < last; ++i) {
            const StepAttribution& s = r.steps[i];
            // Steps come in the run's order, mostly by start: deltas stay short.
            steps.put(s.start_ns - previous_start);
            steps.put(s.end_ns - s.start_ns);
            previous_start = s.start_ns;
            steps.put_all(s.assigned);
            steps.put_all(s.hidden);
            steps.put_all(r.step_roles[i].ns);
        }
        chunks.push_back(steps.take());
    }
    return chunks;
}

AttributionRecord decode_attribution_record(const std::vector<std::vector<std::uint8_t>>& chunks,
                                            const std::string& path) {
    AttributionRecord r;
    if (chunks.empty()) throw store::StoreError(path, "corrupt file: step_attribution is empty");
    Decoder head(chunks[0], 0, path);
    // Each step takes at least 23 bytes: a forged count allocates nothing before that.
    std::int64_t bytes = 0;
    for (const auto& c : chunks) bytes += static_cast<std::int64_t>(c.size());
    const std::int64_t steps = head.get_count(bytes / 23);
    r.nvlink_active_ns = head.get();
    r.gpu_busy_ns = head.get();
    if (head.get_count(1) == 1) {
        UnionAttribution u;
        u.total_ns = head.get();
        head.get_all(u.assigned);
        head.get_all(u.hidden);
        r.iterations = u;
    }
    if (head.get_count(1) == 1) r.launch_delay.ns = head.get_double();
    r.launch_delay.relative_error = head.get_double();
    head.get_all(r.run_roles.ns);
    head.finish();
    const auto expected_chunks =
        1 + (static_cast<std::size_t>(steps) + kStepsPerChunk - 1) / kStepsPerChunk;
    if (chunks.size() != expected_chunks)
        head.fail(std::to_string(steps) + " steps in " + std::to_string(chunks.size() - 1) +
                  " chunks");
    r.steps.reserve(static_cast<std::size_t>(steps));
    r.step_roles.reserve(static_cast<std::size_t>(steps));
    for (std::size_t k = 1; k < chunks.size(); ++k) {
        Decoder in(chunks[k], k, path);
        const auto expected =
            std::min<std::int64_t>(static_cast<std::int64_t>(kStepsPerChunk),
                                   steps - static_cast<std::int64_t>((k - 1) * kStepsPerChunk));
        if (in.get() != expected) in.fail("a step count other than " + std::to_string(expected));
        std::int64_t previous_start = 0;
        for (std::int64_t i = 0; i < expected; ++i) {
            StepAttribution s;
            const std::int64_t delta = in.get(), length = in.get();
            if (__builtin_add_overflow(previous_start, delta, &s.start_ns) ||
                __builtin_add_overflow(s.start_ns, length, &s.end_ns))
                in.fail("a step outside time");
            previous_start = s.start_ns;
            in.get_all(s.assigned);
            in.get_all(s.hidden);
            // Attribution is exact: a step's parts sum to its length (none for a step
            // that ends before it starts, which nothing attributes).
            if (sum(s.assigned) != std::optional<std::int64_t>(std::max<std::int64_t>(0, length)))
                in.fail("a step whose parts do not sum to its length");
            RoleTimes roles;
            in.get_all(roles.ns);
            r.steps.push_back(s);
            r.step_roles.push_back(roles);
        }
        in.finish();
    }
    return r;
}

}  // namespace tokenscope::analysis
