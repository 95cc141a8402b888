#include "persistence/sync/store_roles/session_rows.hpp"

namespace syncml::persistence {

session_record session_rows::open_session(std::int64_t tenant, const std::string& device_uri,
                                          const std::string& session_id) {
    if (auto found = lock_session(tenant, device_uri, session_id)) return *found;
    session_record fresh;
    fresh.id = create_session(tenant, device_uri, session_id);
    fresh.session_id = session_id;
    fresh.device_uri = device_uri;
    return fresh;
}

std::optional<session_record> session_rows::open_message_session(std::int64_t tenant, const message_session& m) {
    lock_device(tenant, m.device_uri);
    if (m.key && (m.user != 0 || m.msg_id != "1")) {
        auto found = lock_session_by_key(tenant, *m.key);
        if (found && found->device_uri == m.device_uri && found->session_id == m.session_id && found->user_id != 0 &&
            found->user_id == m.key_user && (m.user == 0 || found->user_id == m.user)) {
            return found;
        }
    }
    if (m.user == 0) {
        if (m.msg_id == "1" || m.address_idle.count() == 0 || m.address.empty()) return std::nullopt;
        auto found = lock_session(tenant, m.device_uri, m.session_id);
        if (found && found->user_id != 0 && found->client_address == m.address) return found;
        return std::nullopt;
    }
    auto found = open_session(tenant, m.device_uri, m.session_id);
    if (found.user_id != 0 && found.user_id != m.user) return std::nullopt;
    found.user_id = m.user;
    return found;
}

void session_rows::set_resume_pointer(std::int64_t tenant, const std::string& device_uri, const std::string& pointer,
                                      const std::string& session_id) {
    auto rec = lock_session(tenant, device_uri, pointer);
    if (!rec) {
        rec = session_record{};
        rec->id = create_session(tenant, device_uri, pointer);
        rec->session_id = pointer;
        rec->device_uri = device_uri;
    }
    rec->user_id = 0;
    rec->state = session_id;
    save_session(tenant, *rec);
}

std::optional<session_record> session_rows::lock_pointed_session(std::int64_t tenant, const std::string& device_uri,
                                                                 const std::string& pointer) {
    auto found = lock_session(tenant, device_uri, pointer);
    if (!found || found->state.empty()) return std::nullopt;
    return lock_session(tenant, device_uri, found->state);
}

}  // namespace syncml::persistence
