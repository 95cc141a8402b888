#pragma once
// Backup and restore of the server's database with PostgreSQL's own pg_dump and pg_restore (custom format), for
// `syncml-server backup` and `restore`. The connection comes from the database URL, handed to the tools as libpq
// environment variables so that no password appears in their command line.

#include <string>

namespace syncml::persistence {

inline constexpr const char* k_pg_bin_dir = "/usr/lib/postgresql/15/bin";

// Writes the whole database to out_file (mode 0600, written under a fresh temporary name and renamed, so a failed
// dump never leaves a truncated file under the name), under the rules of common/files/operator_file.hpp. Throws
// common::file_refused for a refused file, std::runtime_error with pg_dump's message.
void dump_database(const std::string& url, const std::string& out_file, const std::string& bin_dir = k_pg_bin_dir);

// Replaces everything in the database's public schema with the contents of in_file (a regular file, not a link:
// common/files/operator_file.hpp). The archive is read in full
// first (into a script in a private temporary directory: as much disk space as the data, uncompressed), so an
// unreadable or damaged file changes nothing; then psql drops the schema and runs the script in one transaction,
// so a restore that fails halfway leaves the previous contents in place. Throws std::runtime_error with the
// tool's message.
void restore_database(const std::string& url, const std::string& in_file, const std::string& bin_dir = k_pg_bin_dir);

}  // namespace syncml::persistence
