#include "chrome_trace_writer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <unordered_map>

#include "export_error.h"
#include "json_text.h"

namespace tokenscope::exporter {
namespace {

using trace::ActivityKind;
using trace::LaneKind;

constexpr std::size_t kFlushBytes = 1 << 16;

void flush(std::string& buf, std::ostream& out, bool force = false) {
    if (force || buf.size() >= kFlushBytes) {
        out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
        buf.clear();
    }
}

// Every event after the first is preceded by ",\n"; the caller writes the first.
void begin_event(std::string& buf) {
    buf += ",\n{";
}

void append_pid_tid(std::string& buf, std::int64_t pid, std::int64_t tid) {
    buf += "\"pid\":";
    buf += std::to_string(pid);
    buf += ",\"tid\":";
    buf += std::to_string(tid);
}

void append_metadata(std::string& buf, const char* what, std::int64_t pid, std::int64_t tid,
                     std::string_view name) {
    begin_event(buf);
    buf += "\"ph\":\"M\",\"name\":\"";
    buf += what;
    buf += "\",";
    append_pid_tid(buf, pid, tid);
    buf += ",\"args\":{\"name\":";
    append_json_string(buf, name);
    buf += "}}";
}

// FLOPs are a float in memory but an integer in the trace (viewers and scripts
// expect one, never "1e+12"): rounded, clamped to [0, 2^64-1], in the shortest
// digits that read back as the same float (1e12f prints 1000000000000, not its
// exact value 999999995904). The shortest digits come from scientific to_chars:
// fixed to_chars prints the exact value.
void append_flops(std::string& buf, float flops) {
    constexpr float kTwoTo64 = 18446744073709551616.0f;
    if (!(flops > 0.0f)) {
        buf += '0';
        return;
    }
    if (flops >= kTwoTo64) {
        buf += "18446744073709551615";
        return;
    }
    const float whole = std::round(flops);
    char text[32];
    auto [end, ec] = std::to_chars(text, text + sizeof text, whole, std::chars_format::scientific);
    std::string_view sci(text, ec == std::errc{} ? static_cast<std::size_t>(end - text) : 0);
    std::size_t e = sci.find('e');
    std::string digits;
    for (char c : sci.substr(0, e))
        if (c != '.') digits += c;
    int exponent = 0;
    if (e != std::string_view::npos)
        std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+'), sci.data() + sci.size(),
                        exponent);
    // An integral float's shortest digits never reach past its units digit.
    if (e == std::string_view::npos || exponent < 0 ||
        digits.size() > static_cast<std::size_t>(exponent) + 1) {
        buf += std::to_string(static_cast<std::uint64_t>(whole));
        return;
    }
    buf += digits;
    buf.append(static_cast<std::size_t>(exponent) + 1 - digits.size(), '0');
}

// Kineto's keys, so the launch shape survives a round trip through its importer.
void append_launch(std::string& buf, const std::optional<trace::KernelLaunch>& launch) {
    if (!launch) return;
    auto dims = [&buf](const char* key, const std::array<std::uint32_t, 3>& d) {
        buf += ",\"";
        buf += key;
        buf += "\":[" + std::to_string(d[0]) + ',' + std::to_string(d[1]) + ',' +
               std::to_string(d[2]) + ']';
    };
    dims("grid", launch->grid);
    dims("block", launch->block);
    buf += ",\"registers per thread\":" + std::to_string(launch->registers_per_thread);
    buf += ",\"shared memory\":" + std::to_string(launch->shared_bytes);
}

}  // namespace

ChromeTraceWriter::ChromeTraceWriter(const trace::RunData& run) : run_(run) {
    assign_tracks();
}

const char* ChromeTraceWriter::category(ActivityKind kind) {
    switch (kind) {
        case ActivityKind::Kernel:
            return "kernel";
        case ActivityKind::Memcpy:
            return "gpu_memcpy";
        case ActivityKind::Memset:
            return "gpu_memset";
        case ActivityKind::Api:
            return "cuda_runtime";
        case ActivityKind::Sync:
            return "cuda_runtime";  // Kineto files sync calls as runtime
        case ActivityKind::Range:
            return "user_annotation";
        case ActivityKind::Marker:
            return "user_annotation";
    }
    return "other";
}

// GPU lanes use the device as pid (Kineto's layout); host lanes their process.
// Step tracks live on one extra process after every real pid. Clashing
// (pid, tid) pairs are moved to a free tid so no two lanes merge in the viewer.
void ChromeTraceWriter::assign_tracks() {
    std::int64_t max_pid = 0;
    for (const auto& lane : run_.lanes)
        max_pid = std::max({max_pid, lane.process, std::int64_t{lane.device}});
    steps_pid_ = max_pid + 1;
    std::set<std::pair<std::int64_t, std::int64_t>> used;
    tracks_.reserve(run_.lanes.size());
    for (std::size_t i = 0; i < run_.lanes.size(); ++i) {
        const auto& lane = run_.lanes[i];
        Track t;
        switch (lane.kind) {
            case LaneKind::GpuStream:
            case LaneKind::CopyEngine:
                t.pid = std::max(lane.device, 0);
                t.tid =
                    lane.kind == LaneKind::CopyEngine ? 1'000'000 + lane.native_id : lane.native_id;
                break;
            case LaneKind::Counter:
                t = {lane.device >= 0 ? lane.device : lane.process, 0};
                break;
            case LaneKind::StepTrack:
                t = {steps_pid_, static_cast<std::int64_t>(i) + 1};
                break;
            case LaneKind::CpuThread:
                t = {lane.process, lane.native_id};
                break;
        }
        if (lane.kind != LaneKind::Counter)
            while (!used.insert({t.pid, t.tid}).second) t.tid += 10'000'000;
        tracks_.push_back(t);
    }
}

void ChromeTraceWriter::write(std::ostream& out, const trace::ProgressFn& progress) const {
    std::string buf = "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"run\":";
    append_json_string(buf, run_.info.name);
    buf += ",\"source\":";
    append_json_string(buf, trace::to_string(run_.info.source));
    buf += ",\"gpu\":";
    append_json_string(buf, run_.info.gpu.name);
    buf += "},\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",";
    append_pid_tid(buf, steps_pid_, 0);
    buf += ",\"args\":{\"name\":\"Steps\"}}";
    write_metadata(buf, out);
    write_activities(buf, out, progress);
    write_flows(buf, out);
    write_counters(buf, out);
    write_steps(buf, out);
    buf += "\n]}\n";
    flush(buf, out, true);
    out.flush();
}

void ChromeTraceWriter::write_file(const std::string& path,
                                   const trace::ProgressFn& progress) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw ExportError(path, "cannot create the Chrome trace file");
    write(out, progress);
    if (!out) throw ExportError(path, "write error (disk full?)");
}

void ChromeTraceWriter::write_metadata(std::string& buf, std::ostream& out) const {
    std::map<std::int64_t, std::string> processes;
    for (std::size_t i = 0; i < run_.lanes.size(); ++i) {
        const auto& lane = run_.lanes[i];
        const Track& t = tracks_[i];
        bool gpu = lane.kind == LaneKind::GpuStream || lane.kind == LaneKind::CopyEngine ||
                   (lane.kind == LaneKind::Counter && lane.device >= 0);
        if (t.pid != steps_pid_ && !processes.contains(t.pid))
            processes[t.pid] =
                gpu ? "GPU " + std::to_string(t.pid) : "Process " + std::to_string(t.pid);
        if (lane.kind != LaneKind::Counter)
            append_metadata(buf, "thread_name", t.pid, t.tid, lane.name);
        flush(buf, out);
    }
    for (const auto& [pid, name] : processes) append_metadata(buf, "process_name", pid, 0, name);
}

void ChromeTraceWriter::write_activities(std::string& buf, std::ostream& out,
                                         const trace::ProgressFn& progress) const {
    const auto total = static_cast<std::int64_t>(run_.activities.size());
    for (std::int64_t i = 0; i < total; ++i) {
        const auto& a = run_.activities[static_cast<std::size_t>(i)];
        const Track& t = tracks_.at(a.lane);
        bool instant = a.kind == ActivityKind::Marker;
        begin_event(buf);
        buf += instant ? "\"ph\":\"i\",\"s\":\"t\",\"cat\":\"" : "\"ph\":\"X\",\"cat\":\"";
        buf += category(a.kind);
        buf += "\",\"name\":";
        append_json_string(buf, run_.name_of(a));
        buf += ',';
        append_pid_tid(buf, t.pid, t.tid);
        buf += ",\"ts\":";
        append_microseconds(buf, a.start_ns);
        if (!instant) {
            buf += ",\"dur\":";
            append_microseconds(buf, a.duration_ns());
        }
        buf += ",\"args\":{\"kind\":\"";
        buf += trace::to_string(a.kind);
        buf += '"';
        if (a.copy != trace::CopyKind::None) {
            buf += ",\"copy kind\":\"";
            buf += trace::to_string(a.copy);
            buf += '"';
        }
        if (a.correlation != 0) buf += ",\"correlation\":" + std::to_string(a.correlation);
        if (a.bytes != 0) buf += ",\"bytes\":" + std::to_string(a.bytes);
        if (a.flops > 0) {
            buf += ",\"flops\":";
            append_flops(buf, a.flops);
        }
        if (std::int32_t device = run_.device_of(a); device >= 0)
            buf += ",\"device\":" + std::to_string(device);
        if (run_.lanes[a.lane].kind == LaneKind::GpuStream)
            buf += ",\"stream\":" + std::to_string(run_.lanes[a.lane].native_id);
        if (a.kind == ActivityKind::Kernel) append_launch(buf, run_.launches.find(a.correlation));
        if (auto node = run_.graphs.find(a)) {  // Kineto's keys
            buf += ",\"graph id\":" + std::to_string(node->graph_id);
            buf += ",\"graph node id\":" + std::to_string(node->node_id);
        }
        buf += "}}";
        flush(buf, out);
        if (progress && (i & 0xFFFF) == 0 && !progress(i, total)) throw trace::Cancelled();
    }
}

void ChromeTraceWriter::write_flows(std::string& buf, std::ostream& out) const {
    // A flow from each API call to every GPU activity it launched: one for a kernel
    // launch, one per kernel of a cudaGraphLaunch. A flow has one start and one finish,
    // so the first activity's flow has the correlation as its id (as Kineto writes it)
    // and the others ids past every correlation.
    std::map<std::uint32_t, const trace::Activity*> api;  // ordered: deterministic output
    std::unordered_map<std::uint32_t, std::vector<const trace::Activity*>> gpu;
    std::uint64_t next_id = 1;
    for (const auto& a : run_.activities) {
        if (a.correlation == 0) continue;
        next_id = std::max<std::uint64_t>(next_id, std::uint64_t{a.correlation} + 1);
        if (a.kind == ActivityKind::Api)
            api.emplace(a.correlation, &a);
        else if (trace::is_gpu_operation(a.kind))
            gpu[a.correlation].push_back(&a);
    }
    auto end_of = [&](const trace::Activity& a, std::uint64_t id, bool start) {
        const Track& t = tracks_.at(a.lane);
        begin_event(buf);
        buf += start ? "\"ph\":\"s\"" : "\"ph\":\"f\",\"bp\":\"e\"";
        buf += ",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":" + std::to_string(id) + ',';
        append_pid_tid(buf, t.pid, t.tid);
        buf += ",\"ts\":";
        append_microseconds(buf, a.start_ns);
        buf += '}';
    };
    for (const auto& [corr, launch] : api) {
        auto it = gpu.find(corr);
        if (it == gpu.end()) continue;
        auto& work = it->second;
        std::stable_sort(work.begin(), work.end(),
                         [](const auto* x, const auto* y) { return x->start_ns < y->start_ns; });
        for (std::size_t k = 0; k < work.size(); ++k) {
            const std::uint64_t id = k == 0 ? corr : next_id++;
            end_of(*launch, id, true);
            end_of(*work[k], id, false);
        }
        flush(buf, out);
    }
}

void ChromeTraceWriter::write_counters(std::string& buf, std::ostream& out) const {
    for (const auto& c : run_.counters) {
        const Track& t = tracks_.at(c.lane);
        begin_event(buf);
        buf += "\"ph\":\"C\",\"name\":";
        append_json_string(buf, run_.lanes[c.lane].name);
        buf += ',';
        append_pid_tid(buf, t.pid, t.tid);
        buf += ",\"ts\":";
        append_microseconds(buf, c.time_ns);
        buf += ",\"args\":{\"value\":";
        buf += std::isfinite(c.value) ? std::to_string(c.value) : "0";
        buf += "}}";
        flush(buf, out);
    }
}

void ChromeTraceWriter::write_steps(std::string& buf, std::ostream& out) const {
    if (run_.steps.empty()) return;
    append_metadata(buf, "thread_name", steps_pid_, 0, "steps");
    for (const auto& s : run_.steps) {
        begin_event(buf);
        buf += "\"ph\":\"X\",\"cat\":\"step\",\"name\":";
        std::string name = std::string(trace::to_string(s.phase)) + " " + std::to_string(s.index);
        if (s.request != 0) name = "request " + std::to_string(s.request) + " " + name;
        append_json_string(buf, name);
        buf += ',';
        append_pid_tid(buf, steps_pid_, 0);
        buf += ",\"ts\":";
        append_microseconds(buf, s.start_ns);
        buf += ",\"dur\":";
        append_microseconds(buf, s.duration_ns());
        buf += ",\"args\":{\"request\":" + std::to_string(s.request) +
               ",\"index\":" + std::to_string(s.index) + ",\"phase\":\"" +
               std::string(trace::to_string(s.phase)) + "\"}}";
        flush(buf, out);
    }
}

}  // namespace tokenscope::exporter
