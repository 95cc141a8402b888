#include "src/frontends/sync_dispatch.hpp"

#include <exception>
#include <memory>

#include "common/log/log_event.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::server {

namespace {

// A request with its completion and its tenant's slot, which is given back when the pool drops the job: after it
// ran, or at once when the queue refused it.
struct queued_request {
    queued_request(session::sync_request r, pool_dispatcher::completion d, tenant_share& s, std::string t)
        : first(std::move(r)), second(std::move(d)), shares(s), tenant(std::move(t)) {}
    ~queued_request() { shares.release(tenant); }
    queued_request(const queued_request&) = delete;
    queued_request& operator=(const queued_request&) = delete;

    session::sync_request first;
    pool_dispatcher::completion second;
    tenant_share& shares;
    std::string tenant;
};

// /sync and /sync/default name the same tenant: one share.
std::string share_key(const session::sync_request& request) {
    return request.tenant.empty() ? std::string(persistence::default_tenant) : request.tenant;
}

}  // namespace

pool_dispatcher::pool_dispatcher(persistence::worker_pool& pool, session::sync_handler& handler,
                                 persistence::pool_observer& observer, spdlog::logger& log,
                                 session::engine_metrics* metrics, double share)
    : shares_(pool.threads() + pool.queue_limit(), share, metrics),
      pool_(pool),
      handler_(handler),
      observer_(observer),
      log_(log) {}

bool pool_dispatcher::submit(session::sync_request request, completion done) {
    auto tenant = share_key(request);
    if (!shares_.try_acquire(tenant)) return false;
    // std::function needs copyable state; the request body can be megabytes, so share it instead.
    auto job = std::make_shared<queued_request>(std::move(request), std::move(done), shares_, tenant);
    // Queued under the tenant, as DAV requests are, so the pool serves the tenants in turn (issue 35).
    return pool_.try_submit(tenant, [this, job](persistence::database& db) {
        sync_outcome outcome = run_sync_job(handler_, job->first, db, observer_);
        if (outcome.result == sync_outcome::kind::failed) {
            common::log_event(
                log_, spdlog::level::err, "sync handler failed",
                {{"tenant", job->first.tenant}, {"client", job->first.remote_addr}, {"error", outcome.error}});
        }
        job->second(std::move(outcome));
    });
}

sync_outcome run_sync_job(session::sync_handler& handler, const session::sync_request& request,
                          persistence::database& db, persistence::pool_observer& observer) {
    sync_outcome outcome;
    if (!db.connected()) {
        outcome.result = sync_outcome::kind::database_unavailable;
        outcome.error = "database unreachable";
        return outcome;
    }
    try {
        outcome.response = handler.handle(request, db);
        outcome.result = sync_outcome::kind::answered;
    } catch (const persistence::db_error& e) {
        observer.database_error();
        outcome.result = e.retryable() ? sync_outcome::kind::database_unavailable : sync_outcome::kind::failed;
        outcome.error = e.what();
    } catch (const std::exception& e) {
        outcome.error = e.what();
    } catch (...) {
        outcome.error = "unknown exception";
    }
    return outcome;
}

}  // namespace syncml::server
