#include "injection.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include <cupti.h>

#include "trace/gpu_catalog.h"

namespace tokenscope::capture::inject {
namespace {

void say(const std::string& line) {
    std::fprintf(stderr, "%s%s\n", Injection::kTag, line.c_str());
    std::fflush(stderr);
}

void at_exit() {
    Injection::instance().finish();
}

// The driver is already loaded when it calls us; asking without loading it keeps
// a program (or test) that calls InitializeInjection by hand from starting one.
void* loaded_driver() {
    return dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
}

std::string host_name() {
    char buf[256] = {};
    return gethostname(buf, sizeof buf - 1) == 0 ? buf : "";
}

// Datasheet figures of the device's model ("NVIDIA H200" -> H200) from the
// catalogue, so the roofline and verdicts work on captured runs too.
void fill_from_catalog(trace::GpuInfo& gpu) {
    if (const auto* model = trace::find_gpu_model(gpu.name))
        gpu = trace::with_datasheet(std::move(gpu), *model);
}

// NVTX finds its tool through NVTX_INJECTION64_PATH at the program's first NVTX
// call. The capture command sets it; if it could not, CUPTI itself is the tool, and
// it is this very libcupti, already loaded as our dependency.
void point_nvtx_at_cupti() {
    if (std::getenv("NVTX_INJECTION64_PATH")) return;
    Dl_info where{};
    if (dladdr(reinterpret_cast<void*>(&cuptiActivityEnable), &where) && where.dli_fname)
        setenv("NVTX_INJECTION64_PATH", where.dli_fname, 0);
}

}  // namespace

Injection& Injection::instance() {
    static Injection* const kInstance = new Injection();  // leaked on purpose, see header
    return *kInstance;
}

bool Injection::start() noexcept {
    std::lock_guard lock(mutex_);
    if (attempted_) return tracing_;
    attempted_ = true;
    try {
        tracing_ = start_tracing();
    } catch (const std::exception& e) {
        say(std::string("cannot trace: ") + e.what() + "; the program runs untraced");
        tracing_ = false;
    } catch (...) {
        say("cannot trace (unknown error); the program runs untraced");
        tracing_ = false;
    }
    if (!tracing_) {
        tracer_.reset();
        if (writer_) {
            try {
                writer_->abandon();
            } catch (...) {
            }
        }
        writer_.reset();
        store_.reset();
    }
    return tracing_;
}

bool Injection::start_tracing() {
    std::string problem;
    config_ = InjectConfig::from_environment(&problem);
    if (!problem.empty()) {
        say(problem + "; not tracing");
        return false;
    }
    if (!config_.warning.empty()) say(config_.warning);
    if (!loaded_driver()) {
        say("no NVIDIA driver found; not tracing");
        return false;
    }
    info_.name = config_.run_name();
    info_.source = trace::Source::Inject;
    info_.created_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
    info_.host = host_name();
    info_.workload_json = config_.command_json;
    info_.clock = trace::ClockDomain::MonotonicRaw;  // the tracer maps CUPTI time onto it
    store_ = std::make_unique<store::StoreWriter>(config_.out);
    writer_ = store_->begin_run(info_);

    cupti::TracerOptions options;
    options.decoder.step_pattern = config_.steps_regex;
    options.decoder.steps_from_markers = !config_.steps_regex.empty();
    options.decoder.process_id = getpid();
    // Counters stream into the run during capture: the tracer's writer thread, the
    // only one touching the writer, drains the samplers; finish() takes the rest.
    nvml_ = std::make_unique<NvmlSampler>();
    nvml_->start();  // without NVML it queues an info diagnostic; tracing goes on
    if (config_.pm_sampling) pm_ = std::make_unique<cupti::PmSampler>();
    // PM sampling starts on the first tick, not here: we run inside the program's
    // cuInit, and the sampler's driver probe calls cuInit itself.
    options.on_writer_tick = [nvml = nvml_.get(), pm = pm_.get(),
                              tried = false](store::RunWriter& w) mutable {
        nvml->drain(w);
        if (!pm) return;
        if (!tried) {
            tried = true;
            if (std::string why = pm->start(0); !why.empty()) {
                say("--pm-sampling: " + why + "; PCIe/NVLink come from NVML");
                w.add_diagnostic({"pm_sampling_unavailable", trace::Severity::Info, 1.0,
                                  "CUPTI PM sampling unavailable: " + why});
            }
            if (!pm->summary().empty())
                w.add_diagnostic(
                    {"pm_sampling_metrics", trace::Severity::Info, 1.0, pm->summary()});
        }
        pm->poll(w);
    };
    point_nvtx_at_cupti();
    tracer_ = std::make_unique<cupti::CuptiTracer>(options);
    try {
        tracer_->start(*writer_);  // throws CuptiError when CUPTI cannot trace
    } catch (...) {
        nvml_->stop();
        throw;
    }
    std::atexit(at_exit);
    return true;
}

void Injection::describe_gpu() {
    // At exit the driver is initialised (it called us), so its queries are safe.
    void* cuda = loaded_driver();
    if (!cuda) return;
    using GetVersion = int (*)(int*);
    using GetDevice = int (*)(int*, int);
    using GetName = int (*)(char*, int, int);
    using GetAttribute = int (*)(int*, int, int);
    auto version = reinterpret_cast<GetVersion>(dlsym(cuda, "cuDriverGetVersion"));
    auto device = reinterpret_cast<GetDevice>(dlsym(cuda, "cuDeviceGet"));
    auto name = reinterpret_cast<GetName>(dlsym(cuda, "cuDeviceGetName"));
    auto attribute = reinterpret_cast<GetAttribute>(dlsym(cuda, "cuDeviceGetAttribute"));
    int v = 0;
    if (version && version(&v) == 0)
        info_.driver_version = std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
    int dev = 0;
    if (!device || !name || device(&dev, 0) != 0) return;
    char buf[256] = {};
    if (name(buf, sizeof buf - 1, dev) == 0) info_.gpu.name = buf;
    constexpr int kMultiprocessorCount = 16;  // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
    int sms = 0;
    if (attribute && attribute(&sms, kMultiprocessorCount, dev) == 0) info_.gpu.sm_count = sms;
    fill_from_catalog(info_.gpu);
}

void Injection::finish() noexcept {
    std::lock_guard lock(mutex_);
    if (!tracing_) return;
    tracing_ = false;
    try {
        tracer_->stop();
        nvml_->stop();
        nvml_->drain(*writer_);
        if (pm_) pm_->stop(*writer_);
        describe_gpu();
        writer_->update_info(info_);
        writer_->finish();
    } catch (const std::exception& e) {
        // What was committed stays: the run is left incomplete, which the reader reports.
        say(std::string("could not finish the run: ") + e.what());
    } catch (...) {
        say("could not finish the run (unknown error)");
    }
}

}  // namespace tokenscope::capture::inject
