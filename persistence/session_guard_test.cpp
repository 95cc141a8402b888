#include "persistence/session_guard.hpp"

#include <gtest/gtest.h>

#include <future>

#include "persistence/accounts.hpp"
#include "persistence/migrations.hpp"
#include "persistence/test_support.hpp"

namespace syncml::persistence {
namespace {

using namespace std::chrono_literals;

class session_guard_test : public testing::database_test {
  protected:
    void SetUp() override {
        testing::database_test::SetUp();
        if (IsSkipped()) return;
        db_ = std::make_unique<database>(url());
        apply_migrations(*db_);
        tenant_ = add_tenant(*db_, "acme").id;
        user_ = add_user(*db_, "acme", "u", "pw").id;
    }

    // A session row of device "phone" as save_session leaves it, created `age` ago.
    void add_session(const std::string& session_id, bool authenticated, std::chrono::seconds age) {
        in_transaction(*db_, [&](pqxx::work& tx) {
            tx.exec_params0(
                "INSERT INTO sessions (tenant_id, device_uri, syncml_session_id, user_id, created_at, expires_at, "
                "last_msg_id) VALUES ($1, 'phone', $2, NULLIF($3::bigint, 0), now() - make_interval(secs => $4), "
                "now() + interval '30 minutes', '1')",
                tenant_, session_id, authenticated ? user_ : std::int64_t{0}, static_cast<double>(age.count()));
        });
    }

    std::unique_ptr<database> db_;
    std::int64_t tenant_ = 0;
    std::int64_t user_ = 0;
};

TEST_F(session_guard_test, a_newer_authenticated_session_of_the_device_supersedes_an_older_one) {
    pg_session_guard guard(*db_);
    add_session("1", true, 30s);
    // A new session (no row yet) is never superseded: a restarted client is never blocked.
    EXPECT_FALSE(guard.superseded(tenant_, "phone", "2"));
    EXPECT_FALSE(guard.superseded(tenant_, "phone", "1"));
    add_session("2", true, 5s);
    EXPECT_TRUE(guard.superseded(tenant_, "phone", "1"));
    EXPECT_FALSE(guard.superseded(tenant_, "phone", "2"));
    // Other devices are separate.
    EXPECT_FALSE(guard.superseded(tenant_, "tablet", "1"));
}

TEST_F(session_guard_test, an_unauthenticated_newer_session_supersedes_nothing) {
    pg_session_guard guard(*db_);
    add_session("1", true, 30s);
    add_session("2", false, 5s);
    EXPECT_FALSE(guard.superseded(tenant_, "phone", "1"));
    // Nor does a per-device row that never answered a message (the engine's resume state).
    in_transaction(*db_, [&](pqxx::work& tx) {
        tx.exec_params0(
            "INSERT INTO sessions (tenant_id, device_uri, syncml_session_id, user_id, expires_at) "
            "VALUES ($1, 'phone', 'resume:1', $2, now() + interval '30 minutes')",
            tenant_, user_);
    });
    EXPECT_FALSE(guard.superseded(tenant_, "phone", "1"));
}

TEST_F(session_guard_test, the_device_lock_excludes_other_connections_until_unlocked_or_disconnected) {
    auto holder = std::make_unique<database>(url());
    pg_session_guard first(*holder);
    first.lock_device(tenant_, "phone");
    database other(url());
    pg_session_guard second(other);
    auto waiter = std::async(std::launch::async, [&] {
        second.lock_device(tenant_, "phone");
        second.unlock_device(tenant_, "phone");
    });
    EXPECT_EQ(waiter.wait_for(300ms), std::future_status::timeout);
    // Another device is not affected.
    database third(url());
    pg_session_guard(third).lock_device(tenant_, "tablet");
    first.unlock_device(tenant_, "phone");
    EXPECT_EQ(waiter.wait_for(5s), std::future_status::ready);

    // A server instance killed while holding the lock releases it with its connection.
    first.lock_device(tenant_, "phone");
    auto again = std::async(std::launch::async, [&] { second.lock_device(tenant_, "phone"); });
    EXPECT_EQ(again.wait_for(300ms), std::future_status::timeout);
    holder.reset();
    EXPECT_EQ(again.wait_for(5s), std::future_status::ready);
}

}  // namespace
}  // namespace syncml::persistence
