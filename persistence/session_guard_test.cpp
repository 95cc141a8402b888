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

    // A session row of device "phone" as save_session leaves it, `age` after its last message.
    std::int64_t add_session(const std::string& session_id, bool authenticated, std::chrono::seconds age) {
        return in_transaction(*db_, [&](pqxx::work& tx) {
            return tx
                .exec_params1(
                    "INSERT INTO sessions (tenant_id, device_uri, syncml_session_id, user_id, updated_at, expires_at) "
                    "VALUES ($1, 'phone', $2, NULLIF($3::bigint, 0), now() - make_interval(secs => $4), now() + "
                    "interval '30 minutes') "
                    "RETURNING session_id",
                    tenant_, session_id, authenticated ? user_ : std::int64_t{0}, static_cast<double>(age.count()))[0]
                .as<std::int64_t>();
        });
    }

    std::unique_ptr<database> db_;
    std::int64_t tenant_ = 0;
    std::int64_t user_ = 0;
};

TEST_F(session_guard_test, an_authenticated_recent_session_keeps_other_sessions_of_its_device_out) {
    pg_session_guard guard(*db_);
    EXPECT_FALSE(guard.other_session_running(tenant_, "phone", "2", 60s));
    auto first = add_session("1", true, 5s);
    EXPECT_TRUE(guard.other_session_running(tenant_, "phone", "2", 60s));
    // The session itself and other devices are not kept out.
    EXPECT_FALSE(guard.other_session_running(tenant_, "phone", "1", 60s));
    EXPECT_FALSE(guard.other_session_running(tenant_, "tablet", "2", 60s));
    guard.mark_finished(tenant_, first);
    EXPECT_FALSE(guard.other_session_running(tenant_, "phone", "2", 60s));
    // A client reusing the finished row's SessionID runs a new session there.
    in_transaction(*db_, [&](pqxx::work& tx) {
        tx.exec_params0("UPDATE sessions SET updated_at = clock_timestamp() WHERE session_id = $1", first);
    });
    EXPECT_TRUE(guard.other_session_running(tenant_, "phone", "2", 60s));
}

TEST_F(session_guard_test, neither_a_silent_nor_an_unauthenticated_session_blocks_the_device) {
    pg_session_guard guard(*db_);
    add_session("1", true, 120s);
    add_session("3", false, 1s);
    EXPECT_FALSE(guard.other_session_running(tenant_, "phone", "2", 60s));
    EXPECT_TRUE(guard.other_session_running(tenant_, "phone", "2", 300s));
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
