#include "session/engine/engine_metrics.hpp"

#include <array>
#include <cctype>
#include <string>

#include "session/protocol/sync_mode.hpp"

namespace syncml::session {
namespace {

const char* result_name(engine_metrics::message_result result) {
    switch (result) {
        case engine_metrics::message_result::ok:
            return "ok";
        case engine_metrics::message_result::resend:
            return "resend";
        case engine_metrics::message_result::auth_failed:
            return "auth_failed";
        case engine_metrics::message_result::bad_request:
            return "bad_request";
        case engine_metrics::message_result::unavailable:
            return "unavailable";
    }
    return "ok";
}

const char* mode_name(int mode) {
    switch (mode) {
        case 200:
            return "two_way";
        case 201:
            return "slow";
        case 202:
            return "one_way_from_client";
        case 203:
            return "refresh_from_client";
        case 204:
            return "one_way_from_server";
        case 205:
            return "refresh_from_server";
        default:
            return "other";
    }
}

prometheus::Histogram::BucketBoundaries seconds_buckets() {
    return {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
}

const char* limit_name(engine_metrics::limit which) {
    switch (which) {
        case engine_metrics::limit::object_bytes:
            return "object_bytes";
        case engine_metrics::limit::items_per_datastore:
            return "items_per_datastore";
        case engine_metrics::limit::message_bytes:
            return "message_bytes";
        case engine_metrics::limit::worker_share:
            return "worker_share";
        case engine_metrics::limit::devices_per_user:
            return "devices_per_user";
        case engine_metrics::limit::sessions:
            return "sessions";
        case engine_metrics::limit::client_address:
            return "client_address";
        case engine_metrics::limit::user_bytes:
            return "user_bytes";
    }
    return "other";
}

constexpr std::array k_limits{engine_metrics::limit::object_bytes,     engine_metrics::limit::items_per_datastore,
                              engine_metrics::limit::message_bytes,    engine_metrics::limit::worker_share,
                              engine_metrics::limit::devices_per_user, engine_metrics::limit::sessions,
                              engine_metrics::limit::client_address,   engine_metrics::limit::user_bytes};

const char* continuation_name(engine_metrics::continuation by) {
    switch (by) {
        case engine_metrics::continuation::token:
            return "token";
        case engine_metrics::continuation::credentials:
            return "credentials";
        case engine_metrics::continuation::address:
            return "address";
    }
    return "token";
}

constexpr std::array k_continuations{engine_metrics::continuation::token, engine_metrics::continuation::credentials,
                                     engine_metrics::continuation::address};

constexpr std::array k_results{engine_metrics::message_result::ok, engine_metrics::message_result::resend,
                               engine_metrics::message_result::auth_failed, engine_metrics::message_result::bad_request,
                               engine_metrics::message_result::unavailable};
constexpr std::array k_modes{alert_codes::two_way,
                             alert_codes::slow_sync,
                             alert_codes::one_way_from_client,
                             alert_codes::refresh_from_client,
                             alert_codes::one_way_from_server,
                             alert_codes::refresh_from_server};
constexpr std::array<const char*, 3> k_operations{"add", "replace", "delete"};
constexpr std::array<const char*, 2> k_directions{"from_client", "to_client"};
// The codes of session/protocol/sync_mode.hpp's status_codes, the ones the engine answers with.
constexpr std::array k_status_codes{status_codes::ok,
                                    status_codes::item_added,
                                    status_codes::conflict_merged,
                                    status_codes::conflict_client_won,
                                    status_codes::conflict_duplicated,
                                    status_codes::delete_without_archive,
                                    status_codes::item_not_deleted,
                                    status_codes::authenticated,
                                    status_codes::chunk_accepted,
                                    status_codes::bad_request,
                                    status_codes::invalid_credentials,
                                    status_codes::forbidden,
                                    status_codes::not_found,
                                    status_codes::optional_feature_not_supported,
                                    status_codes::missing_credentials,
                                    status_codes::gone,
                                    status_codes::incomplete_command,
                                    status_codes::object_too_large,
                                    status_codes::unsupported_media_type,
                                    status_codes::already_exists,
                                    status_codes::conflict_server_won,
                                    status_codes::device_full,
                                    status_codes::bad_cgi_script,
                                    status_codes::size_mismatch,
                                    status_codes::command_failed,
                                    status_codes::refresh_required,
                                    status_codes::cannot_resume};

constexpr std::array<const char*, 5> k_policies{"merge", "server_wins", "client_wins", "newest_wins", "duplicate"};
constexpr std::array<const char*, 4> k_resolutions{"merged", "server_won", "client_won", "duplicated"};

prometheus::Family<prometheus::Counter>& counters(prometheus::Registry& registry, const char* name, const char* help) {
    return prometheus::BuildCounter().Name(name).Help(help).Register(registry);
}

prometheus::Counter& counter(prometheus::Registry& registry, const char* name, const char* help) {
    return counters(registry, name, help).Add({});
}

prometheus::Histogram& seconds_histogram(prometheus::Registry& registry, const char* name, const char* help) {
    return prometheus::BuildHistogram().Name(name).Help(help).Register(registry).Add({}, seconds_buckets());
}

}  // namespace

engine_metrics::engine_metrics(prometheus::Registry& registry)
    : messages_(counters(registry, "syncml_messages_total", "SyncML messages handled, by result")),
      message_duration_(seconds_histogram(registry, "syncml_message_duration_seconds",
                                          "Time to handle one SyncML message, transaction included")),
      sessions_(counters(registry, "syncml_sessions_total", "Completed sync sessions' datastores, by sync mode")),
      items_(counters(registry, "syncml_items_total",
                      "Items exchanged in completed sessions, by operation and direction")),
      slow_syncs_(counter(registry, "syncml_slow_syncs_total", "Datastores synced in slow or refresh mode")),
      filtered_out_(counter(registry, "syncml_items_filtered_out_total",
                            "Items not sent to a device because they are outside its filter or sync window")),
      auth_failures_(
          counter(registry, "syncml_auth_failures_total", "Messages rejected for missing or wrong credentials")),
      session_duration_(seconds_histogram(registry, "syncml_session_duration_seconds",
                                          "Wall time from a session's first to its last message")),
      conflicts_(counters(registry, "syncml_conflicts_total",
                          "Items changed on both the device and the server since the device's last sync, by "
                          "tenant policy and how each was resolved")),
      statuses_(counters(registry, "syncml_statuses_total", "SyncML Status elements the server sent, by status code")),
      limit_refusals_(counters(registry, "syncml_limit_refusals_total",
                               "Requests and items refused by a server or tenant limit, by limit")),
      continuations_(counters(registry, "syncml_session_continuations_total",
                              "Later messages of a session, by what let them continue it: token, credentials or "
                              "address")) {
    // Every combination exists from the start, so dashboards and alerts see zeros rather than no data.
    for (const char* policy : k_policies) {
        for (const char* resolution : k_resolutions) conflicts_.Add({{"policy", policy}, {"resolution", resolution}});
    }
    for (auto which : k_limits) limit_refusals_.Add({{"limit", limit_name(which)}});
    for (auto by : k_continuations) continuations_.Add({{"by", continuation_name(by)}});
    for (auto result : k_results) messages_.Add({{"result", result_name(result)}});
    for (int mode : k_modes) sessions_.Add({{"mode", mode_name(mode)}});
    for (const char* op : k_operations) {
        for (const char* direction : k_directions) items_.Add({{"operation", op}, {"direction", direction}});
    }
    for (int code : k_status_codes) statuses_.Add({{"code", std::to_string(code)}});
}

void engine_metrics::continued(continuation by) { continuations_.Add({{"by", continuation_name(by)}}).Increment(); }

void engine_metrics::conflict(std::string_view policy, std::string_view resolution) {
    conflicts_.Add({{"policy", std::string(policy)}, {"resolution", std::string(resolution)}}).Increment();
}

void engine_metrics::statuses_sent(const session::message& reply) {
    for (const auto& cmd : reply.body.commands) {
        const auto* s = std::get_if<status>(&cmd.value);
        // Codes are three digits by the protocol; anything else is one bounded label value.
        bool valid = s && s->data.size() == 3 && std::isdigit(static_cast<unsigned char>(s->data[0]));
        if (s) statuses_.Add({{"code", valid ? s->data : std::string("other")}}).Increment();
    }
}

void engine_metrics::limit_refused(limit which) { limit_refusals_.Add({{"limit", limit_name(which)}}).Increment(); }

void engine_metrics::message(message_result result, std::chrono::duration<double> duration) {
    messages_.Add({{"result", result_name(result)}}).Increment();
    message_duration_.Observe(duration.count());
    if (result == message_result::auth_failed) auth_failures_.Increment();
}

void engine_metrics::session_end(const session_state& state, std::chrono::duration<double> duration) {
    session_duration_.Observe(duration.count());
    for (const auto& s : state.stores) {
        sessions_.Add({{"mode", mode_name(s.mode)}}).Increment();
        if (s.mode == 201 || s.mode == 203 || s.mode == 205) slow_syncs_.Increment();
        if (s.filtered_out > 0) filtered_out_.Increment(static_cast<double>(s.filtered_out));
        auto count = [&](const char* op, const char* direction, std::int64_t n) {
            if (n > 0) items_.Add({{"operation", op}, {"direction", direction}}).Increment(static_cast<double>(n));
        };
        count("add", "from_client", s.counts.received_add);
        count("replace", "from_client", s.counts.received_replace);
        count("delete", "from_client", s.counts.received_delete);
        count("add", "to_client", s.counts.sent_add);
        count("replace", "to_client", s.counts.sent_replace);
        count("delete", "to_client", s.counts.sent_delete);
    }
}

}  // namespace syncml::session
