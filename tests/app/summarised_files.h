#pragma once

// The summarised files the large-file CLI tests read (summarised_cli_test,
// export_window_cli_test): a serving run written by bench/make_large_run.h's generator,
// and a copy of a file whose runs are read whole.
#include <cstdint>
#include <filesystem>
#include <string>

#include "make_large_run.h"
#include "store/store_writer.h"
#include "support/old_store.h"

namespace tokenscope::test {

// 8 GPUs, 120,000 activities of 8-layer iterations: steps, all-reduces, copies, launch facts.
inline void write_serving_run(const std::string& path, const std::string& name,
                              std::uint64_t seed = 1) {
    store::StoreWriter writer(path);
    trace::RunInfo info;
    info.name = name;
    auto out = writer.begin_run(info);
    bench::LargeRunGenerator(*out, {.activities = 120'000, .layers = 8, .seed = seed}).run();
    out->finish();
}

// A copy whose runs have no summaries (as a capture that did not finish): read whole.
inline std::string whole_copy(const std::string& path) {
    const std::string copy = path + ".whole.tokenscope";
    std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing);
    run_sql(copy, "UPDATE run SET summarized = 0");
    return copy;
}

}  // namespace tokenscope::test
