#pragma once
// Bounded pool of threads, each with its own database connection. All blocking database work runs
// here, never on io threads. A full queue is reported to the caller (who answers 503) instead of
// growing without bound. Queued jobs are served by key in turn (fair_queue.hpp): the front ends key theirs by
// tenant, so one tenant's backlog does not stand in front of every other tenant's next request (issue 35).

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace syncml::persistence {

class database;
class database_profile;

struct pool_settings {
    // The database targets (conninfo_list.hpp): worker i prefers urls[i % size] and falls back to the others.
    std::vector<std::string> urls;
    unsigned threads = 4;
    std::size_t queue_limit = 256;
};

// Observations the pool reports; src/ turns them into Prometheus metrics.
struct pool_observer {
    virtual ~pool_observer() = default;
    virtual void queue_length(std::size_t length) = 0;
    virtual void queue_wait(std::chrono::duration<double> wait) = 0;
    virtual void database_error() = 0;
};

class worker_pool {
  public:
    using job = std::function<void(database&)>;

    // The workers' databases share profile; without one, one with the defaults (database_profile).
    worker_pool(pool_settings settings, pool_observer* observer = nullptr,
                std::shared_ptr<database_profile> profile = nullptr);
    ~worker_pool();  // stops: runs what is queued, then joins
    worker_pool(const worker_pool&) = delete;
    worker_pool& operator=(const worker_pool&) = delete;

    // False when the queue is full or the pool is stopping. The job runs on a worker thread with that
    // thread's connection (ensure_connected() already attempted); exceptions from the job are caught
    // and logged by the pool. Jobs without a key share one.
    bool try_submit(job work);
    // The same, queued under `key`: the pool takes one job of each key with jobs queued in turn, first in first
    // out within a key. The queue limit counts the jobs of all keys.
    bool try_submit(const std::string& key, job work);
    std::size_t queue_length() const;
    std::size_t threads() const;
    std::size_t queue_limit() const;
    void stop();

  private:
    struct state;
    std::unique_ptr<state> state_;
};

}  // namespace syncml::persistence
