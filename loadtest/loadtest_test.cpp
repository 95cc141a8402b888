#include <gtest/gtest.h>

#include <set>

#include "loadtest/accounts.hpp"
#include "loadtest/contacts.hpp"
#include "loadtest/http_client.hpp"
#include "loadtest/messages.hpp"
#include "loadtest/options.hpp"
#include "loadtest/stats.hpp"
#include "session/codec/codec.hpp"

namespace syncml::loadtest {
namespace {

TEST(loopback_url, accepts_only_loopback_http_targets) {
    auto parts = parse_loopback_url("http://127.0.0.1:18400/sync/t1?s=abc");
    ASSERT_TRUE(parts);
    EXPECT_EQ(parts->host, "127.0.0.1");
    EXPECT_EQ(parts->port, 18400);
    EXPECT_EQ(parts->target, "/sync/t1?s=abc");
    EXPECT_EQ(parse_loopback_url("http://localhost:80")->target, "/");
    EXPECT_FALSE(parse_loopback_url("http://10.0.0.1:8080/sync"));
    EXPECT_FALSE(parse_loopback_url("https://127.0.0.1:8443/sync"));
    EXPECT_FALSE(parse_loopback_url("http://127.0.0.1:0/sync"));
    EXPECT_FALSE(parse_loopback_url("http://127.0.0.1.example.com/sync"));
}

TEST(response_head, reads_status_length_type_and_connection) {
    auto head = parse_response_head(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/vnd.syncml+wbxml\r\n"
        "Content-Length:  42\r\nConnection: close\r\nRetry-After: 1\r\n\r\n");
    ASSERT_TRUE(head);
    EXPECT_EQ(head->status, 503);
    EXPECT_EQ(head->content_type, "application/vnd.syncml+wbxml");
    EXPECT_EQ(head->content_length, 42u);
    EXPECT_TRUE(head->close);
    EXPECT_FALSE(head->chunked);
}

TEST(response_head, rejects_garbage_and_flags_chunked_bodies) {
    EXPECT_FALSE(parse_response_head("SMTP ready\r\n\r\n"));
    EXPECT_FALSE(parse_response_head("HTTP/1.1 2x0 OK\r\n\r\n"));
    EXPECT_FALSE(parse_response_head("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n"));
    auto head = parse_response_head("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
    ASSERT_TRUE(head);
    EXPECT_TRUE(head->chunked);
    EXPECT_FALSE(head->content_length);
}

TEST(contacts, are_deterministic_unique_and_realistically_sized) {
    std::set<std::string> cards;
    for (std::uint64_t serial = 1; serial <= 200; ++serial) {
        const auto card = make_contact("dev-a", serial, 0);
        EXPECT_EQ(card, make_contact("dev-a", serial, 0));
        EXPECT_GE(card.size(), 300u);
        EXPECT_LE(card.size(), 2200u);
        EXPECT_TRUE(card.starts_with("BEGIN:VCARD\r\nVERSION:3.0\r\n"));
        cards.insert(card);
        cards.insert(make_contact("dev-b", serial, 0));
    }
    EXPECT_EQ(cards.size(), 400u);
}

TEST(contacts, revisions_keep_the_name_and_change_the_content) {
    const auto first = make_contact("dev-a", 7, 0);
    const auto second = make_contact("dev-a", 7, 1);
    EXPECT_NE(first, second);
    auto fn = [](const std::string& card) {
        return card.substr(card.find("FN:"), card.find("\r\n", card.find("FN:")));
    };
    EXPECT_EQ(fn(first), fn(second));
}

TEST(latency_summary, uses_nearest_rank_percentiles) {
    std::vector<double> samples;
    for (int i = 100; i >= 1; --i) samples.push_back(i / 1000.0);
    auto s = summarize(samples);
    EXPECT_EQ(s.count, 100u);
    EXPECT_DOUBLE_EQ(s.p50, 0.050);
    EXPECT_DOUBLE_EQ(s.p90, 0.090);
    EXPECT_DOUBLE_EQ(s.p95, 0.095);
    EXPECT_DOUBLE_EQ(s.p99, 0.099);
    EXPECT_DOUBLE_EQ(s.max, 0.100);
    EXPECT_EQ(summarize({}).count, 0u);
}

TEST(run_stats, counts_errors_by_key_and_failed_sessions) {
    run_stats stats;
    stats.message(msg_kind::init, 0.010, 100, 200);
    stats.session(session_kind::slow, false, 0.5, 20, 0);
    stats.error("Add:500");
    stats.error("Add:500");
    stats.error("http:503");
    auto r = stats.make_report(2.0);
    EXPECT_EQ(r.sessions_failed, 1u);
    EXPECT_EQ(r.errors.at("Add:500"), 2u);
    EXPECT_EQ(r.errors.at("http:503"), 1u);
    EXPECT_EQ(r.bytes_up, 100u);
    EXPECT_EQ(r.items_up, 20u);
    EXPECT_EQ(r.per_session[0].count, 0u);  // failed sessions never count as latency samples
}

TEST(options, refuse_unbounded_or_remote_runs) {
    EXPECT_NE(parse_options({"--url", "http://192.168.1.2:8080/sync"}).error, "");
    EXPECT_NE(parse_options({"--duration", "0"}).error, "");
    EXPECT_NE(parse_options({"--duration", "7200"}).error, "");
    EXPECT_NE(parse_options({"--open"}).error, "");
    EXPECT_NE(parse_options({"--encoding", "json"}).error, "");
    auto ok = parse_options({"run", "--url", "http://127.0.0.1:18400/sync", "--open", "--rate", "50", "--auth", "md5",
                             "--encoding", "xml", "--devices", "2"});
    EXPECT_EQ(ok.error, "");
    EXPECT_EQ(ok.options.mode, loop_mode::open);
    EXPECT_EQ(ok.options.phone.auth, auth_kind::md5);
    EXPECT_FALSE(ok.options.phone.exclusive_user);
}

TEST(options, a_stop_file_names_a_path) {
    EXPECT_NE(parse_options({"--stop-file", ""}).error, "");
    auto ok = parse_options({"--stop-file", "/tmp/load.stop", "--duration", "600"});
    ASSERT_EQ(ok.error, "");
    EXPECT_EQ(ok.options.stop_file, "/tmp/load.stop");
}

TEST(accounts, create_every_tenant_before_its_users) {
    auto parsed = parse_options({"accounts", "--tenants", "2", "--users", "3", "--prefix", "x", "--server", "srv"});
    ASSERT_EQ(parsed.error, "");
    auto commands = account_commands(parsed.options);
    ASSERT_EQ(commands.size(), 8u);
    EXPECT_EQ(commands[0],
              (std::vector<std::string>{"srv", "admin", "tenant", "add", "x-t0", "--max-sessions", "100"}));
    EXPECT_EQ(commands[7], (std::vector<std::string>{"srv", "admin", "user", "add", "--tenant", "x-t1", "--user",
                                                     "x-u1-2", "--password", "pw"}));
}

TEST(messages, package1_round_trips_through_both_encodings) {
    header_fields fields{"5", "1", "http://127.0.0.1:1/sync/t", "dev-1", "alice", 150000};
    for (auto encoding : {session::wire_encoding::xml, session::wire_encoding::wbxml}) {
        auto m = new_message(fields, encoding);
        m.header.cred = md5_credentials("alice", "secret", "nonce");
        m.body.commands.push_back(devinf_put("1", "dev-1", encoding));
        m.body.final = true;
        auto decoded = session::decode(session::encode(m, encoding));
        ASSERT_TRUE(decoded) << decoded.error().describe();
        EXPECT_EQ(decoded.value().encoding, encoding);
        EXPECT_EQ(decoded.value().header.source.loc_name, "alice");
        const auto& put = std::get<session::put>(decoded.value().body.commands.at(0).value);
        EXPECT_EQ(put.items.at(0).data->devinf->dev_id, "dev-1");
    }
}

TEST(messages, md5_credentials_depend_on_the_nonce) {
    EXPECT_NE(md5_credentials("u", "p", "n1").data, md5_credentials("u", "p", "n2").data);
    EXPECT_EQ(md5_credentials("u", "p", "n1").data, md5_credentials("u", "p", "n1").data);
    EXPECT_EQ(basic_credentials("u", "p").data, "dTpw");
}

}  // namespace
}  // namespace syncml::loadtest
