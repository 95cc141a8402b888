#pragma once
// CardDAV/CalDAV requests on the worker pool: the tenant (DAV switched on?), HTTP basic auth through the login SyncML
// uses (auth/login.hpp), then the dav/ handler in one transaction. The HTTP layer only sees dav_dispatcher, so
// its tests run without PostgreSQL.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/registry.h>
#include <spdlog/logger.h>

#include "auth/credentials/basic_credentials.hpp"
#include "auth/login.hpp"
#include "auth/login_guard.hpp"
#include "auth/throttle_source.hpp"
#include "common/vocabulary/ids.hpp"
#include "persistence/accounts/auth_throttle.hpp"
#include "persistence/accounts/tenants.hpp"
#include "src/frontends/tenant_share.hpp"
#include "src/http/routing.hpp"

namespace syncml::persistence {
class database;
class worker_pool;
}  // namespace syncml::persistence
namespace syncml::auth {
class credential_cache;
}  // namespace syncml::auth

namespace syncml::server {

struct dav_http_request {
    std::string tenant;  // from the path (/dav/<tenant>/...)
    std::string method;
    std::string target;
    std::string authorization;
    std::string depth;
    std::string if_match;
    std::string if_none_match;
    std::string accept_encoding;
    std::string client_address;
    std::string body;
};

class dav_dispatcher {
  public:
    using completion = std::function<void(http_reply)>;
    virtual ~dav_dispatcher() = default;
    // False when the worker queue (or the tenant's share of it) is full; done is then never called.
    virtual bool submit(dav_http_request request, completion done) = 0;
};

struct dav_settings {
    persistence::throttle_settings throttle;
    std::chrono::seconds credential_cache_ttl{60};
    // Where each request's login is counted; empty: the database's throttle with `throttle`'s settings.
    auth::throttle_source open_throttle{};
    // Bounds each client address's password hashes (auth/login_guard.hpp), shared with SyncML; null: unbounded.
    auth::login_guard* guard = nullptr;
    // Live collections per user, the four defaults included (issue 38): MKCOL and MKCALENDAR beyond get 507.
    std::size_t max_collections = 50;
};

class dav_service final : public dav_dispatcher {
  public:
    // `shares`: the tenants' shares of the pool, the same the SyncML requests take from (pool_dispatcher::shares).
    dav_service(persistence::worker_pool& pool, tenant_share& shares, dav_settings settings,
                prometheus::Registry& registry, spdlog::logger& log);
    ~dav_service() override;
    bool submit(dav_http_request request, completion done) override;
    // What a worker does with a request.
    http_reply answer(persistence::database& db, const dav_http_request& request);

  private:
    // The tenant, the login, the dav/ handler; throws what answer turns into a failure's reply.
    http_reply serve(persistence::database& db, const dav_http_request& request);
    // A tenant that does not exist or takes no passwords: answered as a wrong password of a real one.
    http_reply refused_login(const dav_http_request& request, const std::optional<persistence::tenant_info>& tenant,
                             const auth::login_context& login_with, const auth::basic_credentials& basic);
    // A verified user's request through the dav/ handler, in one transaction.
    struct verified_call {
        std::string path;  // where the request landed (dav_landing.hpp)
        const persistence::tenant_info& tenant;
        common::user_id user;
        std::string user_name;
    };
    http_reply handled(persistence::database& db, const dav_http_request& request, const verified_call& verified);
    http_reply counted(const dav_http_request& request, http_reply reply, const std::string& outcome);

    persistence::worker_pool& pool_;
    dav_settings settings_;
    spdlog::logger& log_;
    std::unique_ptr<auth::credential_cache> cache_;
    tenant_share& shares_;
    prometheus::Family<prometheus::Counter>& requests_;
};

}  // namespace syncml::server
