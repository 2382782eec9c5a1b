// Failures that need no Prometheus, each through `tokenscope-cli fleet`: one line on
// stderr naming the URL and the problem, exit status 1, and nothing hangs (a server
// that never answers times out or is cancelled with Ctrl-C).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli_runner.h"
#include "fleet/http_client.h"
#include "prometheus_process.h"
#include "tiny_http_server.h"
#include "trace/stop_source.h"

namespace tokenscope::fleet_test {
namespace {

struct TempFile {
    explicit TempFile(const std::string& text)
        : path((fs::temp_directory_path() /
                ("tokenscope_fleet_" + std::to_string(getpid()) + "_" + std::to_string(++n)))
                   .string()) {
        std::ofstream(path) << text;
    }
    ~TempFile() { fs::remove(path); }
    std::string path;
    static inline int n = 0;
};

void expect_one_line_naming(const CliResult& r, const std::string& url,
                            const std::string& problem) {
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(url + "/api/v1/query_range"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(problem), std::string::npos) << r.err;
}

TEST(FleetConnection, RefusedConnectionNamesTheUrl) {
    const std::string url = "http://127.0.0.1:" + std::to_string(free_port());
    expect_one_line_naming(run_cli("--url " + url + " --by model_name"), url, "connection refused");
}

TEST(FleetConnection, BearerTokenIsSentAndHttp401Explained) {
    TinyHttpServer server(TinyHttpServer::Mode::Unauthorized);
    TempFile token("s3cr3t-token\n");
    CliResult r =
        run_cli("--url " + server.url() + " --token-file " + token.path + " --by model_name");
    expect_one_line_naming(r, server.url(), "HTTP 401");
    EXPECT_NE(server.last_request().find("Authorization: Bearer s3cr3t-token\r\n"),
              std::string::npos)
        << server.last_request();
    EXPECT_EQ(r.err.find("s3cr3t"), std::string::npos) << "the secret leaked: " << r.err;
}

TEST(FleetConnection, ServerThatNeverAnswersTimesOut) {
    TinyHttpServer server(TinyHttpServer::Mode::Silent);
    CliResult r = run_cli("--url " + server.url() + " --by model_name --timeout 1s");
    expect_one_line_naming(r, server.url(), "timed out");
    EXPECT_LT(r.seconds, 10.0);
}

TEST(FleetConnection, CtrlCCancelsAQueryThatNeverReturns) {
    TinyHttpServer server(TinyHttpServer::Mode::Silent);
    const pid_t pid = fork();
    if (pid == 0) {
        std::freopen("/dev/null", "w", stderr);
        execl(TOKENSCOPE_CLI, TOKENSCOPE_CLI, "fleet", "--url", server.url().c_str(), "--by",
              "model_name", "--timeout", "60s", "--progress", "none", static_cast<char*>(nullptr));
        _exit(127);
    }
    // Ctrl-C once the query is on the wire, not after a fixed time: under a sanitizer
    // the CLI may still be starting after 700 ms, before its handler is installed.
    const auto spawned = std::chrono::steady_clock::now();
    while (server.last_request().empty() &&
           std::chrono::steady_clock::now() - spawned < std::chrono::seconds(60))
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_FALSE(server.last_request().empty()) << "the CLI never sent its query";
    const auto sent = std::chrono::steady_clock::now();
    kill(pid, SIGINT);
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() - sent > std::chrono::seconds(10)) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            FAIL() << "still running 10 s after Ctrl-C";
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count(), 3.0);
}

// The GUI's path: a StopSource stopped from another thread ends the exchange.
TEST(FleetConnection, StopTokenCancelsTheExchange) {
    TinyHttpServer server(TinyHttpServer::Mode::Silent);
    trace::StopSource stop;
    fleet::HttpRequest request;
    request.url = server.url() + "/api/v1/query_range";
    request.timeout_s = 60;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        stop.request_stop();
    });
    const auto start = std::chrono::steady_clock::now();
    EXPECT_THROW(fleet::http_fetch(request, stop.token()), trace::Cancelled);
    stopper.join();
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 3.0);
}

TEST(FleetConnection, AnswerThatIsNotPrometheusJsonIsExplained) {
    TinyHttpServer server(TinyHttpServer::Mode::Canned, "<html>login</html>");
    expect_one_line_naming(run_cli("--url " + server.url() + " --by model_name"), server.url(),
                           "not a Prometheus answer");
}

TEST(FleetConnection, EmptyMatrixAnswerIsAnEmptyResult) {
    TinyHttpServer server(TinyHttpServer::Mode::Canned,
                          R"({"status":"success","data":{"resultType":"matrix","result":[]}})");
    expect_one_line_naming(run_cli("--url " + server.url() + " --by model_name"), server.url(),
                           "empty result");
}

TEST(FleetConnection, UsageErrorsAreOneLine) {
    for (const std::string args :
         {"--url http://x --by le", "--url http://x --by model_name --quantile 0.2",
          "--url http://x --by model_name --range 90m --window 1h",
          "--url http://x --by model_name --metric 'a b'",
          "--url http://x --by model_name --end yesterday", "--by model_name"}) {
        CliResult r = run_cli(args);
        EXPECT_EQ(r.status, 1) << args;
        EXPECT_TRUE(one_line(r.err)) << args << ": " << r.err;
        EXPECT_NE(r.err.find("fleet"), std::string::npos) << r.err;
    }
}

}  // namespace
}  // namespace tokenscope::fleet_test
