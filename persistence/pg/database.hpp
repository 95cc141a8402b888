#pragma once
// One PostgreSQL connection owned by one worker thread. Free of pqxx so that callers outside
// persistence/ never see it; repositories in persistence/ reach the connection through
// persistence/pg/detail/connection_access.hpp.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace syncml::persistence {

class database {
  public:
    explicit database(std::string url);
    // Connects to candidates[preferred] and, while that one is unreachable, to the others in list order after it
    // (conninfo_list.hpp); every reconnect tries the preferred one first again. Needs at least one candidate.
    database(std::vector<std::string> candidates, std::size_t preferred);
    ~database();
    database(const database&) = delete;
    database& operator=(const database&) = delete;

    // Connects if needed (reconnecting a broken connection). Returns false while the server is
    // unreachable; never throws.
    bool ensure_connected();
    bool connected() const;
    // The target of the connection, or the preferred one while not connected.
    const std::string& url() const { return candidates_[current_]; }

    struct impl;
    impl& internals() { return *impl_; }

  private:
    std::vector<std::string> candidates_;
    std::size_t preferred_ = 0;
    std::size_t current_ = 0;
    std::unique_ptr<impl> impl_;
};

// Whether repositories prepare their frequent statements (the default), so PostgreSQL parses and plans each
// once per connection. Turn it off behind a pooler in transaction mode that cannot keep a prepared statement
// for the next transaction (pgbouncer before 1.21); set once at startup.
void use_prepared_statements(bool enabled);
bool prepared_statements_enabled();

// Whether the schema is distributed over Citus nodes (schema_status::distributed; persistence/DISTRIBUTED.md): the
// message path then runs no statement that spans shards. Set at startup and when readiness finds it migrated.
void use_distributed_schema(bool distributed);
bool distributed_schema_in_use();

}  // namespace syncml::persistence
