#pragma once
// One PostgreSQL connection owned by one worker thread. Free of pqxx so that callers outside
// persistence/ never see it; repositories in persistence/ reach the connection through
// persistence/pg/detail/connection_access.hpp.

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace syncml::persistence {

// What the databases of one process share (the wiring builds one from the configuration and hands it to each): how
// repositories send SQL, and what they learned of the schema. Thread-safe.
class database_profile {
  public:
    explicit database_profile(bool prepared_statements = true) : prepared_statements_(prepared_statements) {}
    database_profile(const database_profile&) = delete;
    database_profile& operator=(const database_profile&) = delete;

    // Whether repositories prepare their frequent statements (the default), so PostgreSQL parses and plans each
    // once per connection. Off behind a pooler in transaction mode that cannot keep a prepared statement for the
    // next transaction (pgbouncer before 1.21).
    bool prepared_statements() const { return prepared_statements_; }

    // Whether the schema is distributed over Citus nodes (schema_status::distributed; persistence/DISTRIBUTED.md):
    // the message path then runs no statement that spans shards. Set at startup and when readiness finds it migrated.
    bool distributed_schema() const { return distributed_schema_.load(std::memory_order_relaxed); }
    void use_distributed_schema(bool distributed) { distributed_schema_.store(distributed, std::memory_order_relaxed); }

    // Whether every table has planner statistics: item batches then stop asking (item_batch.cpp).
    bool all_analyzed() const { return all_analyzed_.load(std::memory_order_relaxed); }
    void found_all_analyzed() { all_analyzed_.store(true, std::memory_order_relaxed); }

  private:
    const bool prepared_statements_;
    std::atomic<bool> distributed_schema_{false};
    std::atomic<bool> all_analyzed_{false};
};

class database {
  public:
    // Without a profile the database has its own with the defaults (prepared statements, one PostgreSQL).
    explicit database(std::string url, std::shared_ptr<database_profile> profile = nullptr);
    // Connects to candidates[preferred] and, while that one is unreachable, to the others in list order after it
    // (conninfo_list.hpp); every reconnect tries the preferred one first again. Needs at least one candidate.
    database(std::vector<std::string> candidates, std::size_t preferred,
             std::shared_ptr<database_profile> profile = nullptr);
    ~database();
    database(const database&) = delete;
    database& operator=(const database&) = delete;

    // Connects if needed (reconnecting a broken connection). Returns false while the server is
    // unreachable; never throws.
    bool ensure_connected();
    bool connected() const;
    // The target of the connection, or the preferred one while not connected.
    const std::string& url() const { return candidates_[current_]; }

    database_profile& profile() const { return *profile_; }
    bool distributed_schema_in_use() const { return profile_->distributed_schema(); }

    struct impl;
    impl& internals() { return *impl_; }

  private:
    void match_plan_cache_mode();

    std::vector<std::string> candidates_;
    std::size_t preferred_ = 0;
    std::size_t current_ = 0;
    std::shared_ptr<database_profile> profile_;
    std::unique_ptr<impl> impl_;
};

}  // namespace syncml::persistence
