#include "pm_host.h"

#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_target.h>

#include <utility>

#include "cupti_params.h"
#include "pm_sampler.h"

namespace tokenscope::capture::cupti {
namespace {

std::string host_init(const PmHost::Chip& chip, CUpti_Profiler_Host_Object** host) {
    auto init = params<CUpti_Profiler_Host_Initialize_Params>(
        CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    init.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
    init.pChipName = chip.name.c_str();
    init.pCounterAvailabilityImage = chip.availability.data();
    TS_PM_CALL(cuptiProfilerHostInitialize, init);
    *host = init.pHostObject;
    return {};
}

void host_deinit(CUpti_Profiler_Host_Object* host) noexcept {
    if (!host) return;
    auto deinit = params<CUpti_Profiler_Host_Deinitialize_Params>(
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    deinit.pHostObject = host;
    cuptiProfilerHostDeinitialize(&deinit);
}

std::string add_metrics(CUpti_Profiler_Host_Object* host, const std::vector<std::string>& names) {
    std::vector<const char*> c = c_names(names);
    auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    add.pHostObject = host;
    add.ppMetricNames = c.data();
    add.numMetrics = c.size();
    TS_PM_CALL(cuptiProfilerHostConfigAddMetrics, add);
    return {};
}

// The names are CUPTI's until the host object goes, so they are copied first.
std::string list_base_metrics(const PmHost::Chip& chip, std::vector<std::string>* out) {
    CUpti_Profiler_Host_Object* host = nullptr;
    if (std::string why = host_init(chip, &host); !why.empty()) return why;
    auto base = params<CUpti_Profiler_Host_GetBaseMetrics_Params>(
        CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE);
    base.pHostObject = host;
    base.metricType = CUPTI_METRIC_TYPE_COUNTER;
    const CUptiResult r = cuptiProfilerHostGetBaseMetrics(&base);
    if (r == CUPTI_SUCCESS)
        for (std::size_t i = 0; i < base.numMetrics; ++i)
            if (base.ppMetricNames && base.ppMetricNames[i])
                out->emplace_back(base.ppMetricNames[i]);
    host_deinit(host);
    if (r != CUPTI_SUCCESS)
        return PmSampler::explain(static_cast<int>(r), "cuptiProfilerHostGetBaseMetrics");
    return {};
}

// One bad name fails ConfigAddMetrics for all, so each is tried on a host object of its own.
std::string probe(const PmHost::Chip& chip, const std::string& name) {
    CUpti_Profiler_Host_Object* host = nullptr;
    if (std::string why = host_init(chip, &host); !why.empty()) return why;
    std::string why = add_metrics(host, {name});
    host_deinit(host);
    return why;
}

}  // namespace

std::string PmHost::read_chip(int device, Chip* out) {
    auto chip =
        params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    chip.deviceIndex = static_cast<std::size_t>(device);
    TS_PM_CALL(cuptiDeviceGetChipName, chip);
    out->name = chip.pChipName ? chip.pChipName : "";
    auto avail = params<CUpti_PmSampling_GetCounterAvailability_Params>(
        CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE);
    avail.deviceIndex = static_cast<std::size_t>(device);
    TS_PM_CALL(cuptiPmSamplingGetCounterAvailability, avail);  // first call: the size
    out->availability.resize(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = out->availability.data();
    TS_PM_CALL(cuptiPmSamplingGetCounterAvailability, avail);
    return {};
}

PmMetricCatalog PmHost::choose_metrics(const Chip& chip) {
    std::vector<std::string> base;
    const std::string why = list_base_metrics(chip, &base);
    PmMetricCatalog catalog = why.empty() ? PmMetricCatalog(chip.name, std::move(base))
                                          : PmMetricCatalog::unlisted(chip.name, why);
    for (std::size_t m = 0; m < PmSampler::kMetricCount; ++m) {
        const auto slot = static_cast<PmSampler::Metric>(m);
        for (const std::string& name : catalog.candidates(slot)) {
            catalog.record_probe(slot, name, probe(chip, name));
            if (!catalog.active(slot).empty()) break;
        }
    }
    return catalog;
}

std::string PmHost::open(const Chip& chip) {
    reset();
    return host_init(chip, &host_);
}

std::string PmHost::build_config(const std::vector<std::string>& names,
                                 std::vector<std::uint8_t>& config) {
    CUpti_Profiler_Host_Object* host = host_;
    if (std::string why = add_metrics(host, names); !why.empty()) return why;
    auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    size.pHostObject = host;
    TS_PM_CALL(cuptiProfilerHostGetConfigImageSize, size);
    config.resize(size.configImageSize);
    auto image = params<CUpti_Profiler_Host_GetConfigImage_Params>(
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    image.pHostObject = host;
    image.configImageSize = config.size();
    image.pConfigImage = config.data();
    TS_PM_CALL(cuptiProfilerHostGetConfigImage, image);
    return {};
}

void PmHost::reset() noexcept {
    host_deinit(std::exchange(host_, nullptr));
}

}  // namespace tokenscope::capture::cupti
