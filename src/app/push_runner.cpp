#include "src/app/push_runner.hpp"

#include "common/log/log_event.hpp"
#include "persistence/pg/errors.hpp"
#include "src/server/http_client.hpp"

namespace syncml::server {

struct push_runner::parts {
    parts(std::string url, std::shared_ptr<persistence::database_profile> profile, const push_config& config,
          std::string public_url, push_metrics& metrics, spdlog::logger& log)
        : db(std::move(url), std::move(profile)),
          client(config.timeout),
          sender(db, client, config, std::move(public_url), metrics, log) {}
    persistence::database db;
    blocking_http_client client;
    push_sender sender;
};

push_runner::push_runner(std::string database_url, const push_config& config, std::string public_url,
                         prometheus::Registry& registry, spdlog::logger& log,
                         std::shared_ptr<persistence::database_profile> profile)
    : config_(config),
      log_(log),
      metrics_(registry),
      parts_(std::make_unique<parts>(std::move(database_url), std::move(profile), config, std::move(public_url),
                                     metrics_, log)) {}

push_runner::~push_runner() { stop(); }

void push_runner::start() {
    if (config_.interval.count() <= 0 || !parts_->sender.has_transport()) return;
    common::log_event(log_, spdlog::level::info, "push sender started",
                      {{"webhook", !config_.webhook_url.empty()}, {"sms", !config_.sms_url.empty()}});
    thread_ = std::thread([this] { run(); });
}

void push_runner::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

push_pass push_runner::run_once() {
    if (!parts_->db.ensure_connected()) return {};
    try {
        return parts_->sender.run_once();
    } catch (const persistence::db_error& e) {
        common::log_event(log_, spdlog::level::warn, "push sender failed", {{"error", e.what()}});
        return {};
    }
}

void push_runner::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        run_once();
        lock.lock();
        wake_.wait_for(lock, config_.interval, [this] { return stopping_; });
    }
}

}  // namespace syncml::server
