#pragma once
// One simulated phone: its own contacts (LUID -> vCard), anchors, md5 nonce and LUID<->GUID knowledge,
// and complete SyncML 1.2 sessions against the server like a real client (package 1 with DevInf Put/Get
// and Alert, package 3 split by MaxMsgSize, Alert 222 for a split package 4, package 5 with Map). Every
// reply is verified; anything unexpected is counted as an error by key ("Add:500", "http:503", ...).

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "loadtest/http_client.hpp"
#include "loadtest/stats.hpp"
#include "session/protocol/message.hpp"

namespace syncml::loadtest {

enum class auth_kind { basic, md5 };

struct phone_identity {
    std::string tenant;
    std::string user;
    std::string password;
    std::string device_id;
};

struct phone_settings {
    std::string base_url;  // http://127.0.0.1:PORT/sync (the phone appends /<tenant>)
    auth_kind auth = auth_kind::basic;
    session::wire_encoding encoding = session::wire_encoding::wbxml;
    std::size_t max_msg_size = 150000;
    std::size_t first_items = 20;                     // contacts of the first slow sync
    std::size_t adds = 2, replaces = 2, deletes = 1;  // per two-way session
    bool get_devinf = true;                           // Get ./devinf12 in package 1, as SyncEvolution does
    // The phone's user has no other device: the server must send nothing in a two-way sync (and nothing in
    // the first slow sync of a fresh account).
    bool exclusive_user = true;
};

enum class change_op { add, replace, remove };

struct local_change {
    change_op op = change_op::add;
    std::string luid;
    std::string data;  // empty for remove
};

struct session_outcome {
    bool ok = false;
    session_kind kind = session_kind::two_way;
    std::uint64_t items_up = 0;
    std::uint64_t items_down = 0;
};

class phone {
  public:
    phone(phone_identity identity, const phone_settings& settings, std::uint64_t seed);

    // Runs one complete session: a slow sync the first time (and after any failed session), otherwise a
    // two-way sync with a few local adds/replaces/deletes.
    session_outcome run_session(http_client& http, run_stats& stats);

    bool synced() const { return synced_; }
    const phone_identity& identity() const { return identity_; }
    std::size_t item_count() const { return items_.size(); }

  private:
    friend class session_run;

    // Changes the local data like a user would and returns what package 3 must carry: every item for a
    // slow sync, a few adds/replaces/deletes for a two-way sync.
    std::vector<local_change> plan_changes(bool slow);
    void add_new_contact(std::vector<local_change>& changes);
    static std::optional<std::uint64_t> serial_of(const std::string& luid);
    std::string store_server_item(const std::string& data);  // returns the new LUID

    phone_identity identity_;
    const phone_settings& settings_;
    std::mt19937_64 rng_;
    std::map<std::string, std::string> items_;  // LUID -> vCard
    std::map<std::string, std::uint32_t> revision_;
    std::uint64_t next_serial_ = 1;
    std::uint64_t session_counter_ = 0;
    std::string last_anchor_;
    std::string nonce_;  // server's NextNonce (decoded) for md5
    bool synced_ = false;
    bool synced_once_ = false;
    bool fresh_account_ = true;  // first slow sync into an account nobody else has written to
};

}  // namespace syncml::loadtest
