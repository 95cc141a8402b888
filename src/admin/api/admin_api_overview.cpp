#include "src/admin/api/admin_api_overview.hpp"

#include <charconv>
#include <chrono>
#include <ctime>

#include "dav/dav_paths.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/admin_lists.hpp"
#include "persistence/accounts/admin_tokens.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/pg/migrations.hpp"
#include "src/admin/api/admin_api_body.hpp"
#include "src/admin/common/admin_json.hpp"
#include "src/admin/common/json_writer.hpp"
#include "src/frontends/sync_activity.hpp"

namespace syncml::server {
namespace {

constexpr int k_default_page = 100;
constexpr int k_max_page = 1000;

std::int64_t now_seconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

const std::string& tenant_of(const admin_call& call) { return call.match.params.at("tenant"); }

// ?limit=N within 1..k_max_page; `fallback` when absent.
int limit_of(const admin_call& call, int fallback) {
    const auto text = query_parameter(call.target, "limit");
    if (!text) return fallback;
    int limit = 0;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), limit);
    if (ec != std::errc{} || end != text->data() + text->size() || limit < 1 || limit > k_max_page) {
        throw admin_field_error("limit", "limit '" + *text + "' (expected 1 to " + std::to_string(k_max_page) + ")");
    }
    return limit;
}

// The tenant of a route that takes ?tenant=: a tenant token's own whatever it asks (another is one that does not
// exist); empty: all tenants.
std::string tenant_parameter(persistence::database& db, const admin_call& call) {
    std::string tenant = query_parameter(call.target, "tenant").value_or("");
    if (call.scope) {
        if (!tenant.empty() && tenant != *call.scope) throw persistence::not_found("no tenant named '" + tenant + "'");
        return *call.scope;
    }
    if (!tenant.empty() && !persistence::find_tenant(db, tenant)) {
        throw persistence::not_found("no tenant named '" + tenant + "'");
    }
    return tenant;
}

// RFC 8288: where the next page is, when this one is full (the next may then be empty).
void link_next(admin_result& result, std::size_t rows, int limit, const std::string& path, const std::string& after) {
    if (rows < static_cast<std::size_t>(limit)) return;
    result.headers.emplace_back("Link", "<" + path + "?limit=" + std::to_string(limit) +
                                            "&after=" + dav::percent_encode(after) + ">; rel=\"next\"");
}

admin_result show_status(persistence::database& db, const admin_call& call) {
    const admin_instance fallback;
    const admin_instance& instance = call.instance != nullptr ? *call.instance : fallback;
    std::string reason;
    const bool ready = !instance.ready || instance.ready(reason);
    const auto schema = persistence::read_schema_status(db);
    std::string out;
    {
        json_object o(out);
        o.text("version", instance.version);
        o.text("started_at", iso_utc(instance.started_at));
        o.number("uptime_seconds", now_seconds() - instance.started_at);
        o.boolean("ready", ready);
        // Why not ready may name hosts and users of the database: the operator's, not a tenant's.
        if (ready || call.scope) {
            o.null("reason");
        } else {
            o.text("reason", reason);
        }
        std::string database;
        {
            json_object d(database);
            d.number("schema_version", schema.current);
            d.number("latest_schema_version", schema.latest);
            d.boolean("distributed", schema.distributed);
        }
        o.raw("database", database);
        std::string token;
        {
            json_object t(token);
            t.text("name", call.token_name);
            t.optional_text("tenant", call.scope);
        }
        o.raw("token", token);
    }
    return {.status = 200, .json = out + "\n"};
}

admin_result show_activity(persistence::database& db, const admin_call& call) {
    const std::string tenant = tenant_parameter(db, call);
    std::vector<activity_minute> minutes;
    if (call.instance != nullptr && call.instance->activity != nullptr) {
        minutes = call.instance->activity->last_hour(tenant, now_seconds());
    }
    const std::string list = bare_array_of(minutes, [](json_object& o, const activity_minute& m) {
        o.text("minute", iso_utc(m.minute));
        o.number("sessions", m.sessions);
        o.number("errors", m.errors);
    });
    return {.status = 200, .json = object_of([&](json_object& o) {
                               o.optional_text("tenant",
                                               tenant.empty() ? std::nullopt : std::optional<std::string>(tenant));
                               o.raw("minutes", list);
                           })};
}

admin_result list_failed_logins(persistence::database& db, const admin_call& call) {
    const std::string tenant = tenant_parameter(db, call);
    const int limit = limit_of(call, 50);
    std::vector<failed_login> logins;
    if (call.instance != nullptr && call.instance->activity != nullptr) {
        logins = call.instance->activity->failed_logins(tenant, static_cast<std::size_t>(limit));
    }
    return {.status = 200, .json = array_of(logins, [](json_object& o, const failed_login& f) {
                               o.text("at", iso_utc(f.at));
                               o.text("tenant", f.tenant);
                               o.text("user", f.user);
                               o.text("device", f.device);
                               o.text("address", f.address);
                           })};
}

admin_result list_devices_of_tenant(persistence::database& db, const admin_call& call) {
    const std::string& tenant = tenant_of(call);
    const int limit = limit_of(call, k_default_page);
    std::int64_t after = 0;
    if (const auto text = query_parameter(call.target, "after")) {
        const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), after);
        if (ec != std::errc{} || end != text->data() + text->size() || after < 0) {
            throw admin_field_error("after", "after '" + *text + "' (expected the id of the last device seen)");
        }
    }
    const auto devices = persistence::list_tenant_devices(db, tenant, after, limit);
    const sync_activity* activity = call.instance != nullptr ? call.instance->activity : nullptr;
    admin_result result{.status = 200,
                        .json = array_of(devices, [&](json_object& o, const persistence::tenant_device& d) {
                            o.number("id", d.id);
                            o.text("user", d.user);
                            o.text("device", d.device_uri);
                            o.text("first_seen", d.first_seen);
                            o.optional_text("last_seen", d.last_seen);
                            o.optional_text("last_sync", d.last_sync);
                            o.number("datastores", d.stores);
                            o.boolean("needs_slow_sync", d.needs_slow_sync);
                            const auto error =
                                activity != nullptr ? activity->last_error(tenant, d.device_uri) : std::nullopt;
                            if (!error) {
                                o.null("last_error");
                                return;
                            }
                            std::string text;
                            {
                                json_object e(text);
                                e.text("at", iso_utc(error->at));
                                e.text("message", error->message);
                            }
                            o.raw("last_error", text);
                        })};
    if (!devices.empty()) {
        link_next(result, devices.size(), limit, "/admin/v1/tenants/" + dav::percent_encode(tenant) + "/devices",
                  std::to_string(devices.back().id));
    }
    return result;
}

// A token's scope as the body gives it: "tenant": a name, or null or absent for all tenants.
std::optional<std::string> token_scope_of(const json_value& body) {
    const json_value* tenant = body.find("tenant");
    if (tenant == nullptr || tenant->type == json_value::kind::null) return std::nullopt;
    if (tenant->type != json_value::kind::string || tenant->text.empty()) {
        throw admin_field_error("tenant", "tenant must be a tenant's name or null (all tenants)");
    }
    return tenant->text;
}

admin_result create_token(persistence::database& db, const admin_call& call) {
    static const json_value empty;
    const json_value& body = call.body != nullptr ? *call.body : empty;
    require_only(body, {"name", "tenant"});
    const std::string name = required_string(body, "name");
    const auto scope = token_scope_of(body);
    if (call.scope && scope != call.scope) throw admin_forbidden("this token is limited to tenant " + *call.scope);
    std::string token;
    try {
        token = persistence::create_admin_token(db, name, scope);
    } catch (const std::invalid_argument& e) {  // a malformed name (not_found and already_exists pass)
        throw admin_field_error("name", e.what());
    }
    return {.status = 201, .json = object_of([&](json_object& o) {
                               o.text("name", name);
                               o.optional_text("tenant", scope);
                               o.text("token", token);
                           })};
}

}  // namespace

std::string iso_utc(std::int64_t seconds) {
    const std::time_t t = static_cast<std::time_t>(seconds);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char text[32];
    const auto length = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return std::string(text, length);
}

admin_result list_users_of(persistence::database& db, const admin_call& call) {
    const auto after = query_parameter(call.target, "after");
    if (!after && !query_parameter(call.target, "limit")) {
        return {.status = 200, .json = users_json(persistence::list_users(db, tenant_of(call)))};
    }
    const int limit = limit_of(call, k_default_page);
    const auto users = persistence::list_users_page(db, tenant_of(call), after.value_or(""), limit);
    admin_result result{.status = 200, .json = users_json(users)};
    if (!users.empty()) {
        link_next(result, users.size(), limit, "/admin/v1/tenants/" + dav::percent_encode(tenant_of(call)) + "/users",
                  users.back().name);
    }
    return result;
}

admin_result run_overview_op(persistence::database& db, const admin_call& call) {
    switch (call.match.route->op) {
        case admin_op::status_show:
            return show_status(db, call);
        case admin_op::activity_show:
            return show_activity(db, call);
        case admin_op::failed_login_list:
            return list_failed_logins(db, call);
        case admin_op::tenant_device_list:
            return list_devices_of_tenant(db, call);
        default:
            throw std::logic_error("not an overview operation");
    }
}

admin_result run_token_op(persistence::database& db, const admin_call& call) {
    const auto visible = [&](const persistence::admin_token_info& token) {
        return !call.scope || token.tenant == call.scope;
    };
    switch (call.match.route->op) {
        case admin_op::token_list: {
            auto tokens = persistence::list_admin_tokens(db);
            std::erase_if(tokens, [&](const auto& token) { return !visible(token); });
            return {.status = 200, .json = tokens_json(tokens)};
        }
        case admin_op::token_create:
            return create_token(db, call);
        case admin_op::token_delete: {
            const std::string& name = call.match.params.at("token");
            const auto tokens = persistence::list_admin_tokens(db);
            const auto found =
                std::find_if(tokens.begin(), tokens.end(), [&](const auto& t) { return t.name == name; });
            if (found == tokens.end() || !visible(*found))
                throw persistence::not_found("no admin token named '" + name + "'");
            persistence::delete_admin_token(db, name);
            return {.status = 204, .json = {}};
        }
        default:
            throw std::logic_error("not a token operation");
    }
}

}  // namespace syncml::server
