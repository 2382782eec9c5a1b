#pragma once

#include "json/reader.h"
#include "kineto_event.h"

namespace tokenscope::import::kineto {

// Reads one trace event into a KinetoEvent, skipping the members it does not
// need. Its views point into the document or the reader's strings, valid until
// the reader's release_strings(). Throws json::SyntaxError.
class EventParser {
  public:
    void parse(json::Reader& reader, json::od::value& value, KinetoEvent& event) const;

  private:
    void parse_args(json::Reader& reader, json::od::value& value, KinetoEvent& event) const;
    void parse_arg(json::Reader& reader, std::string_view key, json::od::value& value,
                   KinetoEvent& event) const;
};

}  // namespace tokenscope::import::kineto
