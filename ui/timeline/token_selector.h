#pragma once

#include <QObject>
#include <QString>
#include <cstddef>
#include <vector>

namespace tokenscope::ui {

class BackgroundQuery;
class TimelineView;

// From a token of a joined run to what produced it: selecting a token (a click on the
// request track, a row of the breakdown's token table, a heatmap cell) selects its
// iteration's range in the timeline (so the attribution panel shows that iteration),
// outlines the iteration's kernels, brings them into view and describes the token in
// the details (analysis::describe_slow_token). Tokens without an iteration select
// their own span. Of a run whose activities stayed in its file, the token's attribution
// and kernels are read from the file in the background (analysis::stored_explain_tokens)
// and the details follow when they are in; the outlined kernels are those of the
// stretch the timeline reads for the iteration.
class TokenSelector : public QObject {
    Q_OBJECT
  public:
    explicit TokenSelector(TimelineView* view);

    // false (and nothing changes) when `step` is not a token of the view's run.
    bool select(int step);
    void clear();
    int token() const { return token_; }
    int iteration() const { return iteration_; }  // index into run.steps, -1 none
    const std::vector<std::size_t>& kernels() const { return kernels_; }
    QString details() const { return details_; }
    // The token's attribution and kernels are being read from the file.
    bool reading() const;

  signals:
    void tokenSelected(int step, int iteration);

  private:
    void reveal(qint64 t0, qint64 t1);
    void readFromFile(int step);
    // A run left in its file: the outlined kernels are the timeline's stretch's.
    void outlineStretchKernels();

    TimelineView* view_;
    BackgroundQuery* query_;
    int token_ = -1;
    qint64 window_start_ = 0, window_end_ = 0;  // empty: no window
    int iteration_ = -1;
    std::vector<std::size_t> kernels_;
    QString details_;
};

}  // namespace tokenscope::ui
