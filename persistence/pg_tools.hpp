#pragma once
// Backup and restore of the server's database with PostgreSQL's own pg_dump and pg_restore (custom format), for
// `syncml-server backup` and `restore`. The connection comes from the database URL, handed to the tools as libpq
// environment variables so that no password appears in their command line.

#include <string>

namespace syncml::persistence {

class database;

inline constexpr const char* k_pg_bin_dir = "/usr/lib/postgresql/15/bin";

// Writes the whole database to out_file (mode 0600, written under a temporary name and renamed, so a failed dump
// never leaves a truncated file under the name). Throws std::runtime_error with pg_dump's message.
void dump_database(const std::string& url, const std::string& out_file, const std::string& bin_dir = k_pg_bin_dir);

// Replaces everything in the database's public schema with the contents of in_file, after checking that
// pg_restore can read the file (nothing is dropped for an unreadable one). The restore itself is one transaction.
// `db` is connected to the same database. Throws std::runtime_error with pg_restore's message.
void restore_database(database& db, const std::string& url, const std::string& in_file,
                      const std::string& bin_dir = k_pg_bin_dir);

}  // namespace syncml::persistence
