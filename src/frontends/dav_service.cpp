#include "src/frontends/dav_service.hpp"

#include <array>
#include <string_view>
#include <utility>

#include "auth/credential_cache.hpp"
#include "auth/login.hpp"
#include "common/http/retry_after.hpp"
#include "common/log/log_event.hpp"
#include "dav/dav_handler.hpp"
#include "dav/dav_paths.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/dav/dav_store.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/pg/worker_pool.hpp"
#include "src/frontends/dav_landing.hpp"
#include "src/http/http_compression.hpp"

namespace syncml::server {
namespace {

http_reply plain(int status, std::string text) { return text_reply(status, std::move(text)); }

http_reply challenge(const std::string& tenant, std::string why) {
    auto reply = plain(401, std::move(why));
    reply.headers.emplace_back("WWW-Authenticate", "Basic realm=\"" + tenant + "\", charset=\"UTF-8\"");
    return reply;
}

// A request that fails for a reason of the server's, not of the request's content.
struct dav_failure {
    enum class kind { db_unavailable, internal, throttled, busy };
    kind what = kind::internal;
    std::chrono::seconds retry_after{0};  // throttled: the rest of the block; busy: the address's wait
};

http_reply reply_of(const dav_failure& failure) {
    switch (failure.what) {
        case dav_failure::kind::db_unavailable: {
            auto reply = plain(503, "database unavailable, try again later\n");
            reply.headers.push_back(common::retry_after(std::chrono::seconds(1)));
            return reply;
        }
        case dav_failure::kind::throttled: {
            auto reply = plain(429, "too many failed logins, try again later\n");
            reply.headers.push_back(common::retry_after(failure.retry_after));
            return reply;
        }
        case dav_failure::kind::busy: {
            auto reply = plain(503, "too many password checks, try again later\n");
            reply.headers.push_back(common::retry_after(failure.retry_after));
            return reply;
        }
        case dav_failure::kind::internal:
            break;
    }
    return plain(500, "internal error\n");
}

http_reply reply_of(dav::dav_response r) {
    http_reply reply;
    reply.status = r.status;
    if (!r.content_type.empty()) reply.content_type = std::move(r.content_type);
    reply.body = std::move(r.body);
    reply.headers = std::move(r.headers);
    return reply;
}

// The answers known in advance, at 0 from the start (a fresh instance shows zeros, and the first error counts in
// rate()): each method's success, and for every method a refused login and a failure.
void count_from_zero(prometheus::Family<prometheus::Counter>& requests) {
    const std::array<std::array<const char*, 3>, 8> successes{{{"GET", "read", "200"},
                                                               {"HEAD", "read", "200"},
                                                               {"OPTIONS", "read", "200"},
                                                               {"PROPFIND", "read", "207"},
                                                               {"REPORT", "read", "207"},
                                                               {"PUT", "write", "201"},
                                                               {"PUT", "write", "204"},
                                                               {"DELETE", "delete", "204"}}};
    for (const auto& [method, outcome, status] : successes) {
        requests.Add({{"method", method}, {"outcome", outcome}, {"status", status}});
    }
    const std::array<std::pair<const char*, const char*>, 3> failures{
        {{"unauthorized", "401"}, {"error", "500"}, {"error", "503"}}};
    for (std::string_view method : dav::k_known_methods) {
        for (const auto& [outcome, status] : failures) {
            requests.Add({{"method", std::string(method)}, {"outcome", outcome}, {"status", status}});
        }
    }
}

// The tenant's slot, given back when the pool drops the job: after it ran, or at once when the queue refused it.
struct share_slot {
    share_slot(tenant_share& s, std::string t) : shares(s), tenant(std::move(t)) {}
    ~share_slot() { shares.release(tenant); }
    share_slot(const share_slot&) = delete;
    share_slot& operator=(const share_slot&) = delete;
    tenant_share& shares;
    std::string tenant;
};

}  // namespace

dav_service::dav_service(persistence::worker_pool& pool, tenant_share& shares, dav_settings settings,
                         prometheus::Registry& registry, spdlog::logger& log)
    : pool_(pool),
      settings_(std::move(settings)),
      log_(log),
      cache_(std::make_unique<auth::credential_cache>(settings_.credential_cache_ttl)),
      shares_(shares),
      requests_(prometheus::BuildCounter()
                    .Name("syncml_dav_requests_total")
                    .Help("CardDAV/CalDAV requests answered, by method, outcome (read, write, delete, refused, "
                          "unauthorized, error) and status code")
                    .Register(registry)) {
    if (!settings_.open_throttle) settings_.open_throttle = auth::database_throttle(settings_.throttle);
    count_from_zero(requests_);
}

dav_service::~dav_service() = default;

bool dav_service::submit(dav_http_request request, completion done) {
    if (!shares_.try_acquire(request.tenant)) return false;
    auto slot = std::make_shared<share_slot>(shares_, request.tenant);
    auto job = std::make_shared<dav_http_request>(std::move(request));
    // Queued under the tenant, as SyncML requests are, so the pool serves the tenants in turn (issue 35).
    return pool_.try_submit(slot->tenant, [this, job, slot, done](persistence::database& db) {
        auto reply = answer(db, *job);
        compress_if_accepted(reply, job->accept_encoding);
        done(std::move(reply));
    });
}

http_reply dav_service::counted(const dav_http_request& request, http_reply reply, const std::string& outcome) {
    const bool known = dav::known_method(request.method);
    requests_
        .Add({{"method", known ? request.method : "other"},
              {"outcome", outcome},
              {"status", std::to_string(reply.status)}})
        .Increment();
    return reply;
}

http_reply dav_service::answer(persistence::database& db, const dav_http_request& request) {
    try {
        return serve(db, request);
    } catch (const persistence::db_error& e) {
        common::log_event(log_, e.retryable() ? spdlog::level::warn : spdlog::level::err, "dav request failed",
                          {{"tenant", request.tenant}, {"retryable", e.retryable()}, {"error", e.what()}});
        const auto failure = e.retryable() ? dav_failure::kind::db_unavailable : dav_failure::kind::internal;
        return counted(request, reply_of(dav_failure{failure}), "error");
    } catch (const std::exception& e) {
        common::log_event(log_, spdlog::level::err, "dav request failed",
                          {{"tenant", request.tenant}, {"error", e.what()}});
        return counted(request, reply_of(dav_failure{}), "error");
    }
}

http_reply dav_service::serve(persistence::database& db, const dav_http_request& request) {
    auto basic = auth::parse_basic_authorization(request.authorization);
    // Before anything looks the name up: the database's indexes take no arbitrary lengths.
    if (basic && basic->user.size() > auth::k_max_user_name_bytes) {
        common::log_event(log_, spdlog::level::info, "dav request refused",
                          {{"tenant", request.tenant},
                           {"reason", "user name too long"},
                           {"bytes", basic->user.size()},
                           {"client", request.client_address}});
        return counted(request, plain(400, "user name longer than 256 bytes\n"), "refused");
    }
    if (!basic || basic->user.empty() || !dav::valid_utf8(basic->user))
        return counted(request, challenge(request.tenant, "credentials needed\n"), "unauthorized");
    const dav_landing landing =
        land_dav_login(request.tenant, path_of(request.target), basic->user,
                       [&db](std::string_view name) { return persistence::find_tenant(db, name).has_value(); });
    basic->user = landing.user;
    const auto tenant = persistence::find_tenant(db, landing.tenant);
    const auth::login_context login_with{db, persistence::md5_key_of(settings_.throttle), *cache_, settings_.guard,
                                         request.client_address};
    if (!tenant || !tenant->settings.auth_basic) return refused_login(request, tenant, login_with, *basic);

    const auto throttle = settings_.open_throttle(db);
    const auto login =
        auth::log_in_basic(*throttle, login_with, {tenant->id, basic->user, {}, request.client_address}, *basic);
    if (login.verdict == auth::login_verdict::busy)
        return counted(request, reply_of(dav_failure{dav_failure::kind::busy, login.blocked}), "refused");
    if (login.verdict == auth::login_verdict::blocked)
        return counted(request, reply_of(dav_failure{dav_failure::kind::throttled, login.blocked}), "unauthorized");
    if (login.verdict != auth::login_verdict::ok) {
        if (login.verdict == auth::login_verdict::wrong_password) {
            common::log_event(log_, spdlog::level::info, "dav login failed",
                              {{"tenant", tenant->name}, {"user", basic->user}, {"client", request.client_address}});
        }
        return counted(request, challenge(request.tenant, "wrong user name or password\n"), "unauthorized");
    }
    // Only a verified user of the tenant learns that its DAV service is off.
    if (!tenant->settings.dav) return counted(request, plain(404, "no DAV service for this tenant\n"), "refused");

    return handled(db, request, {landing.path, *tenant, common::user_id{login.user_id}, landing.user});
}

http_reply dav_service::refused_login(const dav_http_request& request,
                                      const std::optional<persistence::tenant_info>& tenant,
                                      const auth::login_context& login_with, const auth::basic_credentials& basic) {
    // A tenant that does not exist, or takes no passwords, answers as one whose user does not: the same status,
    // headers and words, after a password hash as long as a real check (within the same login guard), so that
    // tenant names cannot be probed.
    if (tenant) {
        common::log_event(log_, spdlog::level::info, "dav login refused: the tenant does not allow password logins",
                          {{"tenant", tenant->name}, {"user", basic.user}, {"client", request.client_address}});
    }
    if (auth::check_password(login_with, persistence::credential_check{}, 0, basic) == auth::login_verdict::busy) {
        return counted(request, reply_of(dav_failure{dav_failure::kind::busy, auth::busy_wait(login_with)}), "refused");
    }
    return counted(request, challenge(request.tenant, "wrong user name or password\n"), "unauthorized");
}

http_reply dav_service::handled(persistence::database& db, const dav_http_request& request,
                                const verified_call& verified) {
    const auto& tenant = verified.tenant;
    const auto user = verified.user;
    const auto& user_name = verified.user_name;
    dav::dav_account account{common::tenant_id{tenant.id},
                             tenant.name,
                             user,
                             user_name,
                             tenant.settings.max_items_per_datastore,
                             static_cast<std::size_t>(tenant.settings.max_object_bytes)};
    account.max_user_bytes = tenant.settings.max_user_bytes;
    account.max_collections = settings_.max_collections;
    const dav::dav_request call{request.method,   verified.path,         request.depth,
                                request.if_match, request.if_none_match, request.body};
    dav::dav_response response;
    persistence::run_dav_transaction(
        db, [&](persistence::dav_store& store) { response = dav::handle_dav(call, account, store); });
    if (!response.refused_by.empty()) {
        common::log_event(log_, spdlog::level::info, "dav write refused",
                          {{"tenant", tenant.name},
                           {"user", user_name},
                           {"path", call.path},
                           {"limit", response.refused_by},
                           {"status", response.status}});
    }
    const auto outcome = response.outcome;
    return counted(request, reply_of(std::move(response)), outcome);
}

}  // namespace syncml::server
