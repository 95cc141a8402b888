// The front end over real loopback sockets, with a fake dispatcher instead of the worker pool.
#include "src/server/http_server.hpp"

#include "src/server/http_test_support.hpp"

namespace syncml::server {
namespace {

using namespace http_testing;

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
        EXPECT_TRUE(not_ready.body.starts_with("not ready"));
        s.readiness.ok = true;
    }
}

TEST(http_server, readyz_on_the_public_port_gives_no_database_error_text) {
    running_server s;
    s.readiness.reason = "database error: FATAL: password authentication failed for user \"syncml\" at db.internal";
    s.readiness.ok = false;
    client pub(s.server.sync_port());
    auto r = pub.request(get("/readyz"));
    EXPECT_EQ(r.status, 503);
    EXPECT_EQ(r.body, "not ready\n");
    client operator_port(s.server.metrics_port());
    auto detailed = operator_port.request(get("/readyz"));
    EXPECT_EQ(detailed.status, 503);
    EXPECT_NE(detailed.body.find("password authentication failed"), std::string::npos);
}

// What the dispatcher saw of one sync request sent with the given extra header lines.
session::sync_request sent_with(running_server& s, const std::string& headers) {
    client c(s.server.sync_port());
    EXPECT_EQ(c.request(post("/sync", xml, "x", headers)).status, 200);
    EXPECT_EQ(s.dispatcher.seen.size(), 1u);
    return s.dispatcher.seen.empty() ? session::sync_request{} : s.dispatcher.seen.back();
}

const std::string proxy_headers =
    "X-Forwarded-For: 198.51.100.1, 203.0.113.9\r\nX-Forwarded-Proto: https\r\n"
    "X-Forwarded-Host: evil.example\r\n";

TEST(http_server, forwarded_headers_and_host_of_an_untrusted_peer_are_ignored) {
    running_server s;
    const auto job = sent_with(s, proxy_headers);
    EXPECT_EQ(job.remote_addr, "127.0.0.1");
    EXPECT_EQ(job.public_base, "http://127.0.0.1:" + std::to_string(s.server.sync_port()));
}

TEST(http_server, a_trusted_proxy_names_the_client_and_the_public_address) {
    server_config config = test_config();
    config.http.trusted_proxies = {*common::parse_ip_network("127.0.0.0/8")};
    running_server s(config);
    const auto job = sent_with(s, proxy_headers);
    EXPECT_EQ(job.remote_addr, "203.0.113.9");
    EXPECT_EQ(job.public_base, "https://evil.example");
}

TEST(http_server, public_url_wins_over_a_trusted_proxys_host) {
    server_config config = test_config();
    config.http.trusted_proxies = {*common::parse_ip_network("127.0.0.1")};
    config.http.public_url = "https://sync.example.com";
    running_server s(config);
    const auto job = sent_with(s, proxy_headers);
    EXPECT_EQ(job.public_base, "https://sync.example.com");
    EXPECT_EQ(job.remote_addr, "203.0.113.9");
}

TEST(http_server, connections_beyond_the_limit_are_closed_at_once_and_logged) {
    server_config config = test_config();
    config.http.max_connections = 2;
    running_server s(config);
    auto first = std::make_unique<client>(s.server.sync_port());
    client second(s.server.sync_port());
    EXPECT_EQ(first->request(get("/healthz")).status, 200);
    EXPECT_EQ(second.request(get("/healthz")).status, 200);
    client third(s.server.sync_port());
    EXPECT_TRUE(third.closed_by_peer());  // nothing sent: data unread at close would turn the FIN into a RST
    EXPECT_TRUE(s.logged("connection limit reached listener=sync limit=2 refused=1"));
    EXPECT_NE(serialize_metrics(s.registry).find("syncml_http_connections_refused_total{listener=\"sync\"} 1"),
              std::string::npos);
    client metrics(s.server.metrics_port());  // each listener has its own limit
    EXPECT_EQ(metrics.request(get("/healthz")).status, 200);
    first.reset();
    // The server notices the close on its own schedule: a place frees up after a bounded number of tries.
    bool served = false;
    for (int attempt = 0; attempt < 100 && !served; ++attempt) {
        client again(s.server.sync_port());
        served = again.request(get("/healthz")).status == 200;
        if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(served);
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
    EXPECT_EQ(s.dispatcher.seen[0].remote_addr, "127.0.0.1");
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
