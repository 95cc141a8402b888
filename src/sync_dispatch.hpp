#pragma once
// Runs sync requests on the database worker pool and reports the outcome through a callback (called on a
// worker thread). The HTTP layer only sees this interface, so its tests can run without PostgreSQL.

#include <functional>
#include <string>

#include <spdlog/logger.h>

#include "persistence/worker_pool.hpp"
#include "session/sync_handler.hpp"

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
    pool_dispatcher(persistence::worker_pool& pool, session::sync_handler& handler,
                    persistence::pool_observer& observer, spdlog::logger& log);
    bool submit(session::sync_request request, completion done) override;

  private:
    persistence::worker_pool& pool_;
    session::sync_handler& handler_;
    persistence::pool_observer& observer_;
    spdlog::logger& log_;
};

// Calls the handler and converts what escapes it into an outcome; exposed for tests.
sync_outcome run_sync_job(session::sync_handler& handler, const session::sync_request& request,
                          persistence::database& db, persistence::pool_observer& observer);

}  // namespace syncml::server
