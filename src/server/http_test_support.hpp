#pragma once
// Test support for the front end: the server on real loopback sockets with a fake dispatcher and readiness,
// and a blocking HTTP/1.1 client. Shared by the front end's test files.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "src/server/http_server.hpp"

namespace syncml::server::http_testing {

class fake_dispatcher : public sync_dispatcher {
  public:
    ~fake_dispatcher() override { join(); }
    // Lets every held job finish and waits for its thread: a finished job's completion, which keeps the
    // connection's timer, must go before the server's io_context does.
    void join() {
        release();
        for (auto& t : threads_) {
            if (t.joinable()) t.join();
        }
    }
    bool submit(session::sync_request request, completion done) override {
        if (!accept) return false;
        std::lock_guard lock(mutex_);
        threads_.emplace_back([this, request = std::move(request), done = std::move(done)] {
            {
                std::unique_lock wait_lock(mutex_);
                released_.wait(wait_lock, [this] { return !hold_; });
                seen.push_back(request);
            }
            done(respond(request));
        });
        return true;
    }
    void hold() {
        std::lock_guard lock(mutex_);
        hold_ = true;
    }
    void release() {
        {
            std::lock_guard lock(mutex_);
            hold_ = false;
        }
        released_.notify_all();
    }

    std::atomic<bool> accept{true};
    std::function<sync_outcome(const session::sync_request&)> respond = [](const session::sync_request& r) {
        sync_outcome outcome;
        outcome.result = sync_outcome::kind::answered;
        outcome.response.content_type = "application/vnd.syncml+xml";
        outcome.response.body = "echo:" + r.body;
        return outcome;
    };
    std::vector<session::sync_request> seen;  // guarded by mutex_ while the server runs

  private:
    std::mutex mutex_;
    std::condition_variable released_;
    bool hold_ = false;
    std::vector<std::thread> threads_;
};

class fake_readiness : public readiness_source {
  public:
    bool ready(std::string& why) const override {
        why = reason;
        return ok;
    }
    std::atomic<bool> ok{true};
    std::string reason = "database unreachable";  // set before requests are sent
};

inline server_config test_config() {
    server_config config;
    config.http.listen = {"127.0.0.1", 0};
    config.metrics.listen = {"127.0.0.1", 0};
    config.http.io_threads = 2;
    config.http.body_limit = 4096;
    config.http.header_limit = 2048;
    config.http.read_timeout = std::chrono::seconds(5);
    config.http.idle_timeout = std::chrono::seconds(5);
    config.shutdown_deadline = std::chrono::seconds(5);
    return config;
}

struct running_server {
    // admin: serves the admin listener, which config.admin.listen turns on; guard: refuses spent client addresses.
    explicit running_server(server_config settings = test_config(), admin_dispatcher* admin = nullptr,
                            auth::login_guard* guard = nullptr)
        : config(std::move(settings)),
          log_lines(std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(256)),
          log("test", log_lines),
          metrics(registry, "test", "unknown"),
          server(config, {dispatcher, readiness, metrics, registry, log, admin, nullptr, guard}) {
        server.start();
        runner = std::thread([this] { server.run(false); });
    }
    ~running_server() {
        server.stop();
        runner.join();
        dispatcher.join();
    }
    // True when a line the server logged so far contains text.
    bool logged(const std::string& text) const {
        const auto lines = log_lines->last_formatted();
        return std::any_of(lines.begin(), lines.end(),
                           [&](const std::string& line) { return line.find(text) != std::string::npos; });
    }

    server_config config;
    fake_dispatcher dispatcher;
    fake_readiness readiness;
    prometheus::Registry registry;
    std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> log_lines;
    spdlog::logger log;
    server_metrics metrics;
    http_server server;
    std::thread runner;
};

struct response {
    int status = 0;
    std::string head;
    std::string body;
    bool has_header(const std::string& line) const { return head.find("\r\n" + line + "\r\n") != std::string::npos; }
};

class client {
  public:
    // from: the local address to connect from (Linux answers all of 127/8 on loopback), to play another host.
    explicit client(std::uint16_t port, const char* from = nullptr) {
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
        if (from != nullptr) {
            sockaddr_in local{};
            local.sin_family = AF_INET;
            inet_pton(AF_INET, from, &local.sin_addr);
            if (bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) ADD_FAILURE() << "bind " << from;
        }
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) ADD_FAILURE() << "connect";
        timeval timeout{10, 0};
        setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    }
    ~client() { close(fd_); }
    void send_text(const std::string& text) { ASSERT_EQ(write(fd_, text.data(), text.size()), ssize_t(text.size())); }
    // Reads one response (Content-Length framed).
    response read_response(bool head_only = false) {
        response r;
        std::size_t end;
        while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
            if (!fill()) return r;
        }
        r.head = buffer_.substr(0, end + 2);
        buffer_.erase(0, end + 4);
        r.status = std::stoi(r.head.substr(9, 3));
        auto length_at = r.head.find("Content-Length: ");
        std::size_t length = length_at == std::string::npos ? 0 : std::stoul(r.head.substr(length_at + 16));
        if (head_only || r.head.starts_with("HTTP/1.1 100")) length = 0;
        while (buffer_.size() < length && fill()) {
        }
        r.body = buffer_.substr(0, length);
        buffer_.erase(0, length);
        return r;
    }
    response request(const std::string& text) {
        send_text(text);
        return read_response();
    }
    bool closed_by_peer() {
        char c;
        return buffer_.empty() && recv(fd_, &c, 1, 0) == 0;
    }

  private:
    bool fill() {
        char chunk[4096];
        const ssize_t n = recv(fd_, chunk, sizeof chunk, 0);
        if (n <= 0) return false;
        buffer_.append(chunk, static_cast<std::size_t>(n));
        return true;
    }
    int fd_;
    std::string buffer_;
};

inline std::string post(const std::string& path, const std::string& type, const std::string& body,
                        const std::string& extra = {}) {
    return "POST " + path + " HTTP/1.1\r\nHost: test\r\nContent-Type: " + type +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + extra + "\r\n" + body;
}

inline std::string get(const std::string& path, const std::string& method = "GET") {
    return method + " " + path + " HTTP/1.1\r\nHost: test\r\n\r\n";
}

inline const std::string xml = "application/vnd.syncml+xml; charset=UTF-8";

}  // namespace syncml::server::http_testing
