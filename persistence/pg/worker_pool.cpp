#include "persistence/pg/worker_pool.hpp"
#include "common/log/log_event.hpp"

#include <spdlog/spdlog.h>

#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "persistence/pg/database.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/pg/fair_queue.hpp"

namespace syncml::persistence {

namespace {

using clock = std::chrono::steady_clock;

struct queued_job {
    worker_pool::job work;
    clock::time_point queued_at;
};

// The key of jobs submitted without one; no tenant is named "".
const std::string k_shared_key;

}  // namespace

struct worker_pool::state {
    explicit state(pool_settings s) : settings(std::move(s)), queue(settings.queue_limit) {}

    pool_settings settings;
    std::shared_ptr<database_profile> profile;
    pool_observer* observer = nullptr;
    mutable std::mutex mutex;
    std::condition_variable wake;
    fair_queue<queued_job> queue;
    bool stopping = false;
    std::vector<std::thread> threads;
    std::once_flag joined;

    void run_worker(std::size_t index);
    void run_job(database& db, queued_job& next);
};

void worker_pool::state::run_worker(std::size_t index) {
    database db(settings.urls, index, profile);
    for (;;) {
        queued_job next;
        {
            std::unique_lock lock(mutex);
            wake.wait(lock, [&] { return stopping || !queue.empty(); });
            if (queue.empty()) return;  // stopping and drained
            next = std::move(*queue.pop());
            if (observer) observer->queue_length(queue.size());
        }
        run_job(db, next);
    }
}

void worker_pool::state::run_job(database& db, queued_job& next) {
    if (observer) observer->queue_wait(clock::now() - next.queued_at);
    // A job that finds the database down still runs: it fails fast with a retryable db_error and
    // answers its request, rather than waiting here. One outage counts once per job, and its
    // failures log at debug level: the unreachable database was already reported.
    const bool unreachable = !db.ensure_connected();
    if (unreachable && observer) observer->database_error();
    try {
        next.work(db);
    } catch (const db_error& error) {
        if (!unreachable && observer) observer->database_error();
        common::log_event(unreachable ? spdlog::level::debug : spdlog::level::err, "database job failed",
                          {{"retryable", error.retryable()}, {"error", error.what()}});
    } catch (const std::exception& error) {
        common::log_event(spdlog::level::err, "database job failed", {{"error", error.what()}});
    } catch (...) {
        spdlog::error("database job failed with a non-standard exception");
    }
}

worker_pool::worker_pool(pool_settings settings, pool_observer* observer, std::shared_ptr<database_profile> profile) {
    if (settings.threads == 0) settings.threads = 1;
    if (settings.urls.empty()) throw std::invalid_argument("worker_pool: no database target");
    state_ = std::make_unique<state>(std::move(settings));
    state_->profile = profile ? std::move(profile) : std::make_shared<database_profile>();
    state_->observer = observer;
    for (unsigned i = 0; i < state_->settings.threads; ++i) {
        state_->threads.emplace_back([s = state_.get(), i] { s->run_worker(i); });
    }
}

worker_pool::~worker_pool() { stop(); }

bool worker_pool::try_submit(job work) { return try_submit(k_shared_key, std::move(work)); }

bool worker_pool::try_submit(const std::string& key, job work) {
    {
        std::lock_guard lock(state_->mutex);
        if (state_->stopping || !state_->queue.push(key, {std::move(work), clock::now()})) return false;
        // Under the lock, as the workers report theirs: reported after it, a length could overwrite the shorter one
        // of a worker that took the job meanwhile, and an idle server would show a queue of one until the next job.
        if (state_->observer) state_->observer->queue_length(state_->queue.size());
    }
    state_->wake.notify_one();
    return true;
}

std::size_t worker_pool::queue_length() const {
    std::lock_guard lock(state_->mutex);
    return state_->queue.size();
}

std::size_t worker_pool::threads() const { return state_->settings.threads; }
std::size_t worker_pool::queue_limit() const { return state_->settings.queue_limit; }

void worker_pool::stop() {
    {
        std::lock_guard lock(state_->mutex);
        state_->stopping = true;
    }
    state_->wake.notify_all();
    std::call_once(state_->joined, [this] {
        for (auto& thread : state_->threads) {
            if (thread.get_id() == std::this_thread::get_id()) {
                thread.detach();  // stop() from inside a job: that worker exits once the queue drains
            } else {
                thread.join();
            }
        }
    });
}

}  // namespace syncml::persistence
