#pragma once
// For persistence tests only: a migrated database with tenant "acme" and its user "u", and helpers to run sync store
// transactions and to build session rows and messages (sync_store_session_test.cpp, device_store_opening_test.cpp).

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/test_support.hpp"
#include "persistence/sync/sync_store.hpp"

namespace syncml::persistence {

class sync_store_session_test : public testing::migrated_database_test {
  protected:
    void SetUp() override {
        migrated_database_test::SetUp();
        if (IsSkipped()) return;
        tenant_ = add_tenant(*db_, "acme").id;
        user_ = add_user(*db_, "acme", "u", "pw").id;
    }

    // A transaction of user_'s (tx) or of another user's (tx_of).
    template <class Fn>
    void tx(Fn&& fn) {
        tx_of(user_, std::forward<Fn>(fn));
    }
    template <class Fn>
    void tx_of(std::int64_t user, Fn&& fn) {
        ASSERT_TRUE(run_sync_transaction(*db_, user, [&](sync_store& store) { fn(store); }));
    }

    // A session row of device "phone" as save_session leaves it, created `age` ago, of user_ or another user.
    void add_session(const std::string& session_id, bool of_user, std::chrono::seconds age) {
        const auto user = of_user ? user_ : add_user(*db_, "acme", "other-" + session_id, "pw").id;
        in_transaction(*db_, [&](pqxx::work& tx) {
            tx.exec_params0(
                "INSERT INTO sessions (tenant_id, device_uri, syncml_session_id, user_id, created_at, expires_at, "
                "last_msg_id) VALUES ($1, 'phone', $2, $3, now() - make_interval(secs => $4), "
                "now() + interval '30 minutes', '1')",
                tenant_, session_id, user, static_cast<double>(age.count()));
        });
    }

    bool superseded(const std::string& session_id) {
        bool result = false;
        tx([&](sync_store& s) {
            auto rec = s.lock_session(tenant_, "phone", session_id);
            result = rec && rec->superseded;
        });
        return result;
    }

    std::string sql_value(const std::string& query) {
        return in_transaction(*db_, [&](pqxx::work& tx) { return tx.exec1(query)[0].as<std::string>("NULL"); });
    }

    // A message of "phone" from 192.0.2.1, where a session may continue by address for 5 minutes.
    message_session message_of(const std::string& session_id, const std::string& msg_id, std::int64_t user,
                               std::optional<std::int64_t> key = std::nullopt, const std::string& address = "192.0.2.1",
                               const std::string& device = "phone") {
        message_session m;
        m.device_uri = device;
        m.session_id = session_id;
        m.key = key;
        m.key_user = key ? user_ : 0;  // a token names the session's user with its key
        m.msg_id = msg_id;
        m.user = user;
        m.address = address;
        m.address_idle = std::chrono::minutes(5);
        return m;
    }

    // Session `session_id` of device "phone", saved with `state` after answering MsgID 1, of user_.
    void save_session_of_user(sync_store& s, const std::string& session_id, const std::string& state) {
        auto rec = s.open_session(tenant_, "phone", session_id);
        rec.user_id = user_;
        rec.state = state;
        rec.last_msg_id = "1";
        s.save_session(tenant_, rec);
    }

    std::int64_t tenant_ = 0;
    std::int64_t user_ = 0;
};

}  // namespace syncml::persistence
