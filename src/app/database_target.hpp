#pragma once
// Where this process finds PostgreSQL: the configured URL, or the embedded cluster in the data directory.
// A lock file in the data directory tells processes on the same directory apart: the server holds it for
// its lifetime; migrate/admin reuse a running server's cluster, or wait for another command, instead of
// starting a second postmaster on the same files.

#include <memory>
#include <string>
#include <vector>

#include <spdlog/logger.h>

#include "src/config/config.hpp"

namespace syncml::persistence {
class database_profile;
class embedded_postgres;
}  // namespace syncml::persistence

namespace syncml::server {

enum class process_role { server, command };

class database_target {
  public:
    // Starts the embedded cluster when needed (refused with require_url); throws std::runtime_error with a clear
    // message.
    database_target(const database_config& config, process_role role, spdlog::logger& log);
    ~database_target();
    database_target(const database_target&) = delete;
    database_target& operator=(const database_target&) = delete;

    // The primary target: migrations, admin commands, the janitor, readiness.
    const std::string& url() const { return url_; }
    // Every target of the setting (persistence/pg/conninfo_list.hpp), the primary first: the worker pool's.
    const std::vector<std::string>& urls() const { return urls_; }
    // For every database of the process: how it sends statements (database.prepared_statements), the topology.
    const std::shared_ptr<persistence::database_profile>& profile() const { return profile_; }
    std::string description() const;
    // The embedded cluster belongs to a server running on the same data directory.
    bool shared_with_server() const { return reused_; }
    // Stops the embedded cluster if this process started it and releases the data directory.
    void stop();

  private:
    void use_embedded(const database_config& config, process_role role);
    void start_own_cluster(const database_config& config, process_role role);

    spdlog::logger& log_;
    std::string url_;
    std::vector<std::string> urls_;
    std::string data_dir_;
    std::shared_ptr<persistence::database_profile> profile_;
    bool reused_ = false;
    std::unique_ptr<persistence::embedded_postgres> embedded_;
    int lock_fd_ = -1;
};

}  // namespace syncml::server
