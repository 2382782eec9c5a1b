#include "row_reader.h"

#include <cstdint>
#include <string>

#include "connection.h"
#include "schema.h"
#include "store_error.h"

namespace tokenscope::store::detail {

template <typename E>
E RowReader::parse(std::optional<E> value, std::string_view text, const char* column) const {
    if (!value)
        throw StoreError(conn_.path(), "corrupt file: unknown value '" + std::string(text) +
                                           "' in column " + column);
    return *value;
}

trace::RunInfo RowReader::run_info(const Statement& st, int c) const {
    trace::RunInfo info;
    info.name = st.text(c);
    info.source = parse(trace::source_from_string(st.text(c + 1)), st.text(c + 1), "run.source");
    info.created_ns = st.int64(c + 2);
    info.host = st.text(c + 3);
    trace::GpuInfo& g = info.gpu;
    g.name = st.text(c + 4);
    g.sm_count = static_cast<std::int32_t>(st.int64(c + 5));
    g.peak_bandwidth = st.real(c + 6);
    g.peak_flops = st.real(c + 7);
    g.pcie_generation = static_cast<std::int32_t>(st.int64(c + 8));
    g.pcie_width = static_cast<std::int32_t>(st.int64(c + 9));
    g.nvlink_links = static_cast<std::int32_t>(st.int64(c + 10));
    g.nvlink_bandwidth = st.real(c + 11);
    info.driver_version = st.text(c + 12);
    info.cuda_version = st.text(c + 13);
    info.workload_json = st.text(c + 14);
    info.clock =
        parse(trace::clock_domain_from_string(st.text(c + 15)), st.text(c + 15), "run.clock");
    info.origin_utc_ns = st.optional_int64(c + 16);
    return info;
}

trace::Lane RowReader::lane(const Statement& st) const {
    trace::Lane l;
    l.kind = parse(trace::lane_kind_from_string(st.text(0)), st.text(0), "lane.kind");
    l.device = static_cast<std::int32_t>(st.int64(1));
    l.process = st.int64(2);
    l.native_id = st.int64(3);
    l.name = st.text(4);
    const std::int64_t rank = st.int64(5);
    l.rank = rank >= -1 && rank <= INT32_MAX ? static_cast<std::int32_t>(rank) : -1;
    return l;
}

std::string RowReader::step_columns(const Connection& conn) {
    return std::string("request, idx, phase, start_ns, end_ns, floor_ns, ") +
           (has_step_batch(conn)
                ? "prefill_requests, prefill_tokens, decode_requests, decode_tokens, "
                : "-1, -1, -1, -1, ") +
           (has_step_windows(conn) ? "prefill_key_tokens, decode_key_tokens, marker_end_ns"
                                   : "-1, -1, 0");
}

trace::Step RowReader::step(const Statement& st) const {
    trace::Step s;
    s.request = st.int64(0);
    s.index = static_cast<std::int32_t>(st.int64(1));
    s.phase = parse(trace::phase_from_string(st.text(2)), st.text(2), "step.phase");
    s.start_ns = st.int64(3);
    s.end_ns = st.int64(4);
    s.floor_ns = st.int64(5);
    auto count = [&](int col) {
        const std::int64_t v = st.int64(col);
        return v >= -1 && v <= INT32_MAX ? static_cast<std::int32_t>(v) : std::int32_t{-1};
    };
    s.batch = {count(6), count(7), count(8), count(9), count(10), count(11)};
    // A marker end outside the step would put the marker after its own window.
    const std::int64_t marker_end = st.int64(12);
    s.marker_end_ns = marker_end >= s.start_ns && marker_end <= s.end_ns ? marker_end : 0;
    return s;
}

trace::Request RowReader::request(const Statement& st) {
    trace::Request r;
    r.id = st.int64(0);
    r.arrival_ns = st.int64(1);
    r.first_token_ns = st.int64(2);
    r.done_ns = st.int64(3);
    r.input_len = static_cast<std::int32_t>(st.int64(4));
    r.output_len = static_cast<std::int32_t>(st.int64(5));
    r.failed = st.int64(6) != 0;
    return r;
}

trace::CounterSample RowReader::counter(const Statement& st) {
    trace::CounterSample c;
    c.lane = static_cast<std::uint16_t>(st.int64(0));
    c.time_ns = st.int64(1);
    c.value = st.real(2);
    return c;
}

trace::Diagnostic RowReader::diagnostic(const Statement& st) const {
    trace::Diagnostic d;
    d.name = st.text(0);
    d.severity = parse(trace::severity_from_string(st.text(1)), st.text(1), "diagnostic.severity");
    d.value = st.real(2);
    d.text = st.text(3);
    return d;
}

trace::KernelLaunch RowReader::launch(const Statement& st) const {
    return launch_columns(st, "kernel_launch", "correlation");
}

trace::KernelLaunch RowReader::launch_config(const Statement& st) const {
    return launch_columns(st, "launch_config", "id");
}

trace::KernelLaunch RowReader::launch_columns(const Statement& st, const char* table,
                                              const char* key) const {
    auto field = [&](int col, std::int64_t max, const char* name) {
        std::int64_t v = st.int64(col);
        if (v < 0 || v > max)
            throw StoreError(conn_.path(), "corrupt file: value " + std::to_string(v) +
                                               " out of range in column " + table + "." + name);
        return v;
    };
    constexpr std::int64_t k32 = 0xffffffffLL;
    trace::KernelLaunch l;
    l.correlation = static_cast<std::uint32_t>(field(0, k32, key));
    static constexpr const char* kDims[] = {"grid_x",  "grid_y",  "grid_z",
                                            "block_x", "block_y", "block_z"};
    for (std::size_t i = 0; i < 3; ++i) {
        l.grid[i] = static_cast<std::uint32_t>(field(1 + static_cast<int>(i), k32, kDims[i]));
        l.block[i] = static_cast<std::uint32_t>(field(4 + static_cast<int>(i), k32, kDims[3 + i]));
    }
    l.shared_bytes = static_cast<std::uint32_t>(field(7, k32, "shared_bytes"));
    l.registers_per_thread = static_cast<std::uint16_t>(field(8, 0xffff, "registers"));
    return l;
}

}  // namespace tokenscope::store::detail
