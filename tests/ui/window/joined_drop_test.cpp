// Dropping several files on the main window (issue 12 item 4): DropPlan decides from
// content whether they are a client result and a server trace (one joined run), the
// traces of several ranks (one merged run) or two runs to compare; tested on the real
// fixtures and on files written here. Then the drops themselves, through the window.
#include <QDropEvent>
#include <QFile>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <cstdio>
#include <string>

#include "../../joined_hand_run.h"
#include "../hand_run.h"
#include "analysis/join/slow_tokens.h"
#include "store/store_writer.h"
#include "support/fixtures.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/breakdown/slow_token_model.h"
#include "ui/breakdown/token_table.h"
#include "ui/shared/run_list_model.h"
#include "ui/timeline/timeline_tab.h"
#include "ui/timeline/timeline_view.h"
#include "ui/timeline/token_selector.h"
#include "ui/window/drop_plan.h"
#include "ui/window/main_window.h"

using namespace tokenscope;
using H = test::JoinedHandRun;
using Plan = ui::DropPlan;

namespace {

constexpr std::int64_t kEpoch = 1'759'813'207'000'000'000;  // the client's clock at server 0

QString fixture(const char* name) {
    return QString::fromStdString(test::fixture_path(name));
}

std::string ms(std::int64_t ns) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(ns) / 1e6);
    return buf;
}

// AIPerf's profile_export.jsonl for the four requests of the hand-made run, their
// emissions on the client's epoch clock (kEpoch + the server time of the emission).
std::string aiperf_records() {
    std::string out;
    for (int r = 1; r <= H::kRequests; ++r) {
        std::string icl;
        for (int k = 1; k < H::kIterations; ++k)
            icl += (k > 1 ? "," : "") + ms(H::emission(r, k) - H::emission(r, k - 1));
        out += R"({"metadata":{"session_num":)" + std::to_string(r) + R"(,"x_request_id":"req-)" +
               std::to_string(r) + R"(","request_start_ns":)" + std::to_string(kEpoch) +
               R"(,"request_end_ns":)" + std::to_string(kEpoch + H::emission(r, 9)) +
               R"(,"benchmark_phase":"profiling","was_cancelled":false},"metrics":{)" +
               R"("input_sequence_length":{"value":128,"unit":"tokens"},)" +
               R"("time_to_first_token":{"value":)" + ms(H::emission(r, 0)) +
               R"(,"unit":"ms"},"inter_chunk_latency":{"value":[)" + icl +
               R"(],"unit":"ms"},"output_sequence_length":{"value":10,"unit":"tokens"}},)" +
               R"("error":null})" + "\n";
    }
    return out;
}

// The engine's side of the hand-made run: iterations and kernels, no requests.
trace::RunData server_run() {
    trace::RunData run = test::joined_hand_run();
    run.info.name = "engine trace";
    std::erase_if(run.steps, [](const trace::Step& s) { return !s.is_iteration(); });
    run.requests.clear();
    return run;
}

// A PyTorch-profiler trace of rank r: one step and one kernel, on a shared UTC start.
std::string rank_trace(int r) {
    const std::string pid = std::to_string(r);
    return R"({"schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":)" + pid +
           R"(,"world_size":2},"baseTimeNanoseconds":1700000000000000000,"traceEvents":[)"
           R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#0","pid":100,"tid":100,)"
           R"("ts":0,"dur":9000},)"
           R"({"ph":"X","cat":"kernel","name":"gemm","pid":)" +
           pid + R"(,"tid":7,"ts":100,"dur":4000}]})";
}

}  // namespace

class JoinedDropTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString client_, server_, plain_, garbage_, rank0_, rank1_;

    QString write(const char* name, const std::string& bytes) {
        const QString path = dir_.filePath(QString::fromLatin1(name));
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(bytes.data(), static_cast<qint64>(bytes.size()));
        return path;
    }
    QString store(const char* name, const trace::RunData& run) {
        const QString path = dir_.filePath(QString::fromLatin1(name));
        store::StoreWriter(path.toStdString()).write_run(run);
        return path;
    }
    static void drop(ui::MainWindow& window, const QStringList& paths) {
        QMimeData mime;
        QList<QUrl> urls;
        for (const QString& p : paths) urls << QUrl::fromLocalFile(p);
        mime.setUrls(urls);
        const QPoint pos(700, 400);
        QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent dropped(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &dropped);
    }

  private slots:
    void initTestCase() {
        QCoreApplication::setApplicationName(QStringLiteral("joined_drop_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
        client_ = write("profile_export.jsonl", aiperf_records());
        server_ = store("engine.tokenscope", server_run());
        plain_ = store("plain.tokenscope", test::hand_run("no iterations"));
        garbage_ = write("notes.txt", "just some words\n");
        rank0_ = write("rank0.json", rank_trace(0));
        rank1_ = write("rank1.json", rank_trace(1));
    }

    void rolesComeFromContent() {
        TOKENSCOPE_QT_NEED_FIXTURE("kineto/hta_v100_ns_resolution_rank0.json.gz");
        TOKENSCOPE_QT_NEED_FIXTURE("nsys/pipit_a100x4_cloverleaf.sqlite");
        TOKENSCOPE_QT_NEED_FIXTURE("kineto/hta_inference_rank_1.json.gz");
        TOKENSCOPE_QT_NEED_FIXTURE("kineto/hta_a100_cupti_profiler.json.gz");
        QCOMPARE(Plan::role_of(client_), Plan::Role::Client);
        QCOMPARE(Plan::role_of(server_), Plan::Role::Store);
        QCOMPARE(Plan::role_of(garbage_), Plan::Role::Unknown);
        QCOMPARE(Plan::role_of(QStringLiteral("/no/such/file")), Plan::Role::Unknown);
        QCOMPARE(Plan::role_of(fixture("kineto/hta_v100_ns_resolution_rank0.json.gz")),
                 Plan::Role::Trace);
        QCOMPARE(Plan::role_of(fixture("nsys/pipit_a100x4_cloverleaf.sqlite")), Plan::Role::Trace);
        // The ranks the real traces name in their distributedInfo (gzip read through).
        QCOMPARE(Plan::rank_of(fixture("kineto/hta_inference_rank_1.json.gz")), std::optional(1));
        QCOMPARE(Plan::rank_of(fixture("kineto/hta_v100_ns_resolution_rank0.json.gz")),
                 std::optional(0));
        QCOMPARE(Plan::rank_of(fixture("kineto/hta_a100_cupti_profiler.json.gz")), std::nullopt);
        QCOMPARE(Plan::rank_of(rank1_), std::optional(1));
    }

    void clientWithATraceIsAJoinInEitherOrder() {
        TOKENSCOPE_QT_NEED_FIXTURE("kineto/hta_v100_ns_resolution_rank0.json.gz");
        const QString v100 = fixture("kineto/hta_v100_ns_resolution_rank0.json.gz");
        for (const QStringList& drop : {QStringList{client_, v100}, QStringList{v100, client_}}) {
            const Plan plan = Plan::decide(drop);
            QCOMPARE(plan.action(), Plan::Action::Join);
            QCOMPARE(plan.paths(), (QStringList{client_, v100}));
            QVERIFY(plan.combine() != nullptr);
        }
        QCOMPARE(Plan::decide({server_, client_}).paths(), (QStringList{client_, server_}));
        // Two client results, or a client with a file nobody reads: compared as before.
        QCOMPARE(Plan::decide({client_, client_}).action(), Plan::Action::Compare);
        QCOMPARE(Plan::decide({client_, garbage_}).action(), Plan::Action::Compare);
        QVERIFY(Plan::decide({client_, garbage_}).combine() == nullptr);
        QCOMPARE(Plan::decide({client_}).action(), Plan::Action::Open);
    }

    void tracesOfDistinctRanksMerge() {
        TOKENSCOPE_QT_NEED_FIXTURE("kineto/hta_v100_ns_resolution_rank0.json.gz");
        TOKENSCOPE_QT_NEED_FIXTURE("kineto/hta_inference_rank_1.json.gz");
        TOKENSCOPE_QT_NEED_FIXTURE("kineto/hta_a100_cupti_profiler.json.gz");
        TOKENSCOPE_QT_NEED_FIXTURE("nsys/pipit_a100x4_cloverleaf.sqlite");
        const QString r1 = fixture("kineto/hta_inference_rank_1.json.gz");
        const QString r0 = fixture("kineto/hta_v100_ns_resolution_rank0.json.gz");
        QCOMPARE(Plan::decide({r1, r0}).action(), Plan::Action::Merge);
        QCOMPARE(Plan::decide({rank0_, rank1_}).action(), Plan::Action::Merge);
        // A trace that names no rank, or two of one rank: two runs to compare.
        QCOMPARE(Plan::decide({r0, fixture("kineto/hta_a100_cupti_profiler.json.gz")}).action(),
                 Plan::Action::Compare);
        QCOMPARE(Plan::decide({rank0_, r0}).action(), Plan::Action::Compare);
        QCOMPARE(Plan::decide({r1, r0, fixture("nsys/pipit_a100x4_cloverleaf.sqlite")}).action(),
                 Plan::Action::Compare);
    }

    void droppingClientAndServerOpensOneJoinedRun() {
        ui::MainWindow window;
        window.resize(1500, 900);
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        drop(window, {server_, client_});
        QVERIFY(window.busy());
        QVERIFY(opened.wait(30000));
        QCOMPARE(opened[0][0].toInt(), 1);
        QCOMPARE(window.runList()->rowCount(), 1);
        const ui::OpenRun& run = window.runList()->run(0);
        QVERIFY(analysis::is_joined_run(*run.data));
        QCOMPARE(run.data->requests.size(), std::size_t(H::kRequests));
        // Every token found its iteration; the slowest is the planted one.
        const auto slow = analysis::slowest_tokens(*run.data, {.count = 4});
        QCOMPARE(slow.size(), std::size_t(4));
        for (const auto& t : slow) QCOMPARE(t.iteration, H::kSlowNumber);
        // From the breakdown's token table to the timeline: the iteration and its kernels.
        ui::TokenTable* table = window.breakdownTab()->tokenTable();
        QTRY_VERIFY(table->ready());
        QCOMPARE(table->model()->index(0, ui::SlowTokenModel::Iteration).data().toInt(),
                 H::kSlowNumber);
        window.tabs()->setCurrentWidget(window.breakdownTab());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTableView* view = table->view();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                          view->visualRect(table->model()->index(0, 0)).center());
        QCOMPARE(window.tabs()->currentWidget(), window.timelineTab());
        const ui::TokenSelector* selected = window.timelineTab()->tokens();
        QVERIFY(selected->iteration() >= 0);
        QCOMPARE(run.data->steps[static_cast<std::size_t>(selected->iteration())].index,
                 H::kSlowNumber);
        QCOMPARE(selected->kernels().size(), std::size_t(2));  // flash_fwd and rms_norm
    }

    void aJoinThatCannotBeMadeNamesTheFile() {
        ui::MainWindow window;
        QSignalSpy error(&window, &ui::MainWindow::errorReported);
        drop(window, {client_, plain_});  // a server run without iterations
        QVERIFY(error.wait(30000));
        const QString message = error[0][0].toString();
        QVERIFY2(message.contains(plain_), qPrintable(message));
        QCOMPARE(window.runList()->rowCount(), 0);
    }

    void droppingRankTracesOpensOneMergedRun() {
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        QSignalSpy error(&window, &ui::MainWindow::errorReported);
        drop(window, {rank0_, rank1_});
        QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty() || !error.isEmpty(), 30000);
        QVERIFY2(error.isEmpty(), qPrintable(error.isEmpty() ? QString() : error[0][0].toString()));
        QCOMPARE(window.runList()->rowCount(), 1);
        // One GPU lane of each rank in the one run.
        const auto& run = *window.runList()->run(0).data;
        QSet<int> ranks;
        for (const auto& lane : run.lanes)
            if (lane.kind == trace::LaneKind::GpuStream) ranks.insert(lane.rank);
        QCOMPARE(ranks, (QSet<int>{0, 1}));
    }
};

QTEST_MAIN(JoinedDropTest)
#include "joined_drop_test.moc"
