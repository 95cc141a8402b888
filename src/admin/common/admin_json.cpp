#include "src/admin/common/admin_json.hpp"

#include <optional>

#include "src/admin/common/json_writer.hpp"
#include "src/telemetry/logging.hpp"

namespace syncml::server {
namespace {

void write_tenant(json_object& o, const persistence::tenant_info& t) {
    const auto& s = t.settings;
    o.text("name", t.name);
    o.text("conflict_policy", persistence::to_string(s.on_conflict));
    o.text("session_binding", persistence::to_string(s.binding));
    o.boolean("auth_basic", s.auth_basic);
    o.boolean("auth_md5", s.auth_md5);
    o.boolean("dav", s.dav);
    o.number("max_sessions", s.max_sessions);
    o.number("max_devices_per_user", s.max_devices_per_user);
    o.number("max_items_per_datastore", s.max_items_per_datastore);
    o.number("max_message_bytes", s.max_message_bytes);
    o.number("max_object_bytes", s.max_object_bytes);
    o.number("max_user_bytes", s.max_user_bytes);
    o.boolean("push", s.push);
    o.number("push_daily_budget", s.push_daily_budget);
    o.number("tombstone_retention_days", s.tombstone_retention_days);
    o.number("window_past_days", s.window.past_days);
    o.number("window_future_days", s.window.future_days);
    o.number("window_max_items", s.window.max_items);
    o.number("window_max_photo_bytes", s.window.max_photo_bytes);
}

}  // namespace

std::string tenants_json(const std::vector<persistence::tenant_info>& tenants) {
    return array_of(tenants, write_tenant);
}

std::string users_json(const std::vector<persistence::user_info>& users) {
    return array_of(users, [](json_object& o, const persistence::user_info& u) {
        o.text("name", u.name);
        o.boolean("disabled", u.disabled);
    });
}

std::string devices_json(const std::vector<persistence::device_info>& devices) {
    return array_of(devices, [](json_object& o, const persistence::device_info& d) {
        o.text("device", d.device_uri);
        o.optional_text("last_seen", d.last_seen);
        o.number("datastores", d.stores);
    });
}

std::string tenant_json(const persistence::tenant_details& details) {
    return object_of([&](json_object& o) {
        write_tenant(o, details.tenant);
        o.text("created_at", details.created_at);
        o.number("users", details.users);
        o.number("disabled_users", details.disabled_users);
        o.number("devices", details.devices);
        o.number("live_sessions", details.live_sessions);
    });
}

std::string user_json(const persistence::user_details& details) {
    return object_of([&](json_object& o) {
        o.text("name", details.name);
        o.text("created_at", details.created_at);
        o.boolean("disabled", details.disabled_at.has_value());
        o.optional_text("disabled_at", details.disabled_at);
        o.number("devices", details.devices);
        o.optional_text("last_sync", details.last_sync);
        o.number("stored_bytes", details.stored_bytes);
        o.number("max_user_bytes", details.max_user_bytes);
        o.raw("datastores",
              bare_array_of(details.datastores, [](json_object& d, const persistence::datastore_usage& s) {
                  d.text("name", s.name);
                  d.text("kind", s.kind);
                  d.number("items", s.items);
                  d.number("tombstones", s.tombstones);
                  d.number("modseq", s.modseq);
                  d.number("stored_bytes", s.stored_bytes);
              }));
    });
}

std::string device_window_json(const std::string& device, bool own, const persistence::sync_window& w) {
    return object_of([&](json_object& o) {
        o.text("device", device);
        o.text("source", own ? "device" : "tenant");
        o.number("window_past_days", w.past_days);
        o.number("window_future_days", w.future_days);
        o.number("window_max_items", w.max_items);
        o.number("window_max_photo_bytes", w.max_photo_bytes);
    });
}

std::string device_collections_json(const std::string& device,
                                    const std::vector<persistence::device_collection>& collections) {
    return object_of([&](json_object& o) {
        o.text("device", device);
        o.raw("collections", bare_array_of(collections, [](json_object& c, const persistence::device_collection& d) {
                  c.text("datastore", common::datastore_name(d.kind));
                  c.text("collection", d.collection);
                  c.boolean("chosen", d.chosen);
                  c.boolean("deleted", d.deleted);
              }));
    });
}

std::string push_status_json(const std::optional<persistence::push_status>& status) {
    if (!status) return "null";
    std::string out;
    {
        json_object o(out);
        const auto& s = status->settings;
        o.optional_text("phone_number", s.phone_number);
        std::string stores = "[";
        for (const auto& kind : s.datastores) {
            if (stores.size() > 1) stores += ',';
            append_json_string(stores, kind);
        }
        o.raw("datastores", stores + "]");
        o.boolean("server_password", !s.server_password.empty());
        o.optional_text("quiet_start", s.quiet_start);
        o.optional_text("quiet_end", s.quiet_end);
        o.text("time_zone", s.time_zone);
        o.boolean("pending", status->pending);
        o.number("changes", status->changes);
        o.optional_text("due_at", status->due_at);
        o.optional_text("notified_at", status->notified_at);
        o.optional_text("last_result", status->last_result);
        o.number("attempts", status->attempts);
    }
    return out;
}

std::string device_push_json(const std::string& device, const std::optional<persistence::push_status>& status) {
    return object_of([&](json_object& o) {
        o.text("device", device);
        o.raw("push", push_status_json(status));
    });
}

std::string device_json(const persistence::device_details& details,
                        const std::optional<persistence::push_status>& push) {
    return object_of([&](json_object& o) {
        o.text("device", details.device_uri);
        o.text("user", details.user);
        o.text("first_seen", details.first_seen);
        o.optional_text("last_seen", details.last_seen);
        o.optional_text("address_continued", details.address_continued);
        o.boolean("devinf", details.has_devinf);
        o.raw("datastores",
              bare_array_of(details.stores, [](json_object& d, const persistence::device_store_details& s) {
                  d.text("datastore", s.datastore);
                  d.text("remote_uri", s.remote_uri);
                  d.optional_text("format", s.format);
                  d.optional_text("last_sync", s.last_sync);
                  d.boolean("needs_slow_sync", s.needs_slow_sync);
                  d.number("mapped_items", s.mapped_items);
              }));
        o.raw("push", push_status_json(push));
    });
}

std::string sessions_json(const std::vector<persistence::session_info>& sessions) {
    return array_of(sessions, [](json_object& o, const persistence::session_info& s) {
        o.number("id", s.id);
        o.text("session", s.syncml_session_id);
        o.optional_text("user", s.user);
        o.text("device", s.device_uri);
        o.text("started", s.started);
        o.text("last_message", s.last_message);
        o.number("messages", s.messages);
        o.boolean("finished", s.finished);
    });
}

std::string tokens_json(const std::vector<persistence::admin_token_info>& tokens) {
    return array_of(tokens, [](json_object& o, const persistence::admin_token_info& t) {
        o.text("name", t.name);
        o.optional_text("tenant", t.tenant);
        o.text("created_at", t.created_at);
        o.optional_text("last_used_at", t.last_used_at);
    });
}

std::string audit_json(const std::vector<persistence::audit_record>& records) {
    const auto empty_as_null = [](const std::string& text) {
        return text.empty() ? std::nullopt : std::optional<std::string>(text);
    };
    return array_of(records, [&](json_object& o, const persistence::audit_record& r) {
        o.number("id", r.id);
        o.text("at", r.at);
        o.text("actor", r.entry.actor);
        o.text("action", r.entry.action);
        o.optional_text("tenant", empty_as_null(r.entry.tenant));
        o.optional_text("target", empty_as_null(r.entry.target));
        o.text("result", r.entry.result);
    });
}

}  // namespace syncml::server
