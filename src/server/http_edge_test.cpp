// The listener under a flood (issue 35): the per-address connection cap, the header timeout and the body budget.
#include <gtest/gtest.h>

#include "src/server/http_test_support.hpp"

namespace syncml::server {
namespace {

using namespace http_testing;
using std::chrono::milliseconds;

bool metric_shows(const running_server& s, const std::string& line) {
    return serialize_metrics(s.registry).find(line) != std::string::npos;
}

TEST(http_edge, a_flood_from_one_address_leaves_room_for_other_clients_and_the_probes) {
    server_config config = test_config();
    config.http.max_connections = 100;
    config.http.max_connections_per_address = 3;
    running_server s(config);
    std::vector<std::unique_ptr<client>> flood;
    for (int i = 0; i < 3; ++i) {
        flood.push_back(std::make_unique<client>(s.server.sync_port()));
        EXPECT_EQ(flood.back()->request(get("/healthz")).status, 200);
    }
    client refused(s.server.sync_port());
    EXPECT_TRUE(refused.closed_by_peer());
    EXPECT_TRUE(s.logged("connection limit per address reached listener=sync address=127.0.0.1 limit=3 refused=1"));
    EXPECT_TRUE(metric_shows(s, "syncml_http_connections_refused_per_address_total{listener=\"sync\"} 1"));
    EXPECT_TRUE(metric_shows(s, "syncml_http_connections_refused_total{listener=\"sync\"} 0"));
    client other_host(s.server.sync_port(), "127.0.0.2");
    EXPECT_EQ(other_host.request(post("/sync", xml, "mine")).body, "echo:mine");
    client probe(s.server.metrics_port());
    EXPECT_EQ(probe.request(get("/healthz")).status, 200);
}

TEST(http_edge, a_trusted_proxy_is_not_held_to_the_per_address_cap) {
    server_config config = test_config();
    config.http.max_connections_per_address = 1;
    config.http.trusted_proxies.push_back(*common::parse_ip_network("127.0.0.1"));
    running_server s(config);
    client first(s.server.sync_port());
    client second(s.server.sync_port());
    EXPECT_EQ(first.request(get("/healthz")).status, 200);
    EXPECT_EQ(second.request(get("/healthz")).status, 200);
}

TEST(http_edge, a_connection_that_sends_no_head_or_dribbles_it_is_closed_after_the_header_timeout) {
    server_config config = test_config();
    config.http.header_timeout = milliseconds(300);
    config.http.idle_timeout = std::chrono::seconds(5);
    running_server s(config);
    client silent(s.server.sync_port());
    client dribbling(s.server.sync_port());
    dribbling.send_text("GET /heal");
    const auto started = std::chrono::steady_clock::now();
    EXPECT_TRUE(silent.closed_by_peer());
    EXPECT_TRUE(dribbling.closed_by_peer());
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
}

TEST(http_edge, a_kept_alive_connection_waits_the_idle_timeout_not_the_header_timeout) {
    server_config config = test_config();
    config.http.header_timeout = milliseconds(200);
    config.http.idle_timeout = std::chrono::seconds(5);
    running_server s(config);
    client kept(s.server.sync_port());
    EXPECT_EQ(kept.request(get("/healthz")).status, 200);
    std::this_thread::sleep_for(milliseconds(600));
    EXPECT_EQ(kept.request(get("/healthz")).status, 200);
    kept.send_text("GET /heal");  // once a request starts, its head has header_timeout again
    EXPECT_TRUE(kept.closed_by_peer());
}

// Issue 35: an address that spent its budget of password checks and unknown sessions gets 503 before its request
// takes a place in the worker queue; a session's message with its RespURI token and other addresses go on.
TEST(http_edge, an_address_that_spent_its_login_budget_is_refused_before_its_request_is_queued) {
    auth::login_guard guard({.budget = {.per_second = 0.001, .burst = 1, .max_clients = 10}, .hashes = {}});
    guard.budget().charge("127.0.0.1", 2);
    running_server s(test_config(), nullptr, &guard);
    client spent(s.server.sync_port());
    const auto refused = spent.request(post("/sync", xml, "guess"));
    EXPECT_EQ(refused.status, 503);
    EXPECT_NE(refused.head.find("Retry-After: "), std::string::npos) << refused.head;
    EXPECT_EQ(spent.request(post("/sync?s=7-0123", xml, "mine")).body, "echo:mine");
    client other(s.server.sync_port(), "127.0.0.2");
    EXPECT_EQ(other.request(post("/sync", xml, "theirs")).body, "echo:theirs");
    s.dispatcher.join();
    EXPECT_EQ(s.dispatcher.seen.size(), 2u) << "the refused request never reached the queue";
}

server_config budget_config() {
    server_config config = test_config();
    config.http.body_limit = 4096;
    config.http.body_budget = 6000;
    return config;
}

std::string announced(std::size_t length, const std::string& start) {
    return "POST /sync HTTP/1.1\r\nHost: t\r\nContent-Type: " + xml + "\r\nContent-Length: " + std::to_string(length) +
           "\r\n\r\n" + start;
}

TEST(http_edge, a_body_that_does_not_fit_the_budget_is_503_with_retry_after_before_it_is_read) {
    running_server s(budget_config());
    client slow(s.server.sync_port());
    slow.send_text(announced(4000, "ab"));
    std::this_thread::sleep_for(milliseconds(200));
    client next(s.server.sync_port(), "127.0.0.2");
    // Only the head: the body would be left unread, and unread data turns the server's close into a reset.
    const auto refused = next.request(announced(4000, ""));
    EXPECT_EQ(refused.status, 503);
    EXPECT_TRUE(refused.has_header("Retry-After: 1"));
    EXPECT_TRUE(refused.has_header("Connection: close"));
    EXPECT_TRUE(metric_shows(s, "syncml_http_body_budget_refusals_total 1"));
    slow.send_text(std::string(3998, 'y'));
    EXPECT_EQ(slow.read_response().status, 200);
    client later(s.server.sync_port(), "127.0.0.3");  // the finished body gave its bytes back
    EXPECT_EQ(later.request(announced(4000, std::string(4000, 'z'))).status, 200);
    s.dispatcher.join();
    EXPECT_EQ(s.dispatcher.seen.size(), 2u);
}

TEST(http_edge, a_chunked_body_is_refused_when_its_chunks_outgrow_the_budget) {
    running_server s(budget_config());
    client slow(s.server.sync_port());
    slow.send_text(announced(4000, "ab"));
    std::this_thread::sleep_for(milliseconds(200));
    client chunked(s.server.sync_port(), "127.0.0.2");
    const auto refused =
        chunked.request("POST /sync HTTP/1.1\r\nHost: t\r\nContent-Type: " + xml +
                        "\r\nTransfer-Encoding: chunked\r\n\r\n400\r\n" + std::string(1024, 'c') + "\r\n800\r\n");
    EXPECT_EQ(refused.status, 503);
    EXPECT_TRUE(refused.has_header("Retry-After: 1"));
}

}  // namespace
}  // namespace syncml::server
