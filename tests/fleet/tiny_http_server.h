#pragma once
// A one-thread HTTP server on 127.0.0.1 for what a real Prometheus cannot be made to
// do: answer 401 to a bearer token, answer a canned body, or never answer at all.
// It records the last request's head so a test can see the headers sent.
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tokenscope::fleet_test {

class TinyHttpServer {
  public:
    enum class Mode { Unauthorized, Canned, Silent };

    explicit TinyHttpServer(Mode mode, std::string body = {})
        : mode_(mode), body_(std::move(body)) {
        listener_ = socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a);
        socklen_t len = sizeof a;
        getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len);
        port_ = ntohs(a.sin_port);
        listen(listener_, 8);
        thread_ = std::thread([this] { serve(); });
    }
    ~TinyHttpServer() {
        stop_ = true;
        thread_.join();
        for (int fd : open_) close(fd);
        close(listener_);
    }

    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    std::string last_request() {
        std::lock_guard lock(mutex_);
        return last_request_;
    }

  private:
    void serve() {
        while (!stop_) {
            pollfd p{listener_, POLLIN, 0};
            if (poll(&p, 1, 50) <= 0) continue;
            const int fd = accept(listener_, nullptr, nullptr);
            if (fd < 0) continue;
            std::string request = read_head(fd);
            {
                std::lock_guard lock(mutex_);
                last_request_ = request;
            }
            if (mode_ == Mode::Silent) {
                open_.push_back(fd);  // held open, never answered
                continue;
            }
            const std::string status = mode_ == Mode::Unauthorized ? "401 Unauthorized" : "200 OK";
            const std::string body = mode_ == Mode::Unauthorized ? "Unauthorized\n" : body_;
            const std::string answer = "HTTP/1.1 " + status +
                                       "\r\nContent-Type: application/json\r\n"
                                       "WWW-Authenticate: Bearer realm=\"fleet\"\r\n"
                                       "Content-Length: " +
                                       std::to_string(body.size()) +
                                       "\r\nConnection: close\r\n\r\n" + body;
            std::size_t sent = 0;
            while (sent < answer.size()) {
                const ssize_t n = write(fd, answer.data() + sent, answer.size() - sent);
                if (n <= 0) break;
                sent += static_cast<std::size_t>(n);
            }
            close(fd);
        }
    }
    std::string read_head(int fd) {
        std::string data;
        char buf[4096];
        while (data.find("\r\n\r\n") == std::string::npos && data.size() < 65536) {
            pollfd p{fd, POLLIN, 0};
            if (poll(&p, 1, 2000) <= 0) break;
            const ssize_t n = read(fd, buf, sizeof buf);
            if (n <= 0) break;
            data.append(buf, static_cast<std::size_t>(n));
        }
        return data;
    }

    Mode mode_;
    std::string body_;
    int listener_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::thread thread_;
    std::vector<int> open_;
    std::mutex mutex_;
    std::string last_request_;
};

}  // namespace tokenscope::fleet_test
