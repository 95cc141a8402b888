#include "src/readiness.hpp"

#include <chrono>

#include "persistence/database.hpp"
#include "persistence/errors.hpp"
#include "persistence/log_value.hpp"
#include "persistence/migrations.hpp"

namespace syncml::server {

namespace {
constexpr auto check_interval = std::chrono::seconds(1);
}

struct readiness_checker::connection {
    explicit connection(std::string url) : db(std::move(url)) {}
    persistence::database db;
};

readiness_checker::readiness_checker(std::string database_url, spdlog::logger& log, bool apply_migrations)
    : url_(std::move(database_url)),
      log_(log),
      apply_migrations_(apply_migrations),
      connection_(std::make_unique<connection>(url_)) {}

readiness_checker::~readiness_checker() { stop(); }

void readiness_checker::start() {
    thread_ = std::thread([this] { run(); });
}

void readiness_checker::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

bool readiness_checker::ready(std::string& reason) const {
    std::lock_guard lock(mutex_);
    reason = reason_;
    return ready_;
}

void readiness_checker::check_now() {
    auto& db = connection_->db;
    if (!db.ensure_connected()) {
        publish(false, "database unreachable");
        return;
    }
    try {
        int current = persistence::current_schema_version(db);
        const int expected = persistence::latest_schema_version();
        if (current < expected && apply_migrations_) {
            const auto outcome = persistence::apply_migrations(db);
            log_.info("schema migrated from_version={} to_version={}", outcome.from, outcome.to);
            current = outcome.to;
        }
        if (current == expected) {
            publish(true, "ready");
        } else {
            publish(false, "schema version " + std::to_string(current) + ", expected " + std::to_string(expected));
        }
    } catch (const persistence::db_error& e) {
        publish(false, std::string("database error: ") + e.what());
    }
}

void readiness_checker::publish(bool ready, std::string reason) {
    std::lock_guard lock(mutex_);
    if (ready != ready_) {
        if (ready) {
            log_.info("readiness ready=true");
        } else {
            log_.warn("readiness ready=false reason={}", persistence::log_value(reason));
        }
    }
    ready_ = ready;
    reason_ = std::move(reason);
}

void readiness_checker::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        check_now();
        lock.lock();
        wake_.wait_for(lock, check_interval, [this] { return stopping_; });
    }
}

}  // namespace syncml::server
