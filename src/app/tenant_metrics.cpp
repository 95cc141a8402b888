#include "src/app/tenant_metrics.hpp"

#include <algorithm>
#include <tuple>

namespace syncml::server {

namespace {

prometheus::Family<prometheus::Gauge>& gauges(prometheus::Registry& registry, const char* name, const char* help) {
    return prometheus::BuildGauge().Name(name).Help(help).Register(registry);
}

// At a limit first, then the most stored bytes, then the most users, then by name (a stable order between passes).
bool listed_before(const persistence::tenant_figures& a, const persistence::tenant_figures& b) {
    return std::make_tuple(!at_a_limit(a), -a.stored_bytes, -a.users, a.tenant) <
           std::make_tuple(!at_a_limit(b), -b.stored_bytes, -b.users, b.tenant);
}

void add_to(persistence::tenant_figures& sum, const persistence::tenant_figures& one) {
    sum.users += one.users;
    sum.devices += one.devices;
    sum.active_devices += one.active_devices;
    sum.stored_bytes += one.stored_bytes;
    sum.live_sessions += one.live_sessions;
    sum.users_near_quota += one.users_near_quota;
}

}  // namespace

bool at_a_limit(const persistence::tenant_figures& figures) {
    return figures.users_near_quota > 0 ||
           (figures.max_sessions > 0 && figures.live_sessions * 10 >= figures.max_sessions * 9);
}

tenant_metrics::tenant_metrics(prometheus::Registry& registry, std::size_t top)
    : top_(top),
      tenants_(gauges(registry, "syncml_tenants", "Tenants, as the per-tenant gauges last counted them").Add({})),
      users_(
          gauges(registry, "syncml_tenant_users", "Users of the tenant (tenant=\"_other\": the tenants not listed)")),
      devices_(gauges(registry, "syncml_tenant_devices", "Devices of the tenant's users")),
      active_devices_(gauges(registry, "syncml_tenant_active_devices",
                             "Devices of the tenant that started a SyncML session in the last hour")),
      stored_bytes_(gauges(registry, "syncml_tenant_stored_bytes", "Bytes of the tenant's live items")),
      live_sessions_(gauges(registry, "syncml_tenant_live_sessions",
                            "Live SyncML sessions of the tenant, as its session limit counts them")),
      max_sessions_(gauges(registry, "syncml_tenant_max_sessions", "The tenant's session limit (--max-sessions)")),
      users_near_quota_(gauges(registry, "syncml_tenant_users_near_quota",
                               "Users of the tenant whose stored bytes reached 90% of its quota (--max-user-bytes)")) {}

void tenant_metrics::publish(std::vector<persistence::tenant_figures> figures) {
    std::sort(figures.begin(), figures.end(), listed_before);
    tenants_.Set(static_cast<double>(figures.size()));
    std::set<std::string> shown;
    persistence::tenant_figures others;
    for (std::size_t i = 0; i < figures.size(); ++i) {
        if (i >= top_) {
            add_to(others, figures[i]);
            continue;
        }
        set(figures[i].tenant, figures[i], true);
        shown.insert(figures[i].tenant);
    }
    if (figures.size() > top_) {
        set(k_other_tenants, others, false);
        shown.insert(k_other_tenants);
    }
    for (const auto& gone : shown_) {
        if (!shown.count(gone)) remove(gone);
    }
    shown_ = std::move(shown);
}

void tenant_metrics::set(const std::string& tenant, const persistence::tenant_figures& figures, bool with_limit) {
    const prometheus::Labels labels{{"tenant", tenant}};
    users_.Add(labels).Set(static_cast<double>(figures.users));
    devices_.Add(labels).Set(static_cast<double>(figures.devices));
    active_devices_.Add(labels).Set(static_cast<double>(figures.active_devices));
    stored_bytes_.Add(labels).Set(static_cast<double>(figures.stored_bytes));
    live_sessions_.Add(labels).Set(static_cast<double>(figures.live_sessions));
    users_near_quota_.Add(labels).Set(static_cast<double>(figures.users_near_quota));
    // The others' limits differ from tenant to tenant: their sum means nothing.
    if (with_limit) max_sessions_.Add(labels).Set(static_cast<double>(figures.max_sessions));
}

void tenant_metrics::remove(const std::string& tenant) {
    const prometheus::Labels labels{{"tenant", tenant}};
    for (auto* family :
         {&users_, &devices_, &active_devices_, &stored_bytes_, &live_sessions_, &max_sessions_, &users_near_quota_}) {
        family->Remove(&family->Add(labels));
    }
}

}  // namespace syncml::server
