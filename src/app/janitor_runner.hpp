#pragma once
// Runs persistence::run_janitor() every interval on its own thread and database connection, and counts what it
// removed in metrics. Every instance runs one; the janitor's lease lets one pass run at a time. The same thread and
// connection read the per-tenant figures on their own schedule (every instance: each exports the gauges).

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/registry.h>
#include <spdlog/logger.h>

#include "persistence/maintenance/janitor.hpp"
#include "persistence/pg/database.hpp"
#include "src/app/tenant_metrics.hpp"

namespace syncml::server {

class janitor_runner {
  public:
    // interval 0: never runs. Without a profile its database has the defaults (persistence::database_profile).
    janitor_runner(std::string database_url, std::chrono::milliseconds interval, prometheus::Registry& registry,
                   spdlog::logger& log, std::shared_ptr<persistence::database_profile> profile = nullptr);
    ~janitor_runner();
    janitor_runner(const janitor_runner&) = delete;
    janitor_runner& operator=(const janitor_runner&) = delete;

    // Before start(): publish the tenant figures to `metrics` every `interval` (0: never).
    void publish_tenant_figures(tenant_metrics& metrics, std::chrono::milliseconds interval,
                                std::chrono::seconds session_max_age);
    void start();
    void stop();
    // One pass now (tests, and the first pass after start-up).
    persistence::janitor_report run_once();
    // The tenant figures now; false when they could not be read (logged).
    bool refresh_tenant_figures();

  private:
    void run();
    void count(const persistence::janitor_report& report);

    std::string url_;
    std::chrono::milliseconds interval_;
    tenant_metrics* tenant_metrics_ = nullptr;
    std::chrono::milliseconds figures_interval_{0};
    std::chrono::seconds session_max_age_{0};
    spdlog::logger& log_;
    std::string holder_;
    prometheus::Family<prometheus::Counter>& removed_;
    prometheus::Family<prometheus::Counter>& runs_;
    prometheus::Counter& slow_syncs_forced_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
    struct connection;
    std::unique_ptr<connection> connection_;
};

}  // namespace syncml::server
