#include "text_table.h"

#include <algorithm>
#include <cctype>

namespace tokenscope::cli {

TextTable::TextTable(std::vector<std::string> header) : header_(std::move(header)) {}

void TextTable::add_row(std::vector<std::string> row) {
    row.resize(header_.size());
    rows_.push_back(std::move(row));
}

std::string csv_escape(const std::string& field) {
    if (field.find_first_of(",\"\n") == std::string::npos) return field;
    std::string out = "\"";
    for (char c : field) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + '"';
}

namespace {

bool looks_numeric(const std::string& s) {
    return !s.empty() &&
           (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-' || s[0] == '+');
}

}  // namespace

void TextTable::print(std::ostream& out, bool csv) const {
    if (csv) {
        auto line = [&](const std::vector<std::string>& r) {
            for (std::size_t i = 0; i < r.size(); ++i) out << (i ? "," : "") << csv_escape(r[i]);
            out << '\n';
        };
        line(header_);
        for (const auto& r : rows_) line(r);
        return;
    }
    std::vector<std::size_t> width(header_.size());
    for (std::size_t i = 0; i < header_.size(); ++i) width[i] = header_[i].size();
    for (const auto& r : rows_)
        for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
    auto line = [&](const std::vector<std::string>& r, bool is_header) {
        for (std::size_t i = 0; i < r.size(); ++i) {
            std::size_t pad = width[i] - r[i].size();
            // Numbers right-aligned so digits line up; text left-aligned.
            bool right = !is_header && i > 0 && looks_numeric(r[i]);
            if (i) out << "  ";
            if (right)
                out << std::string(pad, ' ') << r[i];
            else
                out << r[i] << (i + 1 < r.size() ? std::string(pad, ' ') : "");
        }
        out << '\n';
    };
    line(header_, true);
    std::size_t total = 0;
    for (auto w : width) total += w + 2;
    out << std::string(total > 2 ? total - 2 : 0, '-') << '\n';
    for (const auto& r : rows_) line(r, false);
}

}  // namespace tokenscope::cli
