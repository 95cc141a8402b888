#pragma once
// The sender of server-alerted sync (issue 37): one pass claims the due rows of the outbox (persistence/push), decides
// for each (tenant and user still want it, the device has something to fetch, quiet hours, the re-notify interval,
// the tenant's daily budget), builds the notification (push/notification: OMA DS 1.2, or the SyncML 1.1 form for a
// device whose DevInf says 1.0/1.1) and sends it through the configured transports (push/delivery), then records the
// outcome. It keeps nothing in memory between passes: what is pending lives in PostgreSQL, and any instance's sender
// takes it. Blocking: it runs on its own thread (src/app/push_runner.hpp) with its own database connection.

#include <chrono>
#include <cstdint>
#include <random>
#include <string>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>
#include <spdlog/logger.h>

#include "persistence/push/push_outbox.hpp"
#include "push/delivery/push_request.hpp"
#include "push/notification/san.hpp"
#include "src/config/config.hpp"

namespace syncml::persistence {
class database;
}

namespace syncml::server {

// Pre-registered families (STYLE.md): queued, sent and failed by transport, coalesced, over budget, skipped by reason.
struct push_metrics {
    explicit push_metrics(prometheus::Registry& registry);
    prometheus::Gauge& queued;
    prometheus::Family<prometheus::Counter>& sent;
    prometheus::Family<prometheus::Counter>& failed;
    prometheus::Counter& coalesced;
    prometheus::Counter& over_budget;
    prometheus::Family<prometheus::Counter>& skipped;
};

// What one pass did.
struct push_pass {
    int claimed = 0;
    int sent = 0;
    int postponed = 0;
    int failed = 0;
    int dropped = 0;
};

class push_sender {
  public:
    // `public_url`: the server id of notifications when config.server_id is empty.
    push_sender(persistence::database& db, push::http_client& client, const push_config& config, std::string public_url,
                push_metrics& metrics, spdlog::logger& log);

    // Whether any transport is configured: without one there is nothing to send through.
    bool has_transport() const { return !config_.webhook_url.empty() || !config_.sms_url.empty(); }

    push_pass run_once();

    // The server id notifications of `tenant` carry.
    std::string server_id(const std::string& tenant) const;

  private:
    void handle(const persistence::claimed_push& claimed, push_pass& pass);
    // Sends through every transport the device can be reached by; true when one took it.
    bool send(const persistence::claimed_push& claimed, push_pass& pass);

    persistence::database& db_;
    push::http_client& client_;
    push_config config_;
    std::string public_url_;
    push_metrics& metrics_;
    spdlog::logger& log_;
    std::mt19937 random_;
    // The queue's length is counted across all shards: at most every k_queue_count_interval.
    std::chrono::steady_clock::time_point queue_counted_{};
};

// The wait before try `attempt` (1-based) after failures: 10 s doubling to an hour.
std::chrono::seconds push_retry_delay(int attempt);
// Failed sends of one notification before it is given up.
inline constexpr int k_push_max_attempts = 12;

}  // namespace syncml::server
