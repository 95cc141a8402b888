#pragma once
// Answers /readyz from a cached check: a background thread with its own database connection checks once a
// second that PostgreSQL is reachable and the schema is one this binary can serve (its own version, or newer by
// migrations declared backward compatible, so old instances stay ready during a rollout), so probes never wait
// for the database or take a worker from sync requests.

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <spdlog/logger.h>

namespace syncml::persistence {
struct schema_status;
class database_profile;
}  // namespace syncml::persistence

namespace syncml::server {

// Why an instance with this schema is or is not ready (the text /readyz shows on the metrics port).
std::string schema_reason(const persistence::schema_status& status);

class readiness_source {
  public:
    virtual ~readiness_source() = default;
    // True when ready; otherwise reason says why.
    virtual bool ready(std::string& reason) const = 0;
};

class readiness_checker : public readiness_source {
  public:
    // With apply_migrations, a schema behind this binary is migrated as soon as the database is reachable,
    // so a server started while PostgreSQL was down becomes ready when it comes back.
    // The profile, shared with the process's other databases, learns whether the schema is distributed.
    readiness_checker(std::string database_url, spdlog::logger& log, bool apply_migrations,
                      std::shared_ptr<persistence::database_profile> profile = nullptr);
    ~readiness_checker() override;
    readiness_checker(const readiness_checker&) = delete;
    readiness_checker& operator=(const readiness_checker&) = delete;

    void start();
    void stop();
    bool ready(std::string& reason) const override;
    // Runs one check now (start-up uses it so the first probe already has an answer).
    void check_now();

  private:
    void run();
    void publish(bool ready, std::string reason);

    std::string url_;
    spdlog::logger& log_;
    bool apply_migrations_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool ready_ = false;
    std::string reason_ = "not checked yet";
    std::thread thread_;
    struct connection;
    std::unique_ptr<connection> connection_;
};

}  // namespace syncml::server
