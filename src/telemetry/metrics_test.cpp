#include "src/telemetry/metrics.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

TEST(server_metrics, exposes_request_counters_by_route_and_status) {
    prometheus::Registry registry;
    server_metrics metrics(registry, "1.2.3", "0123abcd4567");
    metrics.request_started();
    metrics.request_finished("sync", 200, std::chrono::milliseconds(20), 300, 500);
    metrics.request_started();
    metrics.request_finished("sync", 200, std::chrono::milliseconds(40), 100, 50);
    const std::string text = serialize_metrics(registry);
    EXPECT_NE(text.find("syncml_http_requests_total{route=\"sync\",status=\"200\"} 2"), std::string::npos) << text;
    EXPECT_NE(text.find("syncml_http_request_bytes_total{route=\"sync\"} 400"), std::string::npos);
    EXPECT_NE(text.find("syncml_http_response_bytes_total{route=\"sync\"} 550"), std::string::npos);
    EXPECT_NE(text.find("syncml_http_in_flight_requests 0"), std::string::npos);
    EXPECT_NE(text.find("syncml_http_request_duration_seconds_count{route=\"sync\"} 2"), std::string::npos);
    EXPECT_NE(text.find("syncml_build_info{revision=\"0123abcd4567\",version=\"1.2.3\"} 1"), std::string::npos) << text;
}

TEST(server_metrics, counts_the_client_routes_from_zero) {
    prometheus::Registry registry;
    server_metrics metrics(registry, "0", "0");
    const std::string text = serialize_metrics(registry);
    for (const char* route : {"sync", "dav"}) {
        for (const char* status : {"200", "500", "503"}) {
            const std::string series =
                std::string("syncml_http_requests_total{route=\"") + route + "\",status=\"" + status + "\"} 0";
            EXPECT_NE(text.find(series), std::string::npos) << series << "\n" << text;
        }
        EXPECT_NE(text.find(std::string("syncml_http_request_duration_seconds_count{route=\"") + route + "\"} 0"),
                  std::string::npos);
    }
}

TEST(server_metrics, reports_pool_observations) {
    prometheus::Registry registry;
    server_metrics metrics(registry, "0", "unknown");
    metrics.queue_length(7);
    metrics.queue_wait(std::chrono::milliseconds(3));
    metrics.database_error();
    const std::string text = serialize_metrics(registry);
    EXPECT_NE(text.find("syncml_worker_queue_length 7"), std::string::npos) << text;
    EXPECT_NE(text.find("syncml_worker_queue_wait_seconds_count 1"), std::string::npos);
    EXPECT_NE(text.find("syncml_db_errors_total 1"), std::string::npos);
}

}  // namespace
}  // namespace syncml::server
