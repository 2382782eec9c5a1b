#pragma once

#include "json_cursor.h"
#include "kineto_event.h"

namespace tokenscope::import::kineto {

// Reads one trace event object at the cursor into a KinetoEvent, skipping the
// members it does not need. Throws NeedMoreData / JsonSyntaxError from the cursor.
class EventParser {
  public:
    void parse(JsonCursor& cursor, KinetoEvent& event) const;

  private:
    void parse_args(JsonCursor& cursor, KinetoEvent& event) const;
    void parse_arg(JsonCursor& cursor, std::string_view key, KinetoEvent& event) const;
};

}  // namespace tokenscope::import::kineto
