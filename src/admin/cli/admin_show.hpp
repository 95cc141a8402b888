#pragma once
// `admin tenant show`, `user show` and `device show`: one record with its usage, as "key<TAB>value" lines or, with
// --json, one JSON object. `admin session list` and `session kill`.

#include <iosfwd>
#include <string>

namespace syncml::persistence {
class database;
}

namespace syncml::server {

void show_tenant(persistence::database& db, const std::string& tenant, bool json, std::ostream& out);
void show_user(persistence::database& db, const std::string& tenant, const std::string& user, bool json,
               std::ostream& out);
void show_device(persistence::database& db, const std::string& tenant, const std::string& user,
                 const std::string& device, bool json, std::ostream& out);

// One line per session (or a JSON array): id, SessionID, user, device, started, last message, messages, state.
void list_sessions(persistence::database& db, const std::string& tenant, const std::string& user, bool json,
                   std::ostream& out);
// `id` as session list prints it; std::invalid_argument for one that is no number.
void kill_session(persistence::database& db, const std::string& tenant, const std::string& id, std::ostream& out);

}  // namespace syncml::server
