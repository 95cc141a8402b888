#pragma once
// The fixture of the sync_service tests: a real PostgreSQL (SYNCML_TEST_DATABASE_URL), a tenant per test with
// user u1 (password pw), and messages as a phone sends them.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "common/crypto/base64.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/migrations.hpp"
#include "session/codec/codec.hpp"
#include "session/protocol/auth.hpp"
#include "session/service/sync_service.hpp"

namespace syncml::session::testing {

// Against a real PostgreSQL (SYNCML_TEST_DATABASE_URL); each test uses its own tenant.
class sync_service_test : public ::testing::Test {
  protected:
    void SetUp() override {
        const char* url = std::getenv("SYNCML_TEST_DATABASE_URL");
        if (!url || !*url) GTEST_SKIP() << "SYNCML_TEST_DATABASE_URL is not set";
        db_ = std::make_unique<persistence::database>(url);
        persistence::apply_migrations(*db_);
        static int counter = 0;
        tenant_ = "svc" + std::to_string(getpid()) + "x" + std::to_string(counter++);
        persistence::add_tenant(*db_, tenant_);
        persistence::add_user(*db_, tenant_, "u1", "pw");
    }

    message blank(const std::string& device, const std::string& msg_id) {
        message m;
        m.header.ver_dtd = "1.2";
        m.header.ver_proto = "SyncML/1.2";
        m.header.session_id = "1";
        m.header.msg_id = msg_id;
        m.header.target.loc_uri = "http://h/sync/" + tenant_;
        m.header.source.loc_uri = device;
        m.body.final = true;
        return m;
    }

    message alert_message(const std::string& device) {
        auto m = blank(device, "1");
        m.header.cred = credentials{meta_info{}, common::base64_encode("u1:pw")};
        m.header.cred->meta->type = "syncml:auth-basic";
        alert a;
        a.cmd_id = "1";
        a.data = "201";
        item it;
        it.target = location{"contacts", std::nullopt, std::nullopt};
        it.source = location{"./c", std::nullopt, std::nullopt};
        it.meta = meta_info{};
        it.meta->anchor = sync_anchor{std::nullopt, std::string("n1")};
        a.items.push_back(it);
        m.body.commands.push_back(command{a});
        return m;
    }

    message sync_message(const std::string& device, int count) {
        auto m = blank(device, "2");
        sync s;
        s.cmd_id = "1";
        s.target = location{"contacts", std::nullopt, std::nullopt};
        s.source = location{"./c", std::nullopt, std::nullopt};
        for (int i = 0; i < count; ++i) {
            item it;
            it.source = location{std::to_string(i), std::nullopt, std::nullopt};
            it.meta = meta_info{};
            it.meta->type = "text/vcard";
            auto name = "Person" + std::to_string(i);
            it.data = item_data{"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:" + name + "\r\nN:;" + name + ";;;\r\nEND:VCARD\r\n",
                                std::nullopt, std::nullopt};
            add a;
            a.cmd_id = std::to_string(i + 2);
            a.items.push_back(it);
            s.commands.push_back(command{a});
        }
        m.body.commands.push_back(command{s});
        return m;
    }

    // From the client address 192.0.2.1 unless another is given.
    sync_response post(sync_service& service, const message& m, const std::string& url,
                       const std::string& address = "192.0.2.1") {
        sync_request request;
        request.tenant = tenant_;
        request.url = url;
        request.host = "h";
        request.remote_addr = address;
        request.body = encode(m, wire_encoding::xml);
        return service.handle(request, *db_);
    }

    template <class Change>
    void change_tenant(Change&& change) {
        auto tenant = persistence::find_tenant(*db_, tenant_).value();
        change(tenant.settings);
        persistence::update_tenant(*db_, tenant_, tenant.settings);
    }

    // The tenant's opt-in for phones that ignore RespURI: a session goes on from the address that authenticated it.
    void allow_address_continuation() {
        change_tenant(
            [](persistence::tenant_settings& s) { s.binding = persistence::session_binding::token_or_address; });
    }

    // The path of a reply's RespURI: its token continues the session without credentials.
    static std::string resp_path(const message& reply) {
        EXPECT_TRUE(reply.header.resp_uri);
        if (!reply.header.resp_uri) return {};
        return reply.header.resp_uri->substr(reply.header.resp_uri->find("/sync"));
    }

    static message decoded(const sync_response& response) {
        auto result = decode(response.body);
        EXPECT_TRUE(result) << response.http_status << " " << response.body;
        return result ? result.value() : message{};
    }

    static std::vector<std::string> status_codes(const message& m, const std::string& cmd) {
        std::vector<std::string> out;
        for (const auto& c : m.body.commands) {
            if (auto* s = std::get_if<status>(&c.value); s && s->cmd == cmd) out.push_back(s->data);
        }
        return out;
    }

    static std::size_t server_adds(const message& m) {
        for (const auto& c : m.body.commands) {
            if (auto* s = std::get_if<sync>(&c.value)) return s->commands.size();
        }
        return 0;
    }

    std::unique_ptr<persistence::database> db_;
    std::string tenant_;
};

inline message with_session(message m, const std::string& session_id, const std::string& msg_id) {
    m.header.session_id = session_id;
    m.header.msg_id = msg_id;
    return m;
}

// A phone's message 2 of session 7 without Cred: what the decisions before the engine look at.
inline message second_message() {
    message m;
    m.header.session_id = "7";
    m.header.msg_id = "2";
    m.header.source.loc_uri = "IMEI:1";
    return m;
}

inline bool has_retry_after(const sync_response& response) {
    for (const auto& [name, value] : response.headers) {
        if (name == "Retry-After" && !value.empty()) return true;
    }
    return false;
}

}  // namespace syncml::session::testing
