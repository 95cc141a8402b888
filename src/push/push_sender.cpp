#include "src/push/push_sender.hpp"

#include <algorithm>

#include "common/log/log_event.hpp"
#include "push/notification/legacy_san.hpp"
#include "session/codec/codec.hpp"

namespace syncml::server {
namespace {

using namespace std::chrono_literals;

// A notification whose claim another sender may take over after this (a sender that died, or hangs in a gateway).
constexpr std::chrono::seconds k_lease{120};
constexpr int k_claims_per_pass = 50;
constexpr std::chrono::seconds k_queue_count_interval{15};

// The content type the device takes for a datastore, from its DevInf: the datastore its own URI names, else the
// first of that kind.
std::string device_type_of(const session::dev_inf* info, const persistence::push_store& store) {
    if (!info) return {};
    for (const auto& ds : info->datastores) {
        if (ds.source_ref == store.client_uri && ds.rx_pref) return ds.rx_pref->ct_type;
    }
    return {};
}

std::optional<session::dev_inf> devinf_of(const std::string& bytes) {
    if (bytes.empty()) return std::nullopt;
    auto decoded = session::decode_devinf(bytes);
    if (!decoded) return std::nullopt;
    return decoded.value();
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ",") + n;
    return out;
}

// Seconds until the next UTC midnight, when the tenant's daily budget starts afresh.
std::chrono::seconds until_utc_midnight() {
    const auto now = std::chrono::system_clock::now();
    const auto midnight = std::chrono::floor<std::chrono::days>(now) + std::chrono::days{1};
    return std::chrono::ceil<std::chrono::seconds>(midnight - now);
}

}  // namespace

push_metrics::push_metrics(prometheus::Registry& registry)
    : queued(prometheus::BuildGauge()
                 .Name("syncml_push_queued")
                 .Help("Devices with a notification waiting in the outbox (all instances), as this instance's sender "
                       "last counted")
                 .Register(registry)
                 .Add({})),
      sent(prometheus::BuildCounter()
               .Name("syncml_push_sent_total")
               .Help("Notifications a transport took (2xx), by transport: webhook, sms")
               .Register(registry)),
      failed(prometheus::BuildCounter()
                 .Name("syncml_push_failed_total")
                 .Help("Notifications a transport did not take (no answer or not 2xx), by transport: webhook, sms")
                 .Register(registry)),
      coalesced(prometheus::BuildCounter()
                    .Name("syncml_push_coalesced_total")
                    .Help("Changes that cost no notification of their own: announced by one that announced others, "
                          "or held back until the device synced after the last one")
                    .Register(registry)
                    .Add({})),
      over_budget(prometheus::BuildCounter()
                      .Name("syncml_push_over_budget_total")
                      .Help("Notifications held back until the next UTC day by their tenant's daily budget")
                      .Register(registry)
                      .Add({})),
      skipped(prometheus::BuildCounter()
                  .Name("syncml_push_skipped_total")
                  .Help("Notifications not sent, by reason: nothing_new (the device made the changes or has them), "
                        "tenant_off, user_disabled, no_route, quiet_hours, gave_up")
                  .Register(registry)) {
    for (const char* transport : {"webhook", "sms"}) {
        sent.Add({{"transport", transport}});
        failed.Add({{"transport", transport}});
    }
    for (const char* reason : {"nothing_new", "tenant_off", "user_disabled", "no_route", "quiet_hours", "gave_up"}) {
        skipped.Add({{"reason", reason}});
    }
}

std::chrono::seconds push_retry_delay(int attempt) {
    const auto doubled = std::chrono::seconds{10} * (1LL << std::min(attempt - 1, 12));
    return std::min<std::chrono::seconds>(doubled, std::chrono::hours{1});
}

push_sender::push_sender(persistence::database& db, push::http_client& client, const push_config& config,
                         std::string public_url, push_metrics& metrics, spdlog::logger& log)
    : db_(db),
      client_(client),
      config_(config),
      public_url_(std::move(public_url)),
      metrics_(metrics),
      log_(log),
      random_(std::random_device{}()) {}

std::string push_sender::server_id(const std::string& tenant) const {
    if (!config_.server_id.empty()) return config_.server_id;
    return public_url_ + (tenant == "default" ? "/sync" : "/sync/" + tenant);
}

push_pass push_sender::run_once() {
    push_pass pass;
    const auto now = std::chrono::steady_clock::now();
    if (queue_counted_ == std::chrono::steady_clock::time_point{} || now - queue_counted_ >= k_queue_count_interval) {
        metrics_.queued.Set(static_cast<double>(persistence::pending_pushes(db_)));
        queue_counted_ = now;
    }
    const auto max_wait = config_.settle * 10;
    for (const auto& key : persistence::due_pushes(db_, config_.settle, max_wait, k_claims_per_pass)) {
        auto claimed = persistence::claim_push(db_, key, k_lease);
        if (!claimed) continue;  // another sender took it, or a change made it wait
        ++pass.claimed;
        handle(*claimed, pass);
    }
    return pass;
}

void push_sender::handle(const persistence::claimed_push& c, push_pass& pass) {
    const auto drop = [&](const char* reason, const char* metric) {
        persistence::push_dropped(db_, c, reason);
        metrics_.skipped.Add({{"reason", metric}}).Increment();
        ++pass.dropped;
        common::log_event(
            log_, spdlog::level::debug, "push: not sent",
            {{"tenant", c.tenant_name}, {"user", c.user_name}, {"device", c.device_uri}, {"reason", reason}});
    };
    const auto postpone = [&](std::chrono::seconds delay, const char* reason) {
        persistence::push_postponed(db_, c, std::max(delay, std::chrono::seconds{1}), reason);
        ++pass.postponed;
        common::log_event(log_, spdlog::level::debug, "push: postponed",
                          {{"tenant", c.tenant_name},
                           {"user", c.user_name},
                           {"device", c.device_uri},
                           {"reason", reason},
                           {"seconds", static_cast<std::int64_t>(delay.count())}});
    };
    if (!c.tenant_push) return drop("push is off for the tenant", "tenant_off");
    if (!c.user_enabled) return drop("the user is disabled", "user_disabled");
    if (c.stores.empty()) return drop("nothing new for the device", "nothing_new");
    if (config_.webhook_url.empty() && (!c.settings.phone_number || config_.sms_url.empty())) {
        return drop("no transport reaches the device", "no_route");
    }
    if (c.quiet_for_seconds) {
        metrics_.skipped.Add({{"reason", "quiet_hours"}}).Increment();
        return postpone(std::chrono::seconds{*c.quiet_for_seconds}, "quiet hours");
    }
    const auto renotify = std::chrono::duration_cast<std::chrono::seconds>(config_.renotify);
    if (c.unanswered_for_seconds && std::chrono::seconds{*c.unanswered_for_seconds} < renotify) {
        metrics_.coalesced.Increment(static_cast<double>(c.changes));
        return postpone(renotify - std::chrono::seconds{*c.unanswered_for_seconds}, "waiting for the device to sync");
    }
    if (!persistence::take_push_budget(db_, c.key.tenant, c.daily_budget)) {
        metrics_.over_budget.Increment();
        common::log_event(
            log_, spdlog::level::warn, "push: tenant over its daily budget",
            {{"tenant", c.tenant_name}, {"user", c.user_name}, {"device", c.device_uri}, {"budget", c.daily_budget}});
        return postpone(until_utc_midnight(), "over the tenant's daily budget");
    }
    if (send(c, pass)) {
        persistence::push_sent(db_, c, "sent");
        metrics_.coalesced.Increment(static_cast<double>(std::max<std::int64_t>(c.changes - 1, 0)));
        ++pass.sent;
        return;
    }
    const int attempt = c.attempts + 1;
    if (attempt >= k_push_max_attempts) {
        common::log_event(
            log_, spdlog::level::err, "push: given up",
            {{"tenant", c.tenant_name}, {"user", c.user_name}, {"device", c.device_uri}, {"attempts", attempt}});
        return drop("given up after failed sends", "gave_up");
    }
    persistence::push_failed(db_, c, push_retry_delay(attempt), "failed");
    ++pass.failed;
}

bool push_sender::send(const persistence::claimed_push& c, push_pass&) {
    const auto info = devinf_of(c.devinf);
    push::notification n;
    n.server_id = server_id(c.tenant_name);
    n.session_id = static_cast<std::uint16_t>(random_() & 0xffff);
    n.ui = push::ui_mode::background;
    n.by = push::initiator::server;
    std::vector<std::string> kinds;
    for (const auto& store : c.stores) {
        const auto type = device_type_of(info ? &*info : nullptr, store);
        n.datastores.push_back(
            {session::sync_modes::two_way, push::content_type_code(type), store.kind, store.client_uri, type});
        kinds.push_back(store.kind);
    }
    const push::server_secret secret{c.settings.server_password, c.settings.server_nonce};
    push::addressed_notification out;
    out.tenant = c.tenant_name;
    out.user = c.user_name;
    out.device = c.device_uri;
    out.phone_number = c.settings.phone_number;
    out.datastores = kinds;
    out.changes = c.changes;
    const bool legacy = info && (info->ver_dtd == "1.0" || info->ver_dtd == "1.1");
    if (legacy) {
        const auto version = info->ver_dtd == "1.0" ? session::syncml_version::v1_0 : session::syncml_version::v1_1;
        out.bytes = push::encode_legacy_san(n, secret, {version, c.device_uri}).bytes;
        out.content_type = std::string(push::k_syncml_wbxml_type);
    } else {
        auto san = push::encode_san(n, secret);
        if (san.error) {
            common::log_event(
                log_, spdlog::level::err, "push: notification not encodable",
                {{"tenant", c.tenant_name}, {"device", c.device_uri}, {"reason", push::describe(*san.error)}});
            return false;
        }
        out.bytes = std::move(san.bytes);
        out.content_type = std::string(push::k_ds_notification_type);
    }
    bool delivered = false;
    const auto through = [&](const char* transport, const push::http_request& request) {
        const auto response = client_.send(request);
        const bool ok = response.delivered();
        (ok ? metrics_.sent : metrics_.failed).Add({{"transport", transport}}).Increment();
        delivered = delivered || ok;
        if (ok) {
            common::log_event(log_, spdlog::level::info, "push: notification sent",
                              {{"tenant", c.tenant_name},
                               {"user", c.user_name},
                               {"device", c.device_uri},
                               {"transport", transport},
                               {"status", response.status},
                               {"datastores", joined(kinds)},
                               {"changes", c.changes},
                               {"attempt", c.attempts + 1}});
        } else {
            common::log_event(log_, spdlog::level::warn, "push: transport failed",
                              {{"tenant", c.tenant_name},
                               {"user", c.user_name},
                               {"device", c.device_uri},
                               {"transport", transport},
                               {"status", response.status},
                               {"error", response.error},
                               {"attempt", c.attempts + 1}});
        }
    };
    if (!config_.webhook_url.empty()) through("webhook", push::webhook_request(config_.webhook_url, out));
    if (!config_.sms_url.empty()) {
        if (auto sms = push::sendsms_request(config_.sms_url, out)) through("sms", *sms);
    }
    return delivered;
}

}  // namespace syncml::server
