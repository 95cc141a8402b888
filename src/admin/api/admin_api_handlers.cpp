#include "src/admin/api/admin_api_handlers.hpp"

#include <charconv>

#include "persistence/accounts/account_details.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/admin_audit.hpp"
#include "persistence/accounts/admin_sessions.hpp"
#include "persistence/pg/errors.hpp"
#include "src/admin/api/admin_api_body.hpp"
#include "src/admin/api/admin_api_overview.hpp"
#include "src/admin/api/admin_api_transfer.hpp"
#include "src/admin/cli/device_collection_command.hpp"
#include "src/admin/cli/device_push_command.hpp"
#include "src/admin/cli/device_window_command.hpp"
#include "src/admin/common/admin_json.hpp"

namespace syncml::server {
namespace {

const std::string& param(const admin_call& call, const char* name) { return call.match.params.at(name); }
const std::string& tenant_of(const admin_call& call) { return param(call, "tenant"); }

const json_value& body_of(const admin_call& call) {
    static const json_value empty_object = [] {
        json_value object;
        object.type = json_value::kind::object;
        return object;
    }();
    return call.body != nullptr ? *call.body : empty_object;
}

void require_all_tenants(const admin_call& call) {
    if (call.scope) throw admin_forbidden("this token is limited to tenant " + *call.scope);
}

admin_result created(std::string json) { return {201, std::move(json)}; }
admin_result ok(std::string json) { return {200, std::move(json)}; }
admin_result no_content() { return {204, {}}; }

admin_result list_tenants(persistence::database& db, const admin_call& call) {
    auto tenants = persistence::list_tenants(db);
    if (call.scope) std::erase_if(tenants, [&](const auto& t) { return t.name != *call.scope; });
    return ok(tenants_json(tenants));
}

admin_result create_tenant(persistence::database& db, const admin_call& call) {
    require_all_tenants(call);
    const json_value& body = body_of(call);
    auto allowed = tenant_setting_members();
    allowed.push_back("name");
    require_only(body, allowed);
    const std::string name = required_string(body, "name");
    if (!persistence::valid_tenant_name(name)) {
        throw admin_field_error("name", "name '" + name + "' (expected letters, digits, '.', '_' or '-', up to 63)");
    }
    persistence::add_tenant(db, name, settings_from(body, {}));
    return created(tenant_json(persistence::show_tenant(db, name)));
}

// What a tenant costs the server and how its users log in are the operator's: a token limited to the tenant may change
// its conflict policy, DAV and sync windows, not its limits, auth modes or session binding.
void require_tenant_scoped_settings(const admin_call& call, const json_value& body) {
    if (!call.scope) return;
    for (const auto member : operator_setting_members()) {
        if (body.find(member) != nullptr) {
            throw admin_forbidden(std::string(member) + " is set by the operator, not with a token limited to tenant " +
                                  *call.scope);
        }
    }
}

admin_result update_tenant(persistence::database& db, const admin_call& call) {
    const json_value& body = body_of(call);
    require_only(body, tenant_setting_members());
    require_tenant_scoped_settings(call, body);
    const auto tenant = persistence::find_tenant(db, tenant_of(call));
    if (!tenant) throw persistence::not_found("no tenant named '" + tenant_of(call) + "'");
    persistence::update_tenant(db, tenant->name, settings_from(body, tenant->settings));
    return ok(tenant_json(persistence::show_tenant(db, tenant->name)));
}

admin_result delete_tenant(persistence::database& db, const admin_call& call) {
    require_all_tenants(call);
    const bool force = query_parameter(call.target, "force").value_or("false") == "true";
    try {
        persistence::delete_tenant(db, tenant_of(call), force);
    } catch (const std::invalid_argument& e) {  // it still has users
        throw admin_conflict(std::string(e.what()) + " (?force=true)");
    }
    return no_content();
}

admin_result create_user(persistence::database& db, const admin_call& call) {
    const json_value& body = body_of(call);
    require_only(body, {"name", "password"});
    const std::string name = required_string(body, "name");
    const std::string password = required_string(body, "password");
    try {
        persistence::add_user(db, tenant_of(call), name, password, call.md5_key);
    } catch (const std::invalid_argument& e) {  // a name persistence refuses (not_found and already_exists pass)
        throw admin_field_error("name", e.what());
    }
    return created(user_json(persistence::show_user(db, tenant_of(call), name)));
}

admin_result set_password(persistence::database& db, const admin_call& call) {
    const json_value& body = body_of(call);
    require_only(body, {"password"});
    persistence::set_password(db, tenant_of(call), param(call, "user"), required_string(body, "password"),
                              call.md5_key);
    return no_content();
}

// A session id that is no number names no session.
std::int64_t session_id_of(const admin_call& call) {
    const std::string& text = param(call, "session");
    std::int64_t id = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc{} || end != text.data() + text.size()) {
        throw persistence::not_found("no live session " + text + " in tenant '" + tenant_of(call) + "'");
    }
    return id;
}

admin_result list_audit(persistence::database& db, const admin_call& call) {
    std::string tenant = query_parameter(call.target, "tenant").value_or("");
    if (call.scope) {
        if (!tenant.empty() && tenant != *call.scope) throw persistence::not_found("no tenant named '" + tenant + "'");
        tenant = *call.scope;
    }
    int limit = 100;
    if (const auto text = query_parameter(call.target, "limit")) {
        const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), limit);
        if (ec != std::errc{} || end != text->data() + text->size() || limit < 1 || limit > 10000) {
            throw admin_field_error("limit", "limit '" + *text + "' (expected 1 to 10000)");
        }
    }
    return ok(audit_json(persistence::list_audit(db, tenant, limit)));
}

admin_result run_user_op(persistence::database& db, const admin_call& call) {
    const std::string& tenant = tenant_of(call);
    switch (call.match.route->op) {
        case admin_op::user_list:
            return list_users_of(db, call);
        case admin_op::user_create:
            return create_user(db, call);
        case admin_op::user_show:
            return ok(user_json(persistence::show_user(db, tenant, param(call, "user"))));
        case admin_op::user_delete:
            persistence::delete_user(db, tenant, param(call, "user"));
            return no_content();
        case admin_op::user_password:
            return set_password(db, call);
        case admin_op::user_disable:
        case admin_op::user_enable:
            persistence::set_user_disabled(db, tenant, param(call, "user"),
                                           call.match.route->op == admin_op::user_disable);
            return no_content();
        default:
            throw std::logic_error("not a user operation");
    }
}

// GET shows the window in effect; PUT changes it (members given change the window in effect) or inherits.
admin_result device_window(persistence::database& db, const admin_call& call) {
    device_window_request request{tenant_of(call), param(call, "user"), param(call, "device"), {}, false, false};
    if (call.match.route->op == admin_op::device_window_set) {
        auto body = window_from(body_of(call));
        if (body.options.empty() && !body.inherit) {
            throw admin_field_error("", "give at least one window_* member, or inherit: true");
        }
        request.options = std::move(body.options);
        request.inherit = body.inherit;
    }
    const auto result = apply_device_window(db, request);  // a bad value: std::invalid_argument, 400
    return ok(device_window_json(request.device, result.own, result.window));
}

// GET shows the device's push settings and notification; PUT opts it in or changes them; DELETE opts it out.
admin_result device_push(persistence::database& db, const admin_call& call) {
    device_push_request request{tenant_of(call), param(call, "user"), param(call, "device"), {}, false, false};
    const auto op = call.match.route->op;
    if (op == admin_op::device_push_set) {
        request.options = push_options_from(body_of(call));
        if (request.options.empty()) throw admin_field_error("", "give at least one member");
    }
    request.off = op == admin_op::device_push_clear;
    const auto status = apply_device_push(db, request);  // a bad value: std::invalid_argument, 400
    if (request.off) return no_content();
    return ok(device_push_json(request.device, status));
}

// GET shows the collection each of the device's datastores syncs; PUT {"collection": NAME} points one at a collection
// of the user; DELETE points it at its kind's default again.
admin_result device_collection(persistence::database& db, const admin_call& call) {
    device_collection_request request{tenant_of(call), param(call, "user"), param(call, "device"), {}, {}, false, true};
    const auto op = call.match.route->op;
    if (op != admin_op::device_collections_show) request.datastore = param(call, "datastore");
    if (op == admin_op::device_collection_set) {
        require_only(body_of(call), {"collection"});
        request.collection = required_string(body_of(call), "collection");
    }
    request.to_default = op == admin_op::device_collection_clear;
    // A bad datastore name or a collection of another kind: std::invalid_argument, 400; an unknown collection: 404.
    return ok(device_collections_json(request.device, apply_device_collection(db, request)));
}

admin_result run_device_op(persistence::database& db, const admin_call& call) {
    const std::string& tenant = tenant_of(call);
    switch (call.match.route->op) {
        case admin_op::device_list:
            return ok(devices_json(persistence::list_devices(db, tenant, param(call, "user"))));
        case admin_op::device_show:
            return ok(device_json(persistence::show_device(db, tenant, param(call, "user"), param(call, "device")),
                                  persistence::device_push(db, tenant, param(call, "user"), param(call, "device"))));
        case admin_op::device_delete:
            persistence::delete_device(db, tenant, param(call, "user"), param(call, "device"));
            return no_content();
        case admin_op::device_window_show:
        case admin_op::device_window_set:
            return device_window(db, call);
        case admin_op::device_push_show:
        case admin_op::device_push_set:
        case admin_op::device_push_clear:
            return device_push(db, call);
        case admin_op::device_collections_show:
        case admin_op::device_collection_set:
        case admin_op::device_collection_clear:
            return device_collection(db, call);
        case admin_op::device_reset:
            return ok("{\"devices_reset\":" +
                      std::to_string(persistence::reset_device(db, tenant, param(call, "device"))) + "}\n");
        case admin_op::session_list:
            return ok(sessions_json(
                persistence::list_sessions(db, tenant, query_parameter(call.target, "user").value_or(""))));
        case admin_op::session_kill:
            persistence::kill_session(db, tenant, session_id_of(call));
            return no_content();
        default:
            throw std::logic_error("not a device or session operation");
    }
}

}  // namespace

admin_result run_admin_op(persistence::database& db, const admin_call& call) {
    switch (call.match.route->op) {
        case admin_op::tenant_list:
            return list_tenants(db, call);
        case admin_op::tenant_create:
            return create_tenant(db, call);
        case admin_op::tenant_show:
            return ok(tenant_json(persistence::show_tenant(db, tenant_of(call))));
        case admin_op::tenant_update:
            return update_tenant(db, call);
        case admin_op::tenant_delete:
            return delete_tenant(db, call);
        case admin_op::audit_list:
            return list_audit(db, call);
        case admin_op::user_export:
            return export_datastore(db, call);
        case admin_op::user_import:
            return import_datastore(db, call);
        case admin_op::status_show:
        case admin_op::activity_show:
        case admin_op::failed_login_list:
        case admin_op::tenant_device_list:
            return run_overview_op(db, call);
        case admin_op::token_list:
        case admin_op::token_create:
        case admin_op::token_delete:
            return run_token_op(db, call);
        case admin_op::openapi:
            throw std::logic_error("the OpenAPI document needs no database");
        default:
            break;
    }
    const auto op = call.match.route->op;
    if (op == admin_op::user_list || op == admin_op::user_create || op == admin_op::user_show ||
        op == admin_op::user_delete || op == admin_op::user_password || op == admin_op::user_disable ||
        op == admin_op::user_enable) {
        return run_user_op(db, call);
    }
    return run_device_op(db, call);
}

}  // namespace syncml::server
