#include "src/telemetry/metrics.hpp"

#include <array>

#include <prometheus/text_serializer.h>

namespace syncml::server {
namespace {

const prometheus::Histogram::BucketBoundaries& request_buckets() {
    static const prometheus::Histogram::BucketBoundaries buckets{0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                                 0.5,   1,     2.5,  5,     10,   30};
    return buckets;
}

const prometheus::Histogram::BucketBoundaries& queue_buckets() {
    static const prometheus::Histogram::BucketBoundaries buckets{0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05,
                                                                 0.1,    0.5,    1,     5,     10};
    return buckets;
}

// The routes of src/http/routing.cpp's route_label that serve clients, and the statuses dashboards and alerts divide
// by: present at 0 from the start, so a fresh instance shows zeros rather than "no data" and the first error counts
// in rate() (a series that appears at 1 has no earlier sample to rise from).
constexpr std::array<const char*, 2> k_client_routes{"sync", "dav"};
constexpr std::array<int, 3> k_initial_statuses{200, 500, 503};

template <class Builder>
auto& registered(Builder builder, const char* name, const char* help, prometheus::Registry& registry) {
    return builder.Name(name).Help(help).Register(registry);
}

}  // namespace

server_metrics::server_metrics(prometheus::Registry& registry, const std::string& version, const std::string& revision)
    : requests_(registered(prometheus::BuildCounter(), "syncml_http_requests_total",
                           "HTTP requests answered, by route and status code", registry)),
      duration_(registered(prometheus::BuildHistogram(), "syncml_http_request_duration_seconds",
                           "Time from the complete request head to the response written", registry)),
      request_bytes_(registered(prometheus::BuildCounter(), "syncml_http_request_bytes_total",
                                "Request body bytes received", registry)),
      response_bytes_(registered(prometheus::BuildCounter(), "syncml_http_response_bytes_total",
                                 "Response body bytes sent", registry)),
      in_flight_(
          registered(prometheus::BuildGauge(), "syncml_http_in_flight_requests", "Requests being processed", registry)
              .Add({})),
      queue_length_(registered(prometheus::BuildGauge(), "syncml_worker_queue_length",
                               "Jobs waiting for a database worker", registry)
                        .Add({})),
      queue_wait_(registered(prometheus::BuildHistogram(), "syncml_worker_queue_wait_seconds",
                             "Time a job waited for a database worker", registry)
                      .Add({}, queue_buckets())),
      db_errors_(registered(prometheus::BuildCounter(), "syncml_db_errors_total",
                            "Database errors seen by workers (connection failures, failed transactions)", registry)
                     .Add({})),
      refused_connections_(registered(prometheus::BuildCounter(), "syncml_http_connections_refused_total",
                                      "Connections closed at once because the listener had its maximum open",
                                      registry)),
      address_refused_connections_(registered(
          prometheus::BuildCounter(), "syncml_http_connections_refused_per_address_total",
          "Connections closed at once because their client address had its maximum open on the listener", registry)),
      body_budget_refusals_(registered(prometheus::BuildCounter(), "syncml_http_body_budget_refusals_total",
                                       "Requests refused with 503 because their body did not fit the body budget",
                                       registry)
                                .Add({})) {
    for (const char* listener : {"sync", "metrics"}) {
        refused_connections_.Add({{"listener", listener}});
        address_refused_connections_.Add({{"listener", listener}});
    }
    for (const char* route : k_client_routes) {
        for (int status : k_initial_statuses) requests_.Add({{"route", route}, {"status", std::to_string(status)}});
        duration_.Add({{"route", route}}, request_buckets());
        request_bytes_.Add({{"route", route}});
        response_bytes_.Add({{"route", route}});
    }
    registered(prometheus::BuildGauge(), "syncml_build_info", "Build information; the value is always 1", registry)
        .Add({{"version", version}, {"revision", revision}})
        .Set(1);
}

void server_metrics::request_started() { in_flight_.Increment(); }

void server_metrics::request_finished(const char* route, int status, std::chrono::duration<double> duration,
                                      std::size_t request_bytes, std::size_t response_bytes) {
    in_flight_.Decrement();
    requests_.Add({{"route", route}, {"status", std::to_string(status)}}).Increment();
    duration_.Add({{"route", route}}, request_buckets()).Observe(duration.count());
    request_bytes_.Add({{"route", route}}).Increment(static_cast<double>(request_bytes));
    response_bytes_.Add({{"route", route}}).Increment(static_cast<double>(response_bytes));
}

void server_metrics::queue_length(std::size_t length) { queue_length_.Set(static_cast<double>(length)); }

void server_metrics::queue_wait(std::chrono::duration<double> wait) { queue_wait_.Observe(wait.count()); }

void server_metrics::database_error() { db_errors_.Increment(); }

void server_metrics::connection_refused(const char* listener) {
    refused_connections_.Add({{"listener", listener}}).Increment();
}

void server_metrics::connection_refused_per_address(const char* listener) {
    address_refused_connections_.Add({{"listener", listener}}).Increment();
}

void server_metrics::body_budget_refused() { body_budget_refusals_.Increment(); }

std::string serialize_metrics(const prometheus::Registry& registry, std::vector<prometheus::MetricFamily> extra) {
    auto families = registry.Collect();
    for (auto& family : extra) families.push_back(std::move(family));
    return prometheus::TextSerializer().Serialize(families);
}

}  // namespace syncml::server
