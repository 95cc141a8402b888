#include "auth/login.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "persistence/accounts/password_hash.hpp"
#include "persistence/pg/database.hpp"

namespace syncml::auth {
namespace {

using namespace std::chrono_literals;

// The throttle's answer is set by the test; its calls are written down.
class fake_throttle final : public persistence::auth_throttle {
  public:
    void record_failure(std::int64_t, const std::string& user, const std::string& device,
                        const std::string& address) override {
        calls.push_back("failure " + user + " " + device + " " + address);
    }
    void remember_client(std::int64_t, std::int64_t user_id, const std::string& address) override {
        calls.push_back("remember " + std::to_string(user_id) + " " + address);
    }
    void reset(std::int64_t, const std::string& user, const std::string& device, const std::string& address) override {
        calls.push_back("reset " + user + " " + device + " " + address);
    }
    persistence::credential_check check(std::int64_t, const std::string&, const std::string&,
                                        const std::string&) override {
        return answer;
    }

    persistence::credential_check answer;
    std::vector<std::string> calls;
};

class login_test : public ::testing::Test {
  protected:
    login_test() {
        // An account whose hash has today's cost: nothing is upgraded, so the database is never connected.
        throttle_.answer.account =
            persistence::stored_credentials{7, persistence::hash_password("pw", 1000), "", false};
        throttle_.answer.known_address = true;
    }

    basic_login log_in(const std::string& password) {
        return log_in_basic(throttle_, context_, {1, "alice", "", "192.0.2.1"}, {"alice", password});
    }

    persistence::database db_{"postgresql://never-connected.invalid/none"};
    credential_cache cache_{60s};
    login_context context_{db_, nullptr, cache_};
    fake_throttle throttle_;
};

TEST_F(login_test, a_right_password_logs_in_and_is_remembered_by_the_cache) {
    auto login = log_in("pw");
    EXPECT_EQ(login.verdict, login_verdict::ok);
    EXPECT_EQ(login.user_id, 7);
    EXPECT_TRUE(throttle_.calls.empty());
    EXPECT_TRUE(cache_.verified(1, "alice", "pw", throttle_.answer.account->password_hash));
}

TEST_F(login_test, a_wrong_password_counts_as_a_failure) {
    auto login = log_in("guess");
    EXPECT_EQ(login.verdict, login_verdict::wrong_password);
    EXPECT_EQ(login.user_id, 0);
    EXPECT_EQ(throttle_.calls, std::vector<std::string>{"failure alice  192.0.2.1"});
}

TEST_F(login_test, an_unknown_user_counts_as_a_failure_and_a_blocked_one_as_nothing) {
    throttle_.answer.account.reset();
    EXPECT_EQ(log_in("pw").verdict, login_verdict::unknown_user);
    EXPECT_EQ(throttle_.calls, std::vector<std::string>{"failure alice  192.0.2.1"});

    throttle_.calls.clear();
    throttle_.answer = {};
    throttle_.answer.blocked = 42s;
    throttle_.answer.account = persistence::stored_credentials{7, persistence::hash_password("pw", 1000), "", false};
    auto login = log_in("pw");
    EXPECT_EQ(login.verdict, login_verdict::blocked);
    EXPECT_EQ(login.blocked, 42s);
    EXPECT_TRUE(throttle_.calls.empty());
}

TEST_F(login_test, a_success_resets_failures_on_record_and_remembers_a_new_or_stale_address) {
    throttle_.answer.failures_on_record = true;
    throttle_.answer.known_address = false;
    EXPECT_EQ(log_in("pw").verdict, login_verdict::ok);
    EXPECT_EQ(throttle_.calls, (std::vector<std::string>{"reset alice  192.0.2.1", "remember 7 192.0.2.1"}));

    throttle_.calls.clear();
    throttle_.answer.failures_on_record = false;
    throttle_.answer.known_address = true;
    throttle_.answer.address_stale = true;
    EXPECT_EQ(log_in("pw").verdict, login_verdict::ok);
    EXPECT_EQ(throttle_.calls, std::vector<std::string>{"remember 7 192.0.2.1"});
}

TEST_F(login_test, the_pieces_a_deferred_login_uses_keep_the_same_rules) {
    persistence::credential_check check = throttle_.answer;
    EXPECT_EQ(refusal_of(check), std::nullopt);
    EXPECT_EQ(check_password(context_, check, 1, {"alice", "pw"}), login_verdict::ok);
    const login_attempt attempt{1, "alice", "IMEI:1", "192.0.2.1"};
    record_success(throttle_, check, attempt, 7);
    EXPECT_TRUE(throttle_.calls.empty());
    check.failures_on_record = true;
    record_success(throttle_, check, attempt, 7);
    EXPECT_TRUE(record_failure(throttle_, check, attempt));
    // A phone's address is remembered as a DAV client's is (issue 35: a known address is what strangers' failures
    // elsewhere never block).
    check.failures_on_record = false;
    check.known_address = false;
    record_success(throttle_, check, attempt, 7);
    check.blocked = 5s;
    EXPECT_EQ(refusal_of(check), login_verdict::blocked);
    EXPECT_FALSE(record_failure(throttle_, check, attempt));
    EXPECT_EQ(throttle_.calls, (std::vector<std::string>{"reset alice IMEI:1 192.0.2.1",
                                                         "failure alice IMEI:1 192.0.2.1", "remember 7 192.0.2.1"}));
}

// Issue 35: a blocked user costs no hash at all, an unknown user costs the address one, and an address over its budget
// gets no check (busy) and nothing counted against the user.
TEST_F(login_test, the_guard_charges_the_address_for_each_hash_and_refuses_it_when_it_is_spent) {
    login_guard guard({.budget = {.per_second = 0.001, .burst = 2, .max_clients = 10}, .hashes = {}});
    context_.guard = &guard;
    context_.address = "192.0.2.1";
    throttle_.answer.blocked = 60s;
    for (int i = 0; i < 5; ++i) EXPECT_EQ(log_in("guess").verdict, login_verdict::blocked);
    EXPECT_EQ(guard.wait("192.0.2.1"), 0s) << "a blocked login hashed nothing";

    throttle_.answer.blocked = 0s;
    const auto account = throttle_.answer.account;
    throttle_.answer.account.reset();
    EXPECT_EQ(log_in("guess").verdict, login_verdict::unknown_user);
    throttle_.answer.account = account;
    EXPECT_EQ(log_in("guess").verdict, login_verdict::wrong_password);
    EXPECT_GT(guard.wait("192.0.2.1"), 0s);
    throttle_.calls.clear();
    const auto busy = log_in("pw");
    EXPECT_EQ(busy.verdict, login_verdict::busy) << "not checked, even with the right password";
    EXPECT_GT(busy.blocked, 0s);
    EXPECT_TRUE(throttle_.calls.empty()) << "nothing counted against the user";

    context_.address = "198.51.100.7";
    EXPECT_EQ(log_in("pw").verdict, login_verdict::ok) << "another address has its own budget";
    EXPECT_EQ(log_in("pw").verdict, login_verdict::ok);
    EXPECT_EQ(guard.wait("198.51.100.7"), 0s) << "a remembered password costs nothing";
}

}  // namespace
}  // namespace syncml::auth
