#pragma once
// The roles of the embedded cluster. initdb makes `syncml` a superuser; the server and the commands work as
// `syncml_app`, which owns the `syncml` database and may do nothing else (no superuser, no CREATEDB,
// CREATEROLE, REPLICATION or BYPASSRLS), so SQL run on its connections cannot read files, run programs or
// touch other databases.

#include <string>

namespace syncml::persistence::detail {

inline constexpr const char* k_embedded_superuser = "syncml";
inline constexpr const char* k_embedded_app_role = "syncml_app";
inline constexpr const char* k_embedded_database = "syncml";

struct superuser_urls {
    std::string maintenance;  // the `postgres` database
    std::string application;  // the `syncml` database
};

// Connected as the superuser: creates the application role with app_password, or sets its password and
// attributes again; creates the database owned by it, or, for a data directory made before this role existed,
// hands the database and everything of the superuser's in its public schema (tables, sequences, views,
// functions, types, the schema) to it. Throws std::runtime_error.
void provision_app_role(const superuser_urls& urls, const std::string& app_password);

}  // namespace syncml::persistence::detail
