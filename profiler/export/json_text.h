#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tokenscope::exporter {

// Appends `text` as a quoted JSON string. Bytes that are not valid UTF-8 become
// U+FFFD so the output always parses (kernel names come from foreign files).
void append_json_string(std::string& out, std::string_view text);

// Appends ns as microseconds with exactly three decimals ("1234.567"), by
// integer arithmetic, so the value round-trips to the same nanosecond.
void append_microseconds(std::string& out, std::int64_t ns);

}  // namespace tokenscope::exporter
