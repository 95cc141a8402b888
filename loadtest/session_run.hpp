#pragma once
// One SyncML session of a phone, message by message, with the checks on every reply. Internal to phone.

#include <optional>
#include <string>
#include <vector>

#include "loadtest/phone.hpp"

namespace syncml::loadtest {

class session_run {
  public:
    session_run(phone& owner, http_client& http, run_stats& stats);

    bool execute();  // true when the whole session went as expected

    std::uint64_t items_up = 0;
    std::uint64_t items_down = 0;
    std::string next_anchor;

  private:
    struct expectation {
        std::string msg_id;
        std::string cmd_id;
        std::string cmd;
        std::vector<int> allowed;
        bool seen = false;
    };

    bool package1();
    bool package3();
    bool package4_rest();
    bool package5();

    session::message begin_message();
    std::string next_cmd_id() { return std::to_string(++cmd_id_); }
    void expect(const std::string& msg_id, const std::string& cmd_id, const std::string& cmd, std::vector<int> allowed);
    std::optional<session::message> exchange(const session::message& out, msg_kind kind, bool auth_may_fail = false);
    bool check_header_status(const session::message& reply, const std::string& msg_id);
    void check_statuses(const session::message& reply);
    void follow_resp_uri(const session::message& reply);
    void read_nonce(const session::message& reply);

    // The Status (and Results) this client owes for every command of `reply`; applies the server's Sync.
    void answer(const session::message& reply, session::message& out);
    void apply_sync(const session::message& reply, const session::sync& s, session::message& out);
    int apply_server_command(const session::command& cmd, std::string& ref);
    bool check_server_alert(const session::message& reply);
    session::command change_command(const local_change& change);
    void error(const std::string& key);

    phone& phone_;
    http_client& http_;
    run_stats& stats_;
    bool slow_;
    std::string session_id_;
    int msg_id_ = 0;
    int cmd_id_ = 0;
    url_parts url_;
    std::string target_uri_;
    std::size_t server_max_msg_size_ = 0;
    bool failed_ = false;
    bool fresh_account_ = false;
    std::vector<local_change> changes_;
    std::vector<expectation> expected_;
    std::vector<session::map_item> mappings_;
    std::optional<session::message> last_reply_;
};

}  // namespace syncml::loadtest
