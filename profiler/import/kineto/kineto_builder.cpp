#include "kineto_builder.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "decimal_time.h"

namespace tokenscope::import::kineto {
namespace {

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] + 32) : a[i];
        if (x != b[i]) return false;
    }
    return true;
}

trace::CopyKind copy_kind(std::string_view name) {
    if (name.find("HtoD") != std::string_view::npos) return trace::CopyKind::H2D;
    if (name.find("DtoH") != std::string_view::npos) return trace::CopyKind::D2H;
    if (name.find("DtoD") != std::string_view::npos) return trace::CopyKind::D2D;
    if (name.find("PtoP") != std::string_view::npos) return trace::CopyKind::P2P;
    if (name.find("HtoH") != std::string_view::npos) return trace::CopyKind::H2H;
    return trace::CopyKind::None;
}

std::optional<std::int32_t> device_of(std::int64_t d) {
    if (d < 0 || d > std::numeric_limits<std::int32_t>::max()) return std::nullopt;
    return static_cast<std::int32_t>(d);
}

}  // namespace

Category category_of(std::string_view cat) {
    struct Alias {
        std::string_view text;
        Category cat;
    };
    static constexpr Alias kAliases[] = {
        {"kernel", Category::Kernel},
        {"gpu_memcpy", Category::Memcpy},
        {"memcpy", Category::Memcpy},
        {"gpu_memset", Category::Memset},
        {"memset", Category::Memset},
        {"cuda_runtime", Category::Runtime},
        {"runtime", Category::Runtime},
        {"cuda_driver", Category::Driver},
        {"driver", Category::Driver},
        {"cpu_op", Category::CpuOp},
        {"operator", Category::CpuOp},
        {"user_annotation", Category::UserAnnotation},
        {"gpu_user_annotation", Category::GpuUserAnnotation},
        {"python_function", Category::PythonFunction},
    };
    for (const auto& a : kAliases)
        if (iequals(cat, a.text)) return a.cat;
    return Category::Unknown;
}

KinetoBuilder::KinetoBuilder(const std::string& step_pattern) : steps_(step_pattern) {
    run_.info.source = trace::Source::Kineto;
    run_.info.clock = trace::ClockDomain::SourceFile;
}

bool KinetoBuilder::wants_member(std::string_view key) const {
    return key == "deviceProperties" || key == "baseTimeNanoseconds" || key == "traceName" ||
           key == "distributedInfo" || key == "schemaVersion" || key == "host_name" ||
           key == "displayTimeUnit";
}

void KinetoBuilder::on_member(std::string_view key, std::string_view raw_json) {
    if (key == "deviceProperties") {
        if (!devices_.parse(raw_json))
            malformed("deviceProperties is not an array of device objects");
        return;
    }
    if (key == "baseTimeNanoseconds") {
        if (auto v = integer_text(raw_json))
            base_time_ns_ = *v;
        else
            malformed("baseTimeNanoseconds is not an integer");
        return;
    }
    members_[std::string(key)] = std::string(raw_json);
}

void KinetoBuilder::malformed(std::string_view why) {
    run_.count_diagnostic("kineto_malformed_events", trace::Severity::DataLoss, 1,
                          std::string("skipped: ") + std::string(why));
}

void KinetoBuilder::on_event(const KinetoEvent& e) {
    ++events_;
    if (e.ph == 'M') {
        metadata(e, lanes_.resolve(e.pid), lanes_.resolve(e.tid));
        return;
    }
    if (e.bad_time || !e.ts_ns) {
        malformed("event without a numeric ts");
        return;
    }
    std::int64_t pid = lanes_.resolve(e.pid);
    std::int64_t tid = lanes_.resolve(e.tid);
    std::int64_t ts = *e.ts_ns;
    switch (e.ph) {
        case 'X': {
            if (!e.dur_ns || *e.dur_ns < 0) {
                malformed("complete event without a valid dur");
                return;
            }
            Span s{category_of(e.cat), e.cat, run_.strings.intern(e.name), pid, tid, ts,
                   ts + *e.dur_ns};
            complete(s, &e);
            return;
        }
        case 'B':
        case 'E':
            begin_end(e, pid, tid, ts);
            return;
        case 'i':
        case 'I':
        case 'R':
            marker(e, pid, tid, ts);
            return;
        case 'C':
            counter(e, pid, ts);
            return;
        case 's':
        case 'f':
        case 't':
            if ((iequals(e.cat, "ac2g") || iequals(e.cat, "async_gpu")) && e.id)
                flows_.push_back(Flow{pid, tid, ts, *e.id, e.ph == 's'});
            else
                ++ignored_flows_;
            return;
        default:
            ++unsupported_phases_;
            return;
    }
}

void KinetoBuilder::complete(const Span& s, const KinetoEvent* args) {
    trace::Activity a;
    a.start_ns = s.start;
    a.end_ns = s.end;
    a.name = s.name;
    LaneClass cls = LaneClass::Cpu;
    switch (s.cat) {
        case Category::Kernel:
            a.kind = trace::ActivityKind::Kernel;
            cls = LaneClass::Gpu;
            break;
        case Category::Memcpy:
            a.kind = trace::ActivityKind::Memcpy;
            cls = LaneClass::Gpu;
            break;
        case Category::Memset:
            a.kind = trace::ActivityKind::Memset;
            cls = LaneClass::Gpu;
            break;
        case Category::Runtime:
        case Category::Driver: {
            bool sync = run_.strings.str(s.name).find("Synchronize") != std::string_view::npos;
            a.kind = sync ? trace::ActivityKind::Sync : trace::ActivityKind::Api;
            break;
        }
        case Category::CpuOp:
        case Category::PythonFunction:
            a.kind = trace::ActivityKind::Range;
            break;
        case Category::UserAnnotation:
            a.kind = trace::ActivityKind::Range;
            cls = LaneClass::Annotation;
            break;
        case Category::GpuUserAnnotation:
            a.kind = trace::ActivityKind::Range;
            cls = LaneClass::GpuAnnotation;
            break;
        case Category::Unknown:
            a.kind = trace::ActivityKind::Range;
            cls = LaneClass::Other;
            ++unknown_categories_[std::string(s.cat_text)];
            break;
    }
    if (a.kind == trace::ActivityKind::Memcpy) a.copy = copy_kind(run_.strings.str(s.name));
    std::uint32_t external = 0;
    if (args) {
        if (args->correlation && *args->correlation != 0) {
            a.correlation = static_cast<std::uint32_t>(*args->correlation);
            any_correlation_ = true;
        }
        if (args->external_id) external = static_cast<std::uint32_t>(*args->external_id);
        if (args->bytes && *args->bytes > 0 && cls == LaneClass::Gpu)
            a.bytes = static_cast<std::uint64_t>(*args->bytes);
    }
    a.lane = lanes_.lane(cls, s.pid, s.tid, s.cat_text, run_);
    // Activities carry no device: an explicit args.device names the lane's GPU,
    // which otherwise defaults to the pid.
    if (args && args->device && (cls == LaneClass::Gpu || cls == LaneClass::GpuAnnotation))
        if (auto device = device_of(*args->device)) run_.lanes[a.lane].device = *device;
    if (a.kind == trace::ActivityKind::Kernel && args && args->has_launch) {
        launches_.push_back(KernelLaunch{static_cast<std::uint32_t>(run_.activities.size()),
                                         args->grid, args->block, args->registers,
                                         args->shared_memory});
    }
    if (cls == LaneClass::Gpu && args && args->graph_node_id && *args->graph_node_id > 0) {
        const std::int64_t graph =
            std::clamp<std::int64_t>(args->graph_id.value_or(0), 0, 0xffffffffLL);
        graph_nodes_.emplace_back(
            static_cast<std::uint32_t>(run_.activities.size()),
            trace::GraphNode{static_cast<std::uint32_t>(graph),
                             static_cast<std::uint64_t>(*args->graph_node_id)});
    }
    run_.activities.push_back(a);
    external_ids_.push_back(external);
    maybe_step(s);
}

// Any CPU-side marker may frame an iteration (a user annotation, a Python function, a
// CPU op such as ProfilerStep#N written by older Kineto); which do is decided in finish(),
// once the first matching preset is known. Only names some preset (or the pattern)
// matches are kept: a trace has hundreds of thousands of CPU ops.
void KinetoBuilder::maybe_step(const Span& s) {
    MarkerKind kind;
    switch (s.cat) {
        case Category::UserAnnotation:
            kind = MarkerKind::Annotation;
            break;
        case Category::PythonFunction:
            kind = MarkerKind::PythonFunction;
            break;
        case Category::CpuOp:
            kind = MarkerKind::CpuOp;
            break;
        default:
            return;
    }
    if (!steps_.may_frame(s.name, run_)) return;
    const std::uint64_t thread =
        (static_cast<std::uint64_t>(s.pid) << 32) ^ static_cast<std::uint32_t>(s.tid);
    step_candidates_.push_back({s.name, s.start, s.end, kind, thread, -1});
    step_threads_.emplace_back(s.pid, s.tid);
}

void KinetoBuilder::begin_end(const KinetoEvent& e, std::int64_t pid, std::int64_t tid,
                              std::int64_t ts) {
    auto& stack = open_[{pid, tid}];
    if (e.ph == 'B') {
        stack.push_back(Open{ts, run_.strings.intern(e.name), std::string(e.cat)});
        return;
    }
    if (stack.empty()) {
        run_.count_diagnostic("kineto_unmatched_end", trace::Severity::DataLoss, 1,
                              "\"E\" events without an open \"B\" on their thread, skipped");
        return;
    }
    Open o = std::move(stack.back());
    stack.pop_back();
    if (ts < o.start) {
        malformed("\"E\" event before its \"B\"");
        return;
    }
    complete(Span{category_of(o.cat), o.cat, o.name, pid, tid, o.start, ts}, nullptr);
}

void KinetoBuilder::marker(const KinetoEvent& e, std::int64_t pid, std::int64_t tid,
                           std::int64_t ts) {
    trace::Activity a;
    a.kind = trace::ActivityKind::Marker;
    a.start_ns = a.end_ns = ts;
    a.name = run_.strings.intern(e.name);
    a.lane = lanes_.lane(LaneClass::Annotation, pid, tid, e.cat, run_);
    run_.activities.push_back(a);
    external_ids_.push_back(0);
}

void KinetoBuilder::metadata(const KinetoEvent& e, std::int64_t pid, std::int64_t tid) {
    if (e.name == "process_name") {
        lanes_.set_process_name(pid, e.arg_name);
    } else if (e.name == "thread_name") {
        lanes_.set_thread_name(pid, tid, e.arg_name);
    } else if (e.name == "process_sort_index" && e.sort_index) {
        lanes_.set_process_sort(pid, *e.sort_index);
    } else if (e.name == "thread_sort_index" && e.sort_index) {
        lanes_.set_thread_sort(pid, tid, *e.sort_index);
    }
}

void KinetoBuilder::counter(const KinetoEvent& e, std::int64_t pid, std::int64_t ts) {
    for (const auto& [key, text] : e.numeric_args) {
        double value = 0;
        auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc()) {
            malformed("counter value out of range");
            continue;
        }
        std::string name(e.name);
        if (e.numeric_args.size() > 1 || name.empty())
            name += (name.empty() ? "" : " ") + std::string(key);
        std::uint16_t lane = lanes_.counter_lane(pid, name, run_);
        run_.counters.push_back(trace::CounterSample{lane, ts, value});
    }
}

}  // namespace tokenscope::import::kineto
