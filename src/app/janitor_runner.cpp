#include "src/app/janitor_runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>

#include "common/log/log_event.hpp"
#include "persistence/maintenance/tenant_figures.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::server {

namespace {

// Names this process in the lease, for an operator who looks at who holds it.
std::string holder_name() {
    std::array<char, 256> host{};
    if (gethostname(host.data(), host.size() - 1) != 0) host[0] = '\0';
    return std::string(host.data()) + ":" + std::to_string(getpid());
}

}  // namespace

struct janitor_runner::connection {
    connection(std::string url, std::shared_ptr<persistence::database_profile> profile)
        : db(std::move(url), std::move(profile)) {}
    persistence::database db;
};

janitor_runner::janitor_runner(std::string database_url, std::chrono::milliseconds interval,
                               prometheus::Registry& registry, spdlog::logger& log,
                               std::shared_ptr<persistence::database_profile> profile)
    : url_(std::move(database_url)),
      interval_(interval),
      log_(log),
      holder_(holder_name()),
      removed_(prometheus::BuildCounter()
                   .Name("syncml_janitor_removed_total")
                   .Help("Rows the janitor deleted, by kind: sessions, resume_pointers, auth_failures, known_clients, "
                         "session_routes, chunks, tombstones, collections, audit_entries")
                   .Register(registry)),
      runs_(prometheus::BuildCounter()
                .Name("syncml_janitor_runs_total")
                .Help("Janitor passes, by result: ran, skipped (another instance held the lease), failed")
                .Register(registry)),
      slow_syncs_forced_(prometheus::BuildCounter()
                             .Name("syncml_janitor_slow_syncs_forced_total")
                             .Help("Device datastores given a slow sync because a delete they had not seen was purged")
                             .Register(registry)
                             .Add({})),
      connection_(std::make_unique<connection>(url_, std::move(profile))) {
    for (const char* what : {"sessions", "resume_pointers", "auth_failures", "known_clients", "session_routes",
                             "chunks", "tombstones", "collections", "audit_entries"}) {
        removed_.Add({{"what", what}});
    }
    for (const char* result : {"ran", "skipped", "failed"}) runs_.Add({{"result", result}});
}

janitor_runner::~janitor_runner() { stop(); }

void janitor_runner::publish_tenant_figures(tenant_metrics& metrics, std::chrono::milliseconds interval,
                                            std::chrono::seconds session_max_age) {
    tenant_metrics_ = &metrics;
    figures_interval_ = interval;
    session_max_age_ = session_max_age;
}

void janitor_runner::start() {
    if (interval_.count() <= 0 && (!tenant_metrics_ || figures_interval_.count() <= 0)) return;
    thread_ = std::thread([this] { run(); });
}

void janitor_runner::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

persistence::janitor_report janitor_runner::run_once() {
    auto& db = connection_->db;
    if (!db.ensure_connected()) {
        runs_.Add({{"result", "failed"}}).Increment();
        return {};
    }
    try {
        auto report = persistence::run_janitor(db, holder_);
        count(report);
        return report;
    } catch (const persistence::db_error& e) {
        runs_.Add({{"result", "failed"}}).Increment();
        common::log_event(log_, spdlog::level::warn, "janitor failed", {{"error", e.what()}});
        return {};
    }
}

void janitor_runner::count(const persistence::janitor_report& report) {
    if (!report.ran) {
        runs_.Add({{"result", "skipped"}}).Increment();
        return;
    }
    runs_.Add({{"result", "ran"}}).Increment();
    removed_.Add({{"what", "sessions"}}).Increment(static_cast<double>(report.sessions));
    removed_.Add({{"what", "resume_pointers"}}).Increment(static_cast<double>(report.resume_pointers));
    removed_.Add({{"what", "auth_failures"}}).Increment(static_cast<double>(report.auth_failures));
    removed_.Add({{"what", "known_clients"}}).Increment(static_cast<double>(report.known_clients));
    removed_.Add({{"what", "session_routes"}}).Increment(static_cast<double>(report.session_routes));
    removed_.Add({{"what", "chunks"}}).Increment(static_cast<double>(report.chunks));
    removed_.Add({{"what", "tombstones"}}).Increment(static_cast<double>(report.tombstones));
    removed_.Add({{"what", "collections"}}).Increment(static_cast<double>(report.collections));
    removed_.Add({{"what", "audit_entries"}}).Increment(static_cast<double>(report.audit_entries));
    slow_syncs_forced_.Increment(static_cast<double>(report.slow_syncs_forced));
    if (report.sessions + report.resume_pointers + report.auth_failures + report.known_clients + report.session_routes +
            report.chunks + report.tombstones + report.collections + report.audit_entries >
        0) {
        common::log_event(log_, spdlog::level::info, "janitor removed",
                          {{"sessions", report.sessions},
                           {"resume_pointers", report.resume_pointers},
                           {"auth_failures", report.auth_failures},
                           {"known_clients", report.known_clients},
                           {"session_routes", report.session_routes},
                           {"chunks", report.chunks},
                           {"tombstones", report.tombstones},
                           {"collections", report.collections},
                           {"audit_entries", report.audit_entries},
                           {"slow_syncs_forced", report.slow_syncs_forced}});
    }
}

bool janitor_runner::refresh_tenant_figures() {
    auto& db = connection_->db;
    if (!tenant_metrics_ || !db.ensure_connected()) return false;
    try {
        tenant_metrics_->publish(persistence::read_tenant_figures(db, session_max_age_));
        return true;
    } catch (const persistence::db_error& e) {
        common::log_event(log_, spdlog::level::warn, "tenant figures failed", {{"error", e.what()}});
        return false;
    }
}

void janitor_runner::run() {
    using clock = std::chrono::steady_clock;
    const bool passes = interval_.count() > 0;
    const bool figures = tenant_metrics_ && figures_interval_.count() > 0;
    auto next_pass = clock::now();
    auto next_figures = clock::now();
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        if (passes && clock::now() >= next_pass) {
            run_once();
            next_pass = clock::now() + interval_;
        }
        if (figures && clock::now() >= next_figures) {
            refresh_tenant_figures();
            next_figures = clock::now() + figures_interval_;
        }
        lock.lock();
        const auto wake_at = !passes ? next_figures : !figures ? next_pass : std::min(next_pass, next_figures);
        wake_.wait_until(lock, wake_at, [this] { return stopping_; });
    }
}

}  // namespace syncml::server
