#include "capture/model/model_backend.h"

#include "capture/failed_run.h"
#include "capture/memory_run_writer.h"
#include "capture/model/model_simulator.h"
#include "capture/model/model_workload.h"

namespace tokenscope::capture {

void ModelBackend::run(const CaptureConfig& config, store::RunWriter& writer,
                       const trace::ProgressFn& progress) {
    try {
        const ModelRunSpec spec = resolve_model_run(config);
        writer.update_info(model_run_info(spec));
        ModelSimulator(spec, writer).run(progress);
        writer.finish();
    } catch (...) {
        end_failed_run(writer, std::current_exception());
        throw;
    }
}

trace::RunData simulate_model_run(const CaptureConfig& config, const trace::ProgressFn& progress) {
    MemoryRunWriter writer;
    ModelBackend().run(config, writer, progress);
    return writer.take();
}

}  // namespace tokenscope::capture
