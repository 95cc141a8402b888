#include "persistence/sync/store_roles/session_rows.hpp"

#include <gtest/gtest.h>

#include <map>
#include <utility>

namespace syncml::persistence {
namespace {

// The whole session role in memory: what a caller of session_rows alone has to fake.
class memory_session_rows final : public session_rows {
  public:
    std::map<std::pair<std::string, std::string>, session_record> rows;  // (device, SessionID)
    int locks = 0;

    std::optional<session_record> lock_session(std::int64_t, const std::string& device_uri,
                                               const std::string& session_id) override {
        ++locks;
        auto found = rows.find({device_uri, session_id});
        if (found == rows.end()) return std::nullopt;
        return found->second;
    }
    std::optional<session_record> lock_session_by_key(std::int64_t, std::int64_t key) override {
        for (const auto& [name, row] : rows) {
            if (row.id == key) return row;
        }
        return std::nullopt;
    }
    std::int64_t create_session(std::int64_t, const std::string& device_uri, const std::string& session_id) override {
        auto& row = rows[{device_uri, session_id}];
        row.id = static_cast<std::int64_t>(rows.size());
        row.device_uri = device_uri;
        row.session_id = session_id;
        return row.id;
    }
    void save_session(std::int64_t, const session_record& session) override {
        rows[{session.device_uri, session.session_id}] = session;
    }
    std::string token_secret() override { return "secret"; }
};

message_session from_user(std::int64_t user, const std::string& msg_id) {
    message_session m;
    m.device_uri = "phone";
    m.session_id = "7";
    m.msg_id = msg_id;
    m.user = user;
    return m;
}

TEST(session_rows, credentials_open_a_session_that_another_users_credentials_cannot_continue) {
    memory_session_rows rows;
    auto opened = rows.open_message_session(1, from_user(10, "1"));
    ASSERT_TRUE(opened);
    EXPECT_EQ(opened->user_id, 10);
    rows.save_session(1, *opened);
    EXPECT_FALSE(rows.open_message_session(1, from_user(11, "2")));
    EXPECT_TRUE(rows.open_message_session(1, from_user(10, "2")));
}

TEST(session_rows, a_key_continues_only_the_session_of_the_user_it_names) {
    memory_session_rows rows;
    auto opened = *rows.open_message_session(1, from_user(10, "1"));
    rows.save_session(1, opened);
    auto by_key = from_user(0, "2");
    by_key.key = opened.id;
    by_key.key_user = 11;
    EXPECT_FALSE(rows.open_message_session(1, by_key));
    by_key.key_user = 10;
    EXPECT_TRUE(rows.open_message_session(1, by_key));
}

TEST(session_rows, an_address_continues_a_session_only_within_an_idle_window) {
    memory_session_rows rows;
    auto opened = *rows.open_message_session(1, from_user(10, "1"));
    opened.client_address = "192.0.2.1";
    rows.save_session(1, opened);
    auto by_address = from_user(0, "2");
    by_address.address = "192.0.2.1";
    EXPECT_FALSE(rows.open_message_session(1, by_address)) << "no idle window: token binding";
    by_address.address_idle = std::chrono::seconds(60);
    EXPECT_TRUE(rows.open_message_session(1, by_address));
    by_address.address = "192.0.2.2";
    EXPECT_FALSE(rows.open_message_session(1, by_address));
}

TEST(session_rows, a_resume_pointer_names_the_session_it_was_last_set_to) {
    memory_session_rows rows;
    rows.save_session(1, *rows.open_message_session(1, from_user(10, "1")));
    EXPECT_FALSE(rows.lock_pointed_session(1, "phone", "resume:1"));
    rows.set_resume_pointer(1, "phone", "resume:1", "7");
    auto pointed = rows.lock_pointed_session(1, "phone", "resume:1");
    ASSERT_TRUE(pointed);
    EXPECT_EQ(pointed->session_id, "7");
    EXPECT_EQ(pointed->user_id, 10);
}

}  // namespace
}  // namespace syncml::persistence
