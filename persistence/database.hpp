#pragma once
// One PostgreSQL connection owned by one worker thread. Free of pqxx so that callers outside
// persistence/ never see it; repositories in persistence/ reach the connection through
// persistence/detail/connection_access.hpp.

#include <memory>
#include <string>

namespace syncml::persistence {

class database {
  public:
    explicit database(std::string url);
    ~database();
    database(const database&) = delete;
    database& operator=(const database&) = delete;

    // Connects if needed (reconnecting a broken connection). Returns false while the server is
    // unreachable; never throws.
    bool ensure_connected();
    bool connected() const;
    const std::string& url() const { return url_; }

    struct impl;
    impl& internals() { return *impl_; }

  private:
    std::string url_;
    std::unique_ptr<impl> impl_;
};

// Whether repositories prepare their frequent statements (the default), so PostgreSQL parses and plans each
// once per connection. Turn it off behind a pooler in transaction mode that cannot keep a prepared statement
// for the next transaction (pgbouncer before 1.21); set once at startup.
void use_prepared_statements(bool enabled);
bool prepared_statements_enabled();

}  // namespace syncml::persistence
