#pragma once
// Runs the push sender (src/push/push_sender.hpp) every push_interval on its own thread, with its own database
// connection and HTTP client, like the janitor. Every instance runs one: the outbox's leases let the senders share
// the work, and a notification another instance claimed and never finished is taken over when its lease ends.

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <prometheus/registry.h>
#include <spdlog/logger.h>

#include "persistence/pg/database.hpp"
#include "src/config/config.hpp"
#include "src/push/push_sender.hpp"

namespace syncml::server {

class push_runner {
  public:
    // Never runs when config.interval is 0 or no transport is configured. Without a profile its database has the
    // defaults (persistence::database_profile).
    push_runner(std::string database_url, const push_config& config, std::string public_url,
                prometheus::Registry& registry, spdlog::logger& log,
                std::shared_ptr<persistence::database_profile> profile = nullptr);
    ~push_runner();
    push_runner(const push_runner&) = delete;
    push_runner& operator=(const push_runner&) = delete;

    void start();
    void stop();
    // One pass now (tests).
    push_pass run_once();

  private:
    void run();

    push_config config_;
    spdlog::logger& log_;
    push_metrics metrics_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
    struct parts;
    std::unique_ptr<parts> parts_;
};

}  // namespace syncml::server
