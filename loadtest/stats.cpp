#include "loadtest/stats.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace syncml::loadtest {
namespace {

double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) return 0;
    // Nearest rank: the smallest sample with at least p of all samples at or below it.
    auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
    return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

std::uint64_t status_kib(const std::string& text, const std::string& key) {
    auto pos = text.find(key);
    if (pos == std::string::npos) return 0;
    std::istringstream in(text.substr(pos + key.size()));
    std::uint64_t kib = 0;
    in >> kib;
    return kib * 1024;
}

std::optional<double> cpu_seconds_of(int pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line)) return std::nullopt;
    // The command name may contain spaces; fields are counted after its closing parenthesis.
    auto close = line.rfind(')');
    if (close == std::string::npos) return std::nullopt;
    std::istringstream fields(line.substr(close + 2));
    std::string field;
    double ticks = 0;
    for (int index = 3; fields >> field; ++index) {
        if (index == 14 || index == 15) ticks += std::stod(field);
        if (index == 15) break;
    }
    return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

}  // namespace

const char* to_string(msg_kind kind) {
    switch (kind) {
        case msg_kind::init:
            return "init";
        case msg_kind::changes:
            return "changes";
        case msg_kind::more:
            return "more";
        case msg_kind::map:
            return "map";
    }
    return "?";
}

const char* to_string(session_kind kind) { return kind == session_kind::slow ? "slow" : "two-way"; }

latency_summary summarize(std::vector<double> samples) {
    latency_summary s;
    s.count = samples.size();
    if (samples.empty()) return s;
    std::sort(samples.begin(), samples.end());
    s.p50 = percentile(samples, 0.50);
    s.p90 = percentile(samples, 0.90);
    s.p95 = percentile(samples, 0.95);
    s.p99 = percentile(samples, 0.99);
    s.max = samples.back();
    return s;
}

void run_stats::message(msg_kind kind, double seconds, std::size_t bytes_up, std::size_t bytes_down) {
    messages_.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard lock(mutex_);
    message_samples_[static_cast<std::size_t>(kind)].push_back(seconds);
    bytes_up_ += bytes_up;
    bytes_down_ += bytes_down;
}

void run_stats::session(session_kind kind, bool ok, double seconds, std::uint64_t items_up, std::uint64_t items_down) {
    (ok ? sessions_ok_ : sessions_failed_).fetch_add(1, std::memory_order_relaxed);
    std::lock_guard lock(mutex_);
    if (ok) session_samples_[static_cast<std::size_t>(kind)].push_back(seconds);
    items_up_ += items_up;
    items_down_ += items_down;
}

void run_stats::error(const std::string& key) {
    errors_.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard lock(mutex_);
    ++errors_by_key_[key];
}

run_stats::report run_stats::make_report(double seconds) const {
    report r;
    r.seconds = seconds;
    r.sessions_ok = sessions_ok();
    r.sessions_failed = sessions_failed();
    r.messages = messages();
    r.skipped = skipped_count();
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < msg_kind_count; ++i) r.per_message[i] = summarize(message_samples_[i]);
    for (std::size_t i = 0; i < session_kind_count; ++i) r.per_session[i] = summarize(session_samples_[i]);
    r.errors = errors_by_key_;
    r.items_up = items_up_;
    r.items_down = items_down_;
    r.bytes_up = bytes_up_;
    r.bytes_down = bytes_down_;
    return r;
}

double run_stats::recent_p99(msg_kind kind) const {
    std::lock_guard lock(mutex_);
    const auto& all = message_samples_[static_cast<std::size_t>(kind)];
    const std::size_t window = std::min<std::size_t>(all.size(), 2000);
    return summarize(std::vector<double>(all.end() - static_cast<std::ptrdiff_t>(window), all.end())).p99;
}

server_usage read_server_usage(const std::vector<int>& pids) {
    server_usage usage;
    for (int pid : pids) {
        std::ifstream in("/proc/" + std::to_string(pid) + "/status");
        std::stringstream text;
        text << in.rdbuf();
        auto cpu = cpu_seconds_of(pid);
        if (!in || !cpu) continue;
        usage.available = true;
        usage.rss_bytes += status_kib(text.str(), "VmRSS:");
        usage.peak_rss_bytes += status_kib(text.str(), "VmHWM:");
        usage.cpu_seconds += *cpu;
    }
    return usage;
}

}  // namespace syncml::loadtest
