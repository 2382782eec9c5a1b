#include "text_table.h"

#include <algorithm>
#include <cctype>

#include "cell_text.h"

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

constexpr std::size_t kMinColumn = 12;
// A cell of a megabyte (a hostile kernel name) would wrap into thousands of
// lines; text shows its head, --json and --csv keep it whole.
constexpr std::size_t kMaxCellBytes = 4096;

std::string trim_cell(const std::string& cell) {
    if (cell.size() <= kMaxCellBytes) return cell;
    std::size_t cut = kMaxCellBytes;
    while (cut > 0 && (static_cast<unsigned char>(cell[cut]) & 0xC0) == 0x80) --cut;
    return cell.substr(0, cut) + " ... (" + std::to_string(cell.size() - cut) +
           " more bytes; --json has them all)";
}

// Natural column widths, then the widest columns narrowed (their cells wrap)
// until the table fits `limit` columns or every column is at its minimum.
std::vector<std::size_t> fitted_widths(const std::vector<std::string>& header,
                                       const std::vector<std::vector<std::string>>& rows,
                                       std::size_t limit) {
    std::vector<std::size_t> width(header.size());
    for (std::size_t i = 0; i < header.size(); ++i) width[i] = display_width(header[i]);
    for (const auto& r : rows)
        for (std::size_t i = 0; i < r.size(); ++i)
            width[i] = std::max(width[i], display_width(r[i]));
    auto total = [&] {
        std::size_t t = 0;
        for (auto w : width) t += w + 2;
        return t > 2 ? t - 2 : 0;
    };
    while (total() > limit) {
        auto widest = std::max_element(width.begin(), width.end());
        if (*widest <= kMinColumn) break;
        *widest = std::max(kMinColumn, *widest - std::min(*widest, total() - limit));
    }
    return width;
}

// One table row, as many lines as its tallest wrapped cell.
void print_row(std::ostream& out, const std::vector<std::string>& r,
               const std::vector<std::size_t>& width, bool is_header) {
    std::vector<std::vector<std::string>> cells;
    std::size_t height = 1;
    for (std::size_t i = 0; i < r.size(); ++i) {
        cells.push_back(wrap_text(r[i], width[i]));
        height = std::max(height, cells.back().size());
    }
    for (std::size_t line = 0; line < height; ++line) {
        for (std::size_t i = 0; i < r.size(); ++i) {
            const std::string cell = line < cells[i].size() ? cells[i][line] : std::string();
            std::size_t pad = width[i] - std::min(width[i], display_width(cell));
            // Numbers right-aligned so digits line up; text left-aligned.
            bool right = !is_header && i > 0 && cells[i].size() == 1 && looks_numeric(cell);
            if (i) out << "  ";
            if (right)
                out << std::string(pad, ' ') << cell;
            else
                out << cell << (i + 1 < r.size() ? std::string(pad, ' ') : "");
        }
        out << '\n';
    }
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
    auto safe = [](const std::vector<std::string>& r) {
        std::vector<std::string> s;
        for (const auto& cell : r) s.push_back(terminal_safe(trim_cell(cell)));
        return s;
    };
    std::vector<std::string> header = safe(header_);
    std::vector<std::vector<std::string>> rows;
    for (const auto& r : rows_) rows.push_back(safe(r));
    std::vector<std::size_t> width = fitted_widths(header, rows, terminal_columns());
    print_row(out, header, width, true);
    std::size_t total = 0;
    for (auto w : width) total += w + 2;
    out << std::string(total > 2 ? total - 2 : 0, '-') << '\n';
    for (const auto& r : rows) print_row(out, r, width, false);
}

}  // namespace tokenscope::cli
