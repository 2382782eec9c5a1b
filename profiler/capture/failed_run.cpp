#include "failed_run.h"

#include "store/store_error.h"

namespace tokenscope::capture {

void end_failed_run(store::RunWriter& writer, const std::exception_ptr& error) noexcept {
    try {
        std::rethrow_exception(error);
    } catch (const store::StoreError&) {
        // Deleting the run would need the very space that ran out; the writer's
        // destructor keeps what was committed.
        return;
    } catch (...) {
    }
    try {
        writer.abandon();
    } catch (...) {
        // the original error is the one to report
    }
}

}  // namespace tokenscope::capture
