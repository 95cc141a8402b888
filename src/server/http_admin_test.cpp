// The admin listener over real loopback sockets, with a fake admin API: what reaches it, what comes back, the body
// limit, and that the admin API and SyncML stay on their own ports.
#include <mutex>

#include "src/server/http_server.hpp"
#include "src/server/http_test_support.hpp"

namespace syncml::server {
namespace {

using namespace http_testing;

class fake_admin : public admin_dispatcher {
  public:
    std::optional<http_reply> answer_now(const admin_api_request& request) override {
        if (request.target == "/admin/now") return admin_error_reply(418, "decided by the head");
        return std::nullopt;
    }
    // Answers on the calling thread, as a worker would on its own.
    bool submit(admin_api_request request, completion done) override {
        if (!accept) return false;
        {
            std::lock_guard lock(mutex);
            seen.push_back(request);
        }
        http_reply reply;
        reply.status = 201;
        reply.content_type = "application/json";
        reply.body = "{\"echo\":" + std::to_string(request.body.size()) + "}";
        done(std::move(reply));
        return true;
    }

    std::atomic<bool> accept{true};
    std::mutex mutex;
    std::vector<admin_api_request> seen;
};

server_config with_admin() {
    server_config config = test_config();
    config.admin.listen = endpoint{"127.0.0.1", 0};
    config.admin.allowed_hosts = {"test"};  // what the test client sends
    return config;
}

TEST(http_admin, requests_reach_the_admin_api_with_method_target_token_and_body) {
    fake_admin admin;
    running_server s(with_admin(), &admin);
    ASSERT_NE(s.server.admin_port(), 0);
    client c(s.server.admin_port());
    auto r = c.request(
        post("/admin/v1/tenants?x=1", "application/json", "{\"name\":\"a\"}", "Authorization: Bearer t0k\r\n"));
    EXPECT_EQ(r.status, 201);
    EXPECT_EQ(r.body, "{\"echo\":12}");
    EXPECT_TRUE(r.has_header("Content-Type: application/json"));
    ASSERT_EQ(admin.seen.size(), 1u);
    EXPECT_EQ(admin.seen[0].method, "POST");
    EXPECT_EQ(admin.seen[0].target, "/admin/v1/tenants?x=1");
    EXPECT_EQ(admin.seen[0].authorization, "Bearer t0k");
    EXPECT_EQ(admin.seen[0].content_type, "application/json");
    EXPECT_EQ(admin.seen[0].body, "{\"name\":\"a\"}");
    EXPECT_EQ(c.request(get("/admin/now")).status, 418);  // keep-alive, and answered without a worker
    EXPECT_EQ(admin.seen.size(), 1u);
    EXPECT_EQ(c.request(get("/healthz")).status, 200);
}

TEST(http_admin, a_body_over_64_kib_is_413_before_it_is_read) {
    fake_admin admin;
    running_server s(with_admin(), &admin);
    client c(s.server.admin_port());
    auto r = c.request(post("/admin/v1/tenants", "application/json", std::string(k_admin_body_limit + 1, 'x')));
    EXPECT_EQ(r.status, 413);
    EXPECT_NE(r.body.find("\"error\""), std::string::npos);
    EXPECT_TRUE(c.closed_by_peer());
    EXPECT_TRUE(admin.seen.empty());
}

TEST(http_admin, a_full_queue_is_503_with_retry_after) {
    fake_admin admin;
    admin.accept = false;
    running_server s(with_admin(), &admin);
    client c(s.server.admin_port());
    auto r = c.request(get("/admin/v1/tenants"));
    EXPECT_EQ(r.status, 503);
    EXPECT_TRUE(r.has_header("Retry-After: 1"));
}

TEST(http_admin, the_admin_api_and_syncml_keep_to_their_own_ports) {
    fake_admin admin;
    running_server s(with_admin(), &admin);
    EXPECT_EQ(client(s.server.sync_port()).request(get("/admin/v1/tenants")).status, 404);
    EXPECT_EQ(client(s.server.metrics_port()).request(get("/admin/v1/tenants")).status, 404);
    EXPECT_EQ(client(s.server.admin_port()).request(post("/sync", xml, "<SyncML/>")).status, 404);
    EXPECT_TRUE(admin.seen.empty());
    EXPECT_TRUE(s.dispatcher.seen.empty());
}

TEST(http_admin, a_host_name_not_allowed_is_421_before_the_api_sees_the_request) {
    fake_admin admin;
    server_config config = with_admin();
    config.admin.allowed_hosts.clear();  // the default: loopback names and the address dialled
    running_server s(config, &admin);
    client rebound(s.server.admin_port());
    const auto refused =
        rebound.request("POST /admin/tenants HTTP/1.1\r\nHost: evil.example:" + std::to_string(s.server.admin_port()) +
                        "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
    EXPECT_EQ(refused.status, 421);
    EXPECT_EQ(refused.body, "{\"error\":\"this server does not answer for that host name\"}\n");
    client local(s.server.admin_port());
    const auto served =
        local.request("POST /admin/tenants HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(s.server.admin_port()) +
                      "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
    EXPECT_EQ(served.status, 201);
    std::lock_guard lock(admin.mutex);
    EXPECT_EQ(admin.seen.size(), 1u);
}

TEST(http_admin, the_admin_listener_is_off_unless_configured) {
    running_server s;
    EXPECT_EQ(s.server.admin_port(), 0);
}

}  // namespace
}  // namespace syncml::server
