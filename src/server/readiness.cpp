#include "src/server/readiness.hpp"

#include <chrono>

#include "common/log/log_event.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/pg/migrations.hpp"

namespace syncml::server {

namespace {
constexpr auto check_interval = std::chrono::seconds(1);
}  // namespace

std::string schema_reason(const persistence::schema_status& status) {
    const std::string current = std::to_string(status.current);
    const std::string latest = std::to_string(status.latest);
    if (status.current == status.latest) return "ready";
    if (status.behind()) return "schema version " + current + ", expected " + latest;
    if (status.usable()) {
        return "ready: schema version " + current + " is newer than this binary (" + latest +
               "), every newer migration is backward compatible";
    }
    return "schema version " + current + " is newer than this binary (" + latest + ") and migration " +
           std::to_string(status.first_incompatible) + " is not backward compatible";
}

struct readiness_checker::connection {
    connection(std::string url, std::shared_ptr<persistence::database_profile> profile)
        : db(std::move(url), std::move(profile)) {}
    persistence::database db;
};

readiness_checker::readiness_checker(std::string database_url, spdlog::logger& log, bool apply_migrations,
                                     std::shared_ptr<persistence::database_profile> profile)
    : url_(std::move(database_url)),
      log_(log),
      apply_migrations_(apply_migrations),
      connection_(std::make_unique<connection>(url_, std::move(profile))) {}

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
        auto status = persistence::read_schema_status(db);
        if (status.behind() && apply_migrations_) {
            const auto outcome = persistence::apply_migrations(db);
            common::log_event(log_, spdlog::level::info, "schema migrated",
                              {{"from_version", outcome.from}, {"to_version", outcome.to}});
            status = persistence::read_schema_status(db);
        }
        if (status.distributed != db.distributed_schema_in_use()) {
            common::log_event(log_, spdlog::level::info, "distributed schema", {{"distributed", status.distributed}});
            db.profile().use_distributed_schema(status.distributed);
        }
        publish(status.usable(), schema_reason(status));
    } catch (const persistence::db_error& e) {
        publish(false, std::string("database error: ") + e.what());
    }
}

void readiness_checker::publish(bool ready, std::string reason) {
    std::lock_guard lock(mutex_);
    if (ready != ready_) {
        if (ready) {
            common::log_event(log_, spdlog::level::info, "readiness", {{"ready", true}});
        } else {
            common::log_event(log_, spdlog::level::warn, "readiness", {{"ready", false}, {"reason", reason}});
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
