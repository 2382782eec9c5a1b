#pragma once

#include <QString>

namespace tokenscope::ui {

// Messages the GUI shows but did not write (a tokenscope-cli child's error line, a
// capture backend's or an importer's reason) speak of command-line flags: "use --preset
// tiny or --backend model". In the window they name the controls instead: "choose Preset
// “tiny” or Backend “model”" (the New Run dialog's fields, the Step pattern field).
class GuiWords {
  public:
    static QString fromCli(const QString& message);
};

}  // namespace tokenscope::ui
