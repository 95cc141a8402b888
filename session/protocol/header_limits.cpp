#include "session/protocol/header_limits.hpp"

#include "auth/credentials/basic_credentials.hpp"
#include "session/protocol/auth.hpp"

namespace syncml::session {
namespace {

std::string too_long(const char* what, std::size_t limit) {
    return std::string(what) + " longer than " + std::to_string(limit) + " bytes";
}

}  // namespace

std::optional<std::string> oversized_identifier(const sync_hdr& header) {
    if (header.source.loc_uri.size() > k_max_device_id_bytes) {
        return too_long("device id (SyncHdr Source LocURI)", k_max_device_id_bytes);
    }
    if (header.session_id.size() > k_max_session_id_bytes) return too_long("SessionID", k_max_session_id_bytes);
    if (header.source.loc_name && header.source.loc_name->size() > auth::k_max_user_name_bytes) {
        return too_long("user name (SyncHdr Source LocName)", auth::k_max_user_name_bytes);
    }
    if (auto user = credential_user(header); user && user->size() > auth::k_max_user_name_bytes) {
        return too_long("user name", auth::k_max_user_name_bytes);
    }
    return std::nullopt;
}

}  // namespace syncml::session
