// The front end over real loopback sockets, with a fake dispatcher instead of the worker pool.
#include "src/http_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace syncml::server {
namespace {

class fake_dispatcher : public sync_dispatcher {
  public:
    ~fake_dispatcher() override {
        release();
        for (auto& t : threads_) t.join();
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
    bool ready(std::string& reason) const override {
        reason = "database unreachable";
        return ok;
    }
    std::atomic<bool> ok{true};
};

server_config test_config() {
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
    explicit running_server(server_config settings = test_config())
        : config(std::move(settings)),
          log("test", std::make_shared<spdlog::sinks::null_sink_mt>()),
          metrics(registry, "test"),
          server(config, {dispatcher, readiness, metrics, registry, log}) {
        server.start();
        runner = std::thread([this] { server.run(false); });
    }
    ~running_server() {
        server.stop();
        runner.join();
    }
    server_config config;
    fake_dispatcher dispatcher;
    fake_readiness readiness;
    prometheus::Registry registry;
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
    explicit client(std::uint16_t port) {
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
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

std::string post(const std::string& path, const std::string& type, const std::string& body,
                 const std::string& extra = {}) {
    return "POST " + path + " HTTP/1.1\r\nHost: test\r\nContent-Type: " + type +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + extra + "\r\n" + body;
}

std::string get(const std::string& path, const std::string& method = "GET") {
    return method + " " + path + " HTTP/1.1\r\nHost: test\r\n\r\n";
}

const std::string xml = "application/vnd.syncml+xml; charset=UTF-8";

TEST(http_server, probes_answer_on_both_listeners) {
    running_server s;
    for (auto port : {s.server.sync_port(), s.server.metrics_port()}) {
        client c(port);
        auto health = c.request(get("/healthz"));
        EXPECT_EQ(health.status, 200);
        EXPECT_EQ(health.body, "ok\n");
        EXPECT_EQ(c.request(get("/readyz")).status, 200);
        s.readiness.ok = false;
        auto not_ready = c.request(get("/readyz"));
        EXPECT_EQ(not_ready.status, 503);
        EXPECT_NE(not_ready.body.find("database unreachable"), std::string::npos);
        s.readiness.ok = true;
    }
}

TEST(http_server, sync_request_reaches_the_dispatcher_and_its_answer_comes_back) {
    running_server s;
    client c(s.server.sync_port());
    auto r = c.request(post("/sync/acme?s=1", "application/vnd.syncml+wbxml", "hello"));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, "echo:hello");
    EXPECT_TRUE(r.has_header("Content-Type: application/vnd.syncml+xml"));
    ASSERT_EQ(s.dispatcher.seen.size(), 1u);
    EXPECT_EQ(s.dispatcher.seen[0].tenant, "acme");
    EXPECT_EQ(s.dispatcher.seen[0].url, "/sync/acme?s=1");
    EXPECT_EQ(s.dispatcher.seen[0].host, "test");
    EXPECT_EQ(s.dispatcher.seen[0].encoding, session::wire_encoding::wbxml);
    EXPECT_TRUE(s.dispatcher.seen[0].remote_addr.starts_with("127.0.0.1:"));
}

TEST(http_server, keeps_the_connection_alive_across_requests) {
    running_server s;
    client c(s.server.sync_port());
    EXPECT_EQ(c.request(post("/sync", xml, "one")).body, "echo:one");
    EXPECT_EQ(c.request(get("/healthz")).status, 200);
    EXPECT_EQ(c.request(post("/sync", xml, "two")).body, "echo:two");
}

TEST(http_server, answers_404_405_415_and_keeps_serving) {
    running_server s;
    client c(s.server.sync_port());
    EXPECT_EQ(c.request(get("/nowhere")).status, 404);
    auto wrong_method = c.request(get("/sync"));
    EXPECT_EQ(wrong_method.status, 405);
    EXPECT_TRUE(wrong_method.has_header("Allow: POST"));
    client d(s.server.sync_port());
    EXPECT_EQ(d.request(post("/sync", "text/plain", "x")).status, 415);
    EXPECT_TRUE(d.closed_by_peer());  // the unread body makes the connection unusable
    client e(s.server.metrics_port());
    EXPECT_EQ(e.request(get("/metrics")).status, 200);
    EXPECT_EQ(e.request(post("/sync", xml, "")).status, 404);
}

TEST(http_server, oversized_body_is_413_and_closes) {
    running_server s;
    client c(s.server.sync_port());
    auto r = c.request(post("/sync", xml, std::string(5000, 'x')));
    EXPECT_EQ(r.status, 413);
    EXPECT_TRUE(c.closed_by_peer());
    EXPECT_TRUE(s.dispatcher.seen.empty());
}

TEST(http_server, oversized_chunked_body_is_413) {
    running_server s;
    client c(s.server.sync_port());
    std::string chunk(3000, 'x');
    c.send_text("POST /sync HTTP/1.1\r\nHost: t\r\nContent-Type: " + xml +
                "\r\nTransfer-Encoding: chunked\r\n\r\nbb8\r\n" + chunk + "\r\nbb8\r\n" + chunk + "\r\n0\r\n\r\n");
    EXPECT_EQ(c.read_response().status, 413);
}

TEST(http_server, oversized_header_is_431) {
    running_server s;
    client c(s.server.sync_port());
    auto r = c.request("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(3000, 'y') + "\r\n\r\n");
    EXPECT_EQ(r.status, 431);
}

TEST(http_server, full_queue_is_503_with_retry_after) {
    running_server s;
    s.dispatcher.accept = false;
    client c(s.server.sync_port());
    auto r = c.request(post("/sync", xml, "x"));
    EXPECT_EQ(r.status, 503);
    EXPECT_TRUE(r.has_header("Retry-After: 1"));
    s.dispatcher.accept = true;
    EXPECT_EQ(c.request(post("/sync", xml, "y")).status, 200);
}

TEST(http_server, handler_failure_is_500_and_database_outage_is_503) {
    running_server s;
    s.dispatcher.respond = [](const session::sync_request& r) {
        sync_outcome outcome;
        outcome.result = r.body == "db" ? sync_outcome::kind::database_unavailable : sync_outcome::kind::failed;
        return outcome;
    };
    client c(s.server.sync_port());
    EXPECT_EQ(c.request(post("/sync", xml, "bug")).status, 500);
    auto outage = c.request(post("/sync", xml, "db"));
    EXPECT_EQ(outage.status, 503);
    EXPECT_TRUE(outage.has_header("Retry-After: 5"));
    EXPECT_EQ(c.request(get("/healthz")).status, 200);
}

TEST(http_server, answers_expect_100_continue_before_reading_the_body) {
    running_server s;
    client c(s.server.sync_port());
    c.send_text("POST /sync HTTP/1.1\r\nHost: t\r\nContent-Type: " + xml +
                "\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n");
    EXPECT_EQ(c.read_response().status, 100);
    c.send_text("body");
    auto r = c.read_response();
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, "echo:body");
}

TEST(http_server, head_request_has_headers_but_no_body) {
    running_server s;
    client c(s.server.sync_port());
    c.send_text(get("/healthz", "HEAD"));
    auto r = c.read_response(true);
    EXPECT_EQ(r.status, 200);
    EXPECT_TRUE(r.has_header("Content-Length: 3"));
    EXPECT_EQ(c.request(get("/healthz")).body, "ok\n");  // nothing stray was left on the connection
}

TEST(http_server, metrics_count_requests_by_route_and_status) {
    running_server s;
    client c(s.server.sync_port());
    c.request(post("/sync", xml, "x"));
    c.request(get("/nowhere"));
    client m(s.server.metrics_port());
    // Counters are updated right after the response is written, so the client may be a moment ahead.
    std::string text;
    for (int attempt = 0; attempt < 50; ++attempt) {
        text = m.request(get("/metrics")).body;
        if (text.find("status=\"404\"") != std::string::npos) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_NE(text.find("syncml_http_requests_total{route=\"sync\",status=\"200\"} 1"), std::string::npos) << text;
    EXPECT_NE(text.find("syncml_http_requests_total{route=\"unmatched\",status=\"404\"} 1"), std::string::npos);
    EXPECT_NE(text.find("syncml_http_request_bytes_total{route=\"sync\"} 1"), std::string::npos);
}

TEST(http_server, idle_and_slow_connections_are_closed_after_their_timeouts) {
    server_config config = test_config();
    config.http.idle_timeout = std::chrono::milliseconds(300);
    config.http.read_timeout = std::chrono::milliseconds(300);
    running_server s(config);
    client idle(s.server.sync_port());
    EXPECT_EQ(idle.request(get("/healthz")).status, 200);
    client slow(s.server.sync_port());
    slow.send_text("POST /sync HTTP/1.1\r\nHost: t\r\nContent-Type: " + xml + "\r\nContent-Length: 10\r\n\r\nab");
    const auto started = std::chrono::steady_clock::now();
    EXPECT_TRUE(idle.closed_by_peer());
    EXPECT_TRUE(slow.closed_by_peer());
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(3));
    EXPECT_TRUE(s.dispatcher.seen.empty());
}

TEST(http_server, stop_finishes_in_flight_requests_and_closes_idle_connections) {
    auto s = std::make_unique<running_server>();
    client idle(s->server.sync_port());
    EXPECT_EQ(idle.request(get("/healthz")).status, 200);
    s->dispatcher.hold();
    client busy(s->server.sync_port());
    busy.send_text(post("/sync", xml, "late"));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    s->server.stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_TRUE(idle.closed_by_peer());
    s->dispatcher.release();
    auto r = busy.read_response();
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, "echo:late");
    EXPECT_TRUE(r.has_header("Connection: close"));
    s.reset();  // run() returned: the destructor joins without hanging
}

}  // namespace
}  // namespace syncml::server
