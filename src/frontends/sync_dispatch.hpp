#pragma once
// Runs sync requests on the database worker pool and reports the outcome through a callback (called on a
// worker thread). The HTTP layer only sees this interface, so its tests can run without PostgreSQL.

#include <functional>
#include <string>

#include <spdlog/logger.h>

#include "persistence/pg/worker_pool.hpp"
#include "session/service/sync_handler.hpp"
#include "src/frontends/tenant_share.hpp"

namespace syncml::server {

struct sync_outcome {
    enum class kind { answered, database_unavailable, failed };
    kind result = kind::failed;
    session::sync_response response;  // valid when answered
    std::string error;                // why it failed, for the log
};

class sync_dispatcher {
  public:
    using completion = std::function<void(sync_outcome)>;
    virtual ~sync_dispatcher() = default;
    // False when the request cannot be queued (queue full or stopping); done is then never called.
    virtual bool submit(session::sync_request request, completion done) = 0;
};

class pool_dispatcher : public sync_dispatcher {
  public:
    // Each tenant may hold `share` of the pool's threads plus queue (see tenant_share.hpp); refusals are counted in
    // `metrics` (null: not counted).
    pool_dispatcher(persistence::worker_pool& pool, session::sync_handler& handler,
                    persistence::pool_observer& observer, spdlog::logger& log, session::engine_metrics* metrics,
                    double share = k_default_tenant_share);
    // False also when the request's tenant holds its share of the pool already.
    bool submit(session::sync_request request, completion done) override;
    // The tenants' shares of the pool, which the DAV front end takes from too (one share per tenant in all).
    tenant_share& shares() { return shares_; }

  private:
    tenant_share shares_;
    persistence::worker_pool& pool_;
    session::sync_handler& handler_;
    persistence::pool_observer& observer_;
    spdlog::logger& log_;
};

// Calls the handler and converts what escapes it into an outcome; exposed for tests.
sync_outcome run_sync_job(session::sync_handler& handler, const session::sync_request& request,
                          persistence::database& db, persistence::pool_observer& observer);

}  // namespace syncml::server
