#pragma once
// Running the PostgreSQL tools (initdb, pg_ctl) as another user, for embedded_postgres.

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace syncml::persistence::detail {

struct os_user {
    uid_t uid;
    gid_t gid;
    std::string name;
};

// The user PostgreSQL runs as: `postgres` when this process is root, else the current user.
// Throws std::runtime_error when root and there is no postgres user.
os_user postgres_os_user();

struct process_result {
    int exit_code = -1;  // -1: did not exit normally
    std::string output;  // stdout and stderr interleaved
};

// Runs argv[0] (an absolute path) as `user` in a new session (so terminal signals meant for us do
// not reach a server it starts), with cwd "/", no inherited descriptors beyond stdin, and waits.
// `environment` ("NAME=value"), when given, replaces the PG* variables of this process's environment for the
// child (libpq settings such as PGPASSWORD that must not appear in argv). Throws std::runtime_error when it cannot
// be started.
process_result run_as(const os_user& user, const std::vector<std::string>& argv,
                      const std::vector<std::string>& environment = {});

// This process's own user.
os_user current_os_user();

// Parent directories of `path` (and `path` itself) that `user` cannot search, outermost first.
std::vector<std::string> unsearchable_ancestors(const std::string& path, const os_user& user);

}  // namespace syncml::persistence::detail
