#pragma once
// `admin tenant show`, `user show` and `device show`: one record with its usage, as "key<TAB>value" lines or, with
// --json, one JSON object.

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

}  // namespace syncml::server
