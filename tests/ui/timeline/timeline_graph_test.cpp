// The timeline on a CUDA graph launch: hovering the one cudaGraphLaunch links every
// kernel of its graph, a kernel's hover names its graph and node and links back to
// the call. The hand-made run of hand_run.h plus a graph launch planted here.
#include <QTest>

#include "../hand_run.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_view.h"

using namespace tokenscope;

namespace {

constexpr std::uint32_t kCall = 9, kGraph = 7;
constexpr int kKernels = 3;

// cudaGraphLaunch [30000, 30500) on the CPU thread, then its 3 kernels of 2 us back to
// back from 31000 on stream 7, nodes 101..103 of graph 7, all on the call's correlation.
trace::RunData graph_run() {
    trace::RunData run = test::hand_run("graph run");
    trace::Activity call;
    call.lane = 0, call.kind = trace::ActivityKind::Api, call.correlation = kCall;
    call.start_ns = 30000, call.end_ns = 30500;
    call.name = run.strings.intern("cudaGraphLaunch");
    run.activities.push_back(call);
    for (int k = 0; k < kKernels; ++k) {
        trace::Activity a;
        a.lane = 1, a.kind = trace::ActivityKind::Kernel, a.correlation = kCall;
        a.start_ns = 31000 + 2000 * k, a.end_ns = a.start_ns + 2000;
        a.name = run.strings.intern("graph_kernel_" + std::to_string(k));
        run.activities.push_back(a);
        run.graphs.add(1, a.start_ns, {kGraph, 101 + static_cast<std::uint64_t>(k)});
    }
    return run;
}

}  // namespace

class TimelineGraphTest : public QObject {
    Q_OBJECT

    ui::OpenRun run_ = test::open_run(graph_run());

    std::size_t index_of(std::string_view name) const {
        const auto& acts = run_.data->activities;
        for (std::size_t i = 0; i < acts.size(); ++i)
            if (run_.data->name_of(acts[i]) == name) return i;
        return ui::TimelineScene::kNone;
    }
    // The widget point over activity i, found as the mouse would find it.
    static QPoint point_over(const ui::TimelineView& view, std::size_t i) {
        const auto& a = view.scene().index->run().activities[i];
        const int x = ui::TimelineLayout::kLabelWidth +
                      static_cast<int>(view.viewport().x_of((a.start_ns + a.end_ns) / 2));
        for (int y = 0; y < view.height(); ++y)
            if (view.activityAt(QPoint(x, y)) == i) return {x, y};
        return {-1, -1};
    }

  private slots:
    void hoveringTheLaunchLinksEveryKernelOfTheGraph() {
        ui::TimelineView view;
        view.resize(1000, 400);
        view.setRun(run_);
        const std::size_t call = index_of("cudaGraphLaunch");
        const QPoint at = point_over(view, call);
        QVERIFY(at.x() >= 0);
        view.hoverAt(at);
        QCOMPARE(view.scene().hovered, call);
        QCOMPARE(view.scene().linked_all.size(), static_cast<std::size_t>(kKernels));
        for (std::size_t i : view.scene().linked_all) {
            const auto& a = run_.data->activities[i];
            QCOMPARE(a.correlation, kCall);
            QCOMPARE(a.kind, trace::ActivityKind::Kernel);
        }
        QCOMPARE(view.scene().linked, view.scene().linked_all.front());
        QVERIFY(view.describe(call).contains(QStringLiteral("launches 3 GPU activities")));
        // The eager launch of hand_run still links its one kernel.
        const std::size_t eager = index_of("cudaLaunchKernel");
        QCOMPARE(run_.index->correlated_all(eager, 1'000'000).size(), std::size_t{1});
        QVERIFY(!view.describe(eager).contains(QStringLiteral("launches")));
    }

    void aGraphKernelNamesItsNodeAndLinksToItsLaunch() {
        ui::TimelineView view;
        view.resize(1000, 400);
        view.setRun(run_);
        const std::size_t second = index_of("graph_kernel_1");
        view.hoverAt(point_over(view, second));
        QCOMPARE(view.scene().hovered, second);
        QCOMPARE(view.scene().linked, index_of("cudaGraphLaunch"));
        QVERIFY(view.describe(second).contains(QStringLiteral("CUDA graph 7, node 102")));
        QVERIFY(!view.describe(index_of("gemm_bf16")).contains(QStringLiteral("CUDA graph")));
    }
};

QTEST_MAIN(TimelineGraphTest)
#include "timeline_graph_test.moc"
