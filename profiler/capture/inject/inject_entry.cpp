// The entry point the CUDA driver calls, during cuInit, in a program started with
// CUDA_INJECTION64_PATH=libtokenscope_inject.so. Everything else in the library is
// hidden, so it cannot clash with the program's own symbols.
#include "injection.h"

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    // 1 tells the driver the injection succeeded; 0 only means "not tracing": the
    // program runs normally either way.
    return tokenscope::capture::inject::Injection::instance().start() ? 1 : 0;
}
