#include "src/app/tenant_metrics.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace syncml::server {
namespace {

persistence::tenant_figures tenant(const std::string& name, std::int64_t bytes, std::int64_t users = 1) {
    return {.tenant = name, .users = users, .devices = 2 * users, .stored_bytes = bytes, .max_sessions = 100};
}

// tenant -> value of one family.
std::map<std::string, double> gauge(prometheus::Registry& registry, const std::string& name) {
    std::map<std::string, double> out;
    for (const auto& family : registry.Collect()) {
        if (family.name != name) continue;
        for (const auto& metric : family.metric) {
            out[metric.label.empty() ? "" : metric.label[0].value] = metric.gauge.value;
        }
    }
    return out;
}

TEST(tenant_metrics, lists_the_largest_tenants_and_sums_the_rest_as_other) {
    prometheus::Registry registry;
    tenant_metrics metrics(registry, 2);
    metrics.publish({tenant("small", 10, 5), tenant("big", 1000), tenant("mid", 500), tenant("tiny", 1, 7)});
    EXPECT_EQ(gauge(registry, "syncml_tenant_stored_bytes"),
              (std::map<std::string, double>{{"big", 1000}, {"mid", 500}, {"_other", 11}}));
    EXPECT_EQ(gauge(registry, "syncml_tenant_users").at("_other"), 12);
    EXPECT_EQ(gauge(registry, "syncml_tenant_devices").at("_other"), 24);
    EXPECT_EQ(gauge(registry, "syncml_tenants").at(""), 4);
    EXPECT_EQ(gauge(registry, "syncml_tenant_max_sessions").count("_other"), 0U) << "a sum of limits means nothing";
}

TEST(tenant_metrics, lists_a_tenant_at_a_limit_before_larger_ones) {
    prometheus::Registry registry;
    tenant_metrics metrics(registry, 1);
    auto busy = tenant("busy", 1);
    busy.live_sessions = 95;
    metrics.publish({tenant("big", 1000), busy});
    EXPECT_EQ(gauge(registry, "syncml_tenant_live_sessions").count("busy"), 1U);
    EXPECT_EQ(gauge(registry, "syncml_tenant_stored_bytes").at("_other"), 1000);
    auto full = tenant("full", 1);
    full.users_near_quota = 1;
    EXPECT_TRUE(at_a_limit(full));
    EXPECT_FALSE(at_a_limit(tenant("big", 1000)));
}

TEST(tenant_metrics, drops_the_series_of_a_tenant_no_longer_listed) {
    prometheus::Registry registry;
    tenant_metrics metrics(registry, 5);
    metrics.publish({tenant("a", 1), tenant("b", 2)});
    metrics.publish({tenant("b", 3)});
    EXPECT_EQ(gauge(registry, "syncml_tenant_stored_bytes"), (std::map<std::string, double>{{"b", 3}}));
    EXPECT_EQ(gauge(registry, "syncml_tenant_max_sessions").count("a"), 0U);
}

TEST(tenant_metrics, with_a_top_of_zero_every_tenant_is_other) {
    prometheus::Registry registry;
    tenant_metrics metrics(registry, 0);
    metrics.publish({tenant("a", 1), tenant("b", 2)});
    EXPECT_EQ(gauge(registry, "syncml_tenant_stored_bytes"), (std::map<std::string, double>{{"_other", 3}}));
}

}  // namespace
}  // namespace syncml::server
