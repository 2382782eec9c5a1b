#include "heatmap_csv.h"

#include <charconv>
#include <ostream>
#include <string>
#include <string_view>

namespace tokenscope::analysis {
namespace {

void write_field(std::ostream& out, std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
        out << text;
        return;
    }
    out << '"';
    for (char c : text) {
        if (c == '"') out << '"';
        out << c;
    }
    out << '"';
}

void write_number(std::ostream& out, double v) {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    out << std::string_view(buf, static_cast<std::size_t>(res.ptr - buf));
}

}  // namespace

void write_heatmap_csv(const Heatmap& map, std::ostream& out) {
    out << "row";
    for (const auto& w : map.columns) out << ',' << w.start_ns;
    out << '\n';
    for (std::size_t r = 0; r < map.row_count(); ++r) {
        write_field(out, map.row_labels[r]);
        for (std::size_t c = 0; c < map.column_count(); ++c) {
            out << ',';
            if (const auto& p = map.at(r, c).value) write_number(out, *p);
        }
        out << '\n';
    }
}

}  // namespace tokenscope::analysis
