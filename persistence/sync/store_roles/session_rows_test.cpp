#include "persistence/sync/store_roles/session_rows.hpp"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
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
    // Which session a message continues is the database's rule alone (syncml_open_session): no fake of it here.
    std::optional<session_record> open_message_session(std::int64_t, const message_session&) override {
        throw std::logic_error("open_message_session is the database's");
    }
};

TEST(session_rows, a_resume_pointer_names_the_session_it_was_last_set_to) {
    memory_session_rows rows;
    auto opened = rows.open_session(1, "phone", "7");
    opened.user_id = 10;
    rows.save_session(1, opened);
    EXPECT_FALSE(rows.lock_pointed_session(1, "phone", "resume:1"));
    rows.set_resume_pointer(1, "phone", "resume:1", "7");
    auto pointed = rows.lock_pointed_session(1, "phone", "resume:1");
    ASSERT_TRUE(pointed);
    EXPECT_EQ(pointed->session_id, "7");
    EXPECT_EQ(pointed->user_id, 10);
}

}  // namespace
}  // namespace syncml::persistence
