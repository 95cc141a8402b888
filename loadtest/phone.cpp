#include "loadtest/phone.hpp"

#include <algorithm>
#include <chrono>

#include "loadtest/contacts.hpp"
#include "loadtest/session_run.hpp"

namespace syncml::loadtest {

phone::phone(phone_identity identity, const phone_settings& settings, std::uint64_t seed)
    : identity_(std::move(identity)), settings_(settings), rng_(seed) {
    // Session IDs must differ from every earlier run with the same device name: the server treats a repeated
    // (device, SessionID, MsgID) as a resend and answers with the stored reply.
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    session_counter_ =
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::seconds>(now).count()) * 1000000;
}

session_outcome phone::run_session(http_client& http, run_stats& stats) {
    const auto start = std::chrono::steady_clock::now();
    session_run run(*this, http, stats);
    session_outcome outcome;
    outcome.kind = synced_ ? session_kind::two_way : session_kind::slow;
    outcome.ok = run.execute();
    outcome.items_up = run.items_up;
    outcome.items_down = run.items_down;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    stats.session(outcome.kind, outcome.ok, seconds, outcome.items_up, outcome.items_down);
    if (outcome.ok) {
        synced_ = true;
        fresh_account_ = false;
        last_anchor_ = run.next_anchor;
    } else {
        // Like a real phone after an aborted session: local and server state may differ, so slow sync.
        synced_ = false;
        fresh_account_ = false;
        // A failed session leaves the server's view of this connection unknown.
        http.close();
    }
    return outcome;
}

std::vector<local_change> phone::plan_changes(bool slow) {
    std::vector<local_change> changes;
    if (slow) {
        while (items_.size() < settings_.first_items && !synced_once_) add_new_contact(changes);
        synced_once_ = true;
        changes.clear();
        for (const auto& [luid, data] : items_) changes.push_back({change_op::add, luid, data});
        return changes;
    }
    std::vector<std::string> own;
    for (const auto& [luid, data] : items_) own.push_back(luid);
    std::shuffle(own.begin(), own.end(), rng_);
    std::size_t next = 0;
    for (std::size_t i = 0; i < settings_.replaces && next < own.size(); ++i, ++next) {
        const std::string& luid = own[next];
        auto serial = serial_of(luid);
        items_[luid] = make_contact(serial ? identity_.device_id : identity_.device_id + "-" + luid, serial.value_or(0),
                                    ++revision_[luid]);
        changes.push_back({change_op::replace, luid, items_[luid]});
    }
    for (std::size_t i = 0; i < settings_.deletes && next < own.size(); ++i, ++next) {
        items_.erase(own[next]);
        changes.push_back({change_op::remove, own[next], {}});
    }
    for (std::size_t i = 0; i < settings_.adds; ++i) add_new_contact(changes);
    return changes;
}

void phone::add_new_contact(std::vector<local_change>& changes) {
    const std::uint64_t serial = next_serial_++;
    std::string luid = std::to_string(serial);
    luid.insert(luid.begin(), 'c');
    items_[luid] = make_contact(identity_.device_id, serial, 0);
    changes.push_back({change_op::add, luid, items_[luid]});
}

std::optional<std::uint64_t> phone::serial_of(const std::string& luid) {
    if (luid.size() < 2 || luid[0] != 'c') return std::nullopt;
    try {
        return std::stoull(luid.substr(1));
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::string phone::store_server_item(const std::string& data) {
    std::string luid = std::to_string(next_serial_++);
    luid.insert(luid.begin(), 's');
    items_[luid] = data;
    return luid;
}

}  // namespace syncml::loadtest
