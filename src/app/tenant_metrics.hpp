#pragma once
// Per-tenant gauges with a bounded number of series: the `top` tenants get a label of their own (those at a limit
// first, so that an alert names them, then the largest by stored bytes and users), the rest are summed under
// tenant="_other" (no tenant name starts with '_'). Published from the figures the janitor thread reads
// (persistence/maintenance/tenant_figures.hpp); a tenant that drops out of the top loses its series.

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include "persistence/maintenance/tenant_figures.hpp"

namespace syncml::server {

inline constexpr const char* k_other_tenants = "_other";

class tenant_metrics {
  public:
    tenant_metrics(prometheus::Registry& registry, std::size_t top);
    tenant_metrics(const tenant_metrics&) = delete;
    tenant_metrics& operator=(const tenant_metrics&) = delete;

    void publish(std::vector<persistence::tenant_figures> figures);

  private:
    void set(const std::string& tenant, const persistence::tenant_figures& figures, bool with_limit);
    void remove(const std::string& tenant);

    std::size_t top_;
    prometheus::Gauge& tenants_;
    prometheus::Family<prometheus::Gauge>& users_;
    prometheus::Family<prometheus::Gauge>& devices_;
    prometheus::Family<prometheus::Gauge>& active_devices_;
    prometheus::Family<prometheus::Gauge>& stored_bytes_;
    prometheus::Family<prometheus::Gauge>& live_sessions_;
    prometheus::Family<prometheus::Gauge>& max_sessions_;
    prometheus::Family<prometheus::Gauge>& users_near_quota_;
    std::set<std::string> shown_;
};

// Whether a tenant is at one of its limits: live sessions at 90% of its maximum, or a user at 90% of the quota.
bool at_a_limit(const persistence::tenant_figures& figures);

}  // namespace syncml::server
