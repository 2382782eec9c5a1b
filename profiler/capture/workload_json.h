#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "kernels/decode_config.h"
#include "kernels/model_shape.h"

namespace tokenscope::capture {

// The pieces every backend writes into RunInfo::workload_json and the run header,
// in one place so model, cpu and cuda runs describe a workload the same way.
std::string host_name();
std::int64_t wall_clock_ns();  // ns since the Unix epoch
nlohmann::json shape_json(const kernels::ModelShape& shape);
// Strategy parameters only for the strategy in use; the modelled acceptance rate is
// the model backend's to add (measured backends report what they measured instead).
nlohmann::json decode_json(const kernels::DecodeConfig& decode);

}  // namespace tokenscope::capture
