#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tokenscope::cli {

// Rows a person reads (aligned columns) or the same rows as CSV for a spreadsheet.
class TextTable {
  public:
    explicit TextTable(std::vector<std::string> header);
    void add_row(std::vector<std::string> row);
    void print(std::ostream& out, bool csv) const;
    bool empty() const { return rows_.empty(); }

  private:
    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};

std::string csv_escape(const std::string& field);

}  // namespace tokenscope::cli
