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
