#pragma once
// Prometheus metrics of the front end and the worker pool, pre-registered on one Registry that main owns;
// other modules register their own families on the same Registry (see engine_wiring.hpp).

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/metric_family.h>
#include <prometheus/registry.h>

#include "persistence/pg/worker_pool.hpp"

namespace syncml::server {

class server_metrics : public persistence::pool_observer {
  public:
    // version and revision: the labels of syncml_build_info (build_info.hpp).
    server_metrics(prometheus::Registry& registry, const std::string& version, const std::string& revision);

    void request_started();
    void request_finished(const char* route, int status, std::chrono::duration<double> duration,
                          std::size_t request_bytes, std::size_t response_bytes);

    // A connection closed at once because its listener had SYNCML_MAX_CONNECTIONS open (listener: sync, metrics).
    void connection_refused(const char* listener);
    // A connection closed at once because its client address had SYNCML_MAX_CONNECTIONS_PER_ADDRESS open there.
    void connection_refused_per_address(const char* listener);
    // A request refused with 503 before its body was read: the body did not fit SYNCML_BODY_BUDGET_BYTES.
    void body_budget_refused();

    void queue_length(std::size_t length) override;
    void queue_wait(std::chrono::duration<double> wait) override;
    void database_error() override;

  private:
    prometheus::Family<prometheus::Counter>& requests_;
    prometheus::Family<prometheus::Histogram>& duration_;
    prometheus::Family<prometheus::Counter>& request_bytes_;
    prometheus::Family<prometheus::Counter>& response_bytes_;
    prometheus::Gauge& in_flight_;
    prometheus::Gauge& queue_length_;
    prometheus::Histogram& queue_wait_;
    prometheus::Counter& db_errors_;
    prometheus::Family<prometheus::Counter>& refused_connections_;
    prometheus::Family<prometheus::Counter>& address_refused_connections_;
    prometheus::Counter& body_budget_refusals_;
};

// The registry in the Prometheus text exposition format, followed by families computed at scrape time.
std::string serialize_metrics(const prometheus::Registry& registry, std::vector<prometheus::MetricFamily> extra = {});

}  // namespace syncml::server
