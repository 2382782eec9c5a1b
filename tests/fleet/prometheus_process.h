#pragma once
// A real Prometheus for the fleet tests: backfilled with promtool from an OpenMetrics
// file, started on 127.0.0.1 on a free port with a temporary data directory, TLS with
// a self-signed certificate made by openssl and basic auth, stopped with SIGTERM.
// A machine without the binaries fails with a message naming the package.
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "fleet/http_client.h"

namespace tokenscope::fleet_test {

namespace fs = std::filesystem;

inline constexpr const char* kUser = "tokenscope";
inline constexpr const char* kPassword = "fleet-secret";
// bcrypt of kPassword (cost 4, so the tests do not spend seconds per request).
inline constexpr const char* kPasswordHash =
    "$2b$04$PJb1EgygzPLW4W1Dgq8AMOHgh8Amlb9dUvb/mUCuSvQfOlGP1ZsAG";

// TOKENSCOPE_FLEET_TOOLS_DIR, when set, is the only place looked in (to try the
// message a machine without Prometheus gives).
inline std::string find_tool(const std::string& name) {
    std::vector<std::string> dirs = {"/usr/bin", "/usr/local/bin", "/bin"};
    if (const char* only = std::getenv("TOKENSCOPE_FLEET_TOOLS_DIR")) dirs = {only};
    for (const auto& dir : dirs) {
        const fs::path p = fs::path(dir) / name;
        if (fs::exists(p)) return p.string();
    }
    throw std::runtime_error(name + " not found in " + dirs.front() +
                             ": the fleet tests need a real Prometheus; install Debian's "
                             "'prometheus' package (packaging/install-deps.sh does)");
}

inline int free_port() {
    const int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
    close(s);
    return ntohs(a.sin_port);
}

inline void run_or_throw(const std::string& command) {
    if (std::system((command + " >/dev/null 2>&1").c_str()) != 0)
        throw std::runtime_error("failed: " + command);
}

class PrometheusProcess {
  public:
    // Backfills `openmetrics` into dir/data and starts the server; waits until ready.
    PrometheusProcess(const fs::path& dir, const fs::path& openmetrics) : dir_(dir) {
        const std::string prometheus = find_tool("prometheus");
        const std::string promtool = find_tool("promtool");
        fs::create_directories(dir / "data");
        run_or_throw(promtool + " tsdb create-blocks-from openmetrics " + openmetrics.string() +
                     " " + (dir / "data").string());
        run_or_throw(
            "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 "
            "-addext subjectAltName=IP:127.0.0.1 -keyout " +
            (dir / "key.pem").string() + " -out " + ca_file());
        std::ofstream(dir / "prometheus.yml") << "global:\n  scrape_interval: 1h\n";
        std::ofstream(dir / "web.yml")
            << "tls_server_config:\n  cert_file: " << (dir / "cert.pem").string()
            << "\n  key_file: " << (dir / "key.pem").string() << "\nbasic_auth_users:\n  " << kUser
            << ": '" << kPasswordHash << "'\n";
        std::ofstream(dir / "password") << kPassword << '\n';
        port_ = free_port();
        start(prometheus);
        wait_ready();
    }
    ~PrometheusProcess() {
        if (pid_ > 0) {
            kill(pid_, SIGTERM);
            int status = 0;
            waitpid(pid_, &status, 0);
        }
    }
    PrometheusProcess(const PrometheusProcess&) = delete;
    PrometheusProcess& operator=(const PrometheusProcess&) = delete;

    std::string url() const { return "https://127.0.0.1:" + std::to_string(port_); }
    std::string ca_file() const { return (dir_ / "cert.pem").string(); }
    std::string password_file() const { return (dir_ / "password").string(); }
    // The CLI options that reach this server.
    std::string auth_options() const {
        return "--url " + url() + " --ca-file " + ca_file() + " --user " + kUser +
               " --password-file " + password_file();
    }

  private:
    void start(const std::string& prometheus) {
        const std::string log = (dir_ / "prometheus.log").string();
        const std::string args[] = {
            prometheus,
            "--config.file=" + (dir_ / "prometheus.yml").string(),
            "--storage.tsdb.path=" + (dir_ / "data").string(),
            "--storage.tsdb.retention.time=100y",
            "--web.listen-address=127.0.0.1:" + std::to_string(port_),
            "--web.config.file=" + (dir_ / "web.yml").string(),
        };
        std::fflush(nullptr);  // or the child would write the parent's buffered output again
        pid_ = fork();
        if (pid_ == 0) {
            std::freopen(log.c_str(), "w", stdout);
            std::freopen(log.c_str(), "a", stderr);
            std::vector<char*> argv;
            for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            execv(argv[0], argv.data());
            _exit(127);
        }
    }
    void wait_ready() {
        fleet::HttpRequest r;
        r.url = url() + "/-/ready";
        r.ca_file = ca_file();
        r.user = kUser;
        r.password = kPassword;
        r.timeout_s = 2;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (std::chrono::steady_clock::now() < deadline) {
            try {
                if (fleet::http_fetch(r).status == 200) return;
            } catch (const std::exception&) {
            }
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                throw std::runtime_error("prometheus exited at start; see " +
                                         (dir_ / "prometheus.log").string());
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        throw std::runtime_error("prometheus not ready within 60 s");
    }

    fs::path dir_;
    int port_ = 0;
    pid_t pid_ = -1;
};

}  // namespace tokenscope::fleet_test
