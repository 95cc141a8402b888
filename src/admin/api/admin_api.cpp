#include "src/admin/api/admin_api.hpp"

#include "common/log/log_event.hpp"
#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"
#include "persistence/accounts/admin_audit.hpp"
#include "persistence/accounts/admin_tokens.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/pg/worker_pool.hpp"
#include "src/admin/api/admin_api_body.hpp"
#include "src/admin/api/admin_api_handlers.hpp"
#include "src/admin/api/admin_api_transfer.hpp"
#include "src/admin/api/admin_openapi.hpp"
#include "src/admin/web/admin_page.hpp"
#include "src/telemetry/logging.hpp"

namespace syncml::server {
namespace {

constexpr const char* k_json = "application/json";

http_reply json_reply(int status, std::string body) {
    http_reply reply;
    reply.status = status;
    reply.content_type = k_json;
    reply.body = std::move(body);
    return reply;
}

http_reply unauthorized(const char* why, bool token_given) {
    http_reply reply = admin_error_reply(401, why);
    reply.headers.emplace_back("WWW-Authenticate", token_given
                                                       ? "Bearer realm=\"syncml-admin\", error=\"invalid_token\""
                                                       : "Bearer realm=\"syncml-admin\"");
    return reply;
}

// The token of an "Authorization: Bearer TOKEN" header; empty when there is none.
std::string bearer_token(const std::string& authorization) {
    constexpr std::string_view scheme = "bearer ";
    if (authorization.size() <= scheme.size() || !common::istarts_with(authorization, scheme)) return {};
    const auto start = authorization.find_first_not_of(' ', scheme.size());
    return start == std::string::npos ? std::string() : authorization.substr(start);
}

bool is_json_media(std::string_view content_type) {
    const auto media = common::trim(content_type.substr(0, content_type.find(';')), common::k_blanks);
    return common::iequals(media, k_json);
}

bool is_write(std::string_view method) {
    return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

const char* audit_result(int status) {
    if (status < 300) return "ok";
    switch (status) {
        case 400:
            return "invalid";
        case 403:
            return "forbidden";
        case 404:
            return "not found";
        case 409:
            return "conflict";
        case 415:
            return "invalid";
        default:
            return "failed";
    }
}

bool token_op(admin_op op) { return op == admin_op::token_create || op == admin_op::token_delete; }

persistence::audit_entry audit_entry_of(const admin_route_match& match, const json_value* body,
                                        const std::string& token, int status, const std::optional<std::string>& scope) {
    const auto param = [&](const char* name) {
        const auto found = match.params.find(name);
        return found == match.params.end() ? std::string() : found->second;
    };
    // What a create names is in its body.
    const json_value* name = body != nullptr ? body->find("name") : nullptr;
    const std::string created = name != nullptr && name->type == json_value::kind::string ? name->text : "";
    const std::string tenant = match.route->op == admin_op::tenant_create ? created : param("tenant");
    std::string target = param("device").empty() ? param("user") : param("device");
    if (match.route->op == admin_op::user_create) target = created;
    if (!param("session").empty()) target = "session " + param("session");
    if (match.route->op == admin_op::token_create) target = "token " + created;
    if (!param("token").empty()) target = "token " + param("token");
    // A token's tenant is its scope, which a create names in its body; a tenant token's deletes are its tenant's.
    const json_value* named = body != nullptr ? body->find("tenant") : nullptr;
    std::string token_tenant = named != nullptr && named->type == json_value::kind::string ? named->text : "";
    if (match.route->op == admin_op::token_delete) token_tenant = scope.value_or("");
    return {.actor = "token:" + token,
            .action = match.route->action,
            .tenant = token_op(match.route->op) ? token_tenant : tenant,
            .target = target,
            .result = audit_result(status)};
}

bool has_body(admin_op op) {
    return op == admin_op::tenant_create || op == admin_op::tenant_update || op == admin_op::user_create ||
           op == admin_op::user_password || op == admin_op::device_window_set || op == admin_op::device_push_set ||
           op == admin_op::device_collection_set || op == admin_op::token_create;
}

// A tenant the token may not see answers as one that does not exist: the same status and the same words.
void check_scope(const admin_call& call) {
    const auto tenant = call.match.params.find("tenant");
    if (call.scope && tenant != call.match.params.end() && tenant->second != *call.scope) {
        throw persistence::not_found("no tenant named '" + tenant->second + "'");
    }
}

// The one place where the failures of an admin operation become replies.
http_reply run_and_map(persistence::database& db, const admin_call& call, spdlog::logger& log) {
    try {
        check_scope(call);
        auto result = run_admin_op(db, call);
        http_reply reply = json_reply(result.status, std::move(result.json));
        reply.content_type = std::move(result.content_type);
        reply.headers = std::move(result.headers);
        return reply;
    } catch (const admin_field_error& e) {
        return admin_error_reply(400, e.what(), e.field());
    } catch (const admin_forbidden& e) {
        return admin_error_reply(403, e.what());
    } catch (const admin_conflict& e) {
        return admin_error_reply(409, e.what());
    } catch (const admin_unsupported_media& e) {
        return admin_error_reply(415, e.what());
    } catch (const persistence::not_found& e) {
        return admin_error_reply(404, e.what());
    } catch (const persistence::already_exists& e) {
        return admin_error_reply(409, e.what());
    } catch (const std::invalid_argument& e) {
        return admin_error_reply(400, e.what());
    } catch (const persistence::db_error& e) {
        common::log_event(log, spdlog::level::warn, "admin request failed",
                          {{"action", call.match.route->action}, {"error", e.what()}});
        if (!e.retryable()) return admin_error_reply(500, "database error");
        return admin_failure_reply(http_failure::database_unavailable);
    } catch (const std::exception& e) {
        common::log_event(log, spdlog::level::err, "admin request failed",
                          {{"action", call.match.route->action}, {"error", e.what()}});
        return admin_error_reply(500, "internal error");
    }
}

// The JSON body of a route that takes one; the refusal when it is not JSON.
std::optional<http_reply> read_json_body(const admin_route_match& match, const admin_api_request& request,
                                         std::optional<json_value>& body) {
    if (!has_body(match.route->op)) return std::nullopt;
    if (!is_json_media(request.content_type)) return admin_error_reply(415, "the body must be application/json");
    auto parsed = parse_json(request.body, {.max_bytes = k_admin_body_limit});
    if (!parsed.value) return admin_error_reply(400, "malformed JSON: " + parsed.error);
    body = std::move(parsed.value);
    return std::nullopt;
}

// Changes go to the audit log; reads are not audited, but a user's data leaving the server is logged.
void record_outcome(persistence::database& db, spdlog::logger& log, const admin_call& call,
                    const std::string& token_name, const http_reply& result) {
    const admin_route_match& match = call.match;
    if (match.route->op == admin_op::user_export && result.status == 200) {
        common::log_event(log, spdlog::level::info, "user data exported",
                          {{"token", token_name},
                           {"tenant", match.params.at("tenant")},
                           {"user", match.params.at("user")},
                           {"datastore", match.params.at("datastore")},
                           {"bytes", result.body.size()}});
    }
    if (!match.route->changes) return;
    try {
        persistence::record_audit(db, audit_entry_of(match, call.body, token_name, result.status, call.scope));
    } catch (const persistence::db_error& e) {
        common::log_event(log, spdlog::level::warn, "audit log not written",
                          {{"action", match.route->action}, {"error", e.what()}});
    }
}

}  // namespace

std::size_t admin_body_limit(std::string_view method, std::string_view target) {
    const auto match = match_admin_route(method, path_of(target));
    return match.route && match.route->op == admin_op::user_import ? k_admin_import_body_limit : k_admin_body_limit;
}

http_reply admin_error_reply(int status, const std::string& message, const std::string& field) {
    std::string body = "{\"error\":";
    append_json_string(body, message);
    if (!field.empty()) {
        body += ",\"field\":";
        append_json_string(body, field);
    }
    return json_reply(status, body + "}\n");
}

http_reply admin_failure_reply(http_failure failure, std::size_t body_limit) {
    const failure_terms terms = terms_of(failure);
    const std::string message = failure == http_failure::body_too_large
                                    ? "request body larger than " + std::to_string(body_limit / 1024) + " KiB"
                                    : std::string(terms.message);
    return with_retry_after(admin_error_reply(terms.status, message), terms);
}

admin_api::admin_api(persistence::worker_pool& pool, prometheus::Registry& registry, spdlog::logger& log,
                     std::optional<persistence::secret_key> md5_key, admin_instance instance)
    : pool_(pool),
      log_(log),
      md5_key_(std::move(md5_key)),
      instance_(std::move(instance)),
      requests_(prometheus::BuildCounter()
                    .Name("syncml_admin_requests_total")
                    .Help("Admin API requests answered, by method, route pattern and status code")
                    .Register(registry)) {
    // Refused tokens per route at 0 from the start: the alert on 401 bursts sees the first ones in rate().
    for (const auto& route : admin_routes()) {
        if (route.op == admin_op::openapi) continue;  // needs no token
        requests_.Add({{"method", route.method}, {"route", route.pattern}, {"status", "401"}});
    }
}

http_reply admin_api::counted(const admin_route* route, http_reply reply) {
    requests_
        .Add({{"method", route ? route->method : "other"},
              {"route", route ? route->pattern : "unmatched"},
              {"status", std::to_string(reply.status)}})
        .Increment();
    return reply;
}

std::optional<http_reply> admin_api::answer_now(const admin_api_request& request) {
    if (is_admin_page_path(path_of(request.target))) {
        http_reply reply = admin_page_reply(request.method, request.target);
        requests_
            .Add({{"method", request.method == "GET" || request.method == "HEAD" ? request.method : "other"},
                  {"route", "page"},
                  {"status", std::to_string(reply.status)}})
            .Increment();
        return reply;
    }
    const auto match = match_admin_route(request.method, path_of(request.target));
    if (!match.route && !match.allow.empty()) {
        http_reply reply = admin_error_reply(405, "method not allowed; use " + match.allow);
        reply.headers.emplace_back("Allow", match.allow);
        return counted(nullptr, std::move(reply));
    }
    if (!match.route) return counted(nullptr, admin_error_reply(404, "no such admin resource"));
    if (auto refused = refuse_body_type(request, *match.route)) return counted(match.route, std::move(*refused));
    if (match.route->op == admin_op::openapi) {
        return counted(match.route, json_reply(200, std::string(admin_openapi_document())));
    }
    if (bearer_token(request.authorization).empty()) {
        return counted(match.route, unauthorized("an admin token is needed: Authorization: Bearer "
                                                 "TOKEN (syncml-server admin token create)",
                                                 false));
    }
    return std::nullopt;
}

std::optional<http_reply> refuse_body_type(const admin_api_request& request, const admin_route& route) {
    if (!is_write(request.method) || route.op == admin_op::user_import) return std::nullopt;
    const bool needs_json = !request.body.empty() || has_body(route.op);
    if (!needs_json || is_json_media(request.content_type)) return std::nullopt;
    return admin_error_reply(415, "the body must be application/json");
}

bool admin_api::submit(admin_api_request request, completion done) {
    const admin_route* route = match_admin_route(request.method, path_of(request.target)).route;
    const bool queued = pool_.try_submit(
        [this, request = std::move(request), done](persistence::database& db) { done(answer(db, request)); });
    if (!queued) {
        counted(route, admin_failure_reply(http_failure::server_busy));
    }
    return queued;
}

http_reply admin_api::answer(persistence::database& db, const admin_api_request& request) {
    const auto match = match_admin_route(request.method, path_of(request.target));
    if (!match.route) return *answer_now(request);
    const auto reply = [&](http_reply r) { return counted(match.route, std::move(r)); };
    std::optional<persistence::admin_token_info> token;
    try {
        token = persistence::verify_admin_token(db, bearer_token(request.authorization));
    } catch (const persistence::db_error&) {
        return reply(admin_error_reply(503, "database unavailable, try again later"));
    }
    if (!token) return reply(unauthorized("unknown admin token", true));

    std::optional<json_value> body;
    if (auto refused = read_json_body(match, request, body)) return reply(std::move(*refused));
    const admin_call call{.match = match,
                          .target = request.target,
                          .body = body ? &*body : nullptr,
                          .scope = token->tenant,
                          .md5_key = md5_key_ ? &*md5_key_ : nullptr,
                          .content_type = request.content_type,
                          .raw_body = request.body,
                          .instance = &instance_,
                          .token_name = token->name};
    http_reply result = reply(run_and_map(db, call, log_));
    record_outcome(db, log_, call, token->name, result);
    return result;
}

}  // namespace syncml::server
