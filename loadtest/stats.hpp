#pragma once
// Thread-safe counters and latency samples of one phase of a load run, plus what the final table and the
// JSON report need (percentiles per message kind, errors by status, server RSS and CPU time from /proc).

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace syncml::loadtest {

// One message exchange of a session: package 1, package 3 (maybe several messages), Alert 222
// continuations of a split package 4, package 5 (statuses and Map).
enum class msg_kind { init, changes, more, map };
constexpr std::size_t msg_kind_count = 4;
const char* to_string(msg_kind kind);

enum class session_kind { slow, two_way };
constexpr std::size_t session_kind_count = 2;
const char* to_string(session_kind kind);

struct latency_summary {
    std::uint64_t count = 0;
    double p50 = 0, p90 = 0, p95 = 0, p99 = 0, max = 0;  // seconds
};
latency_summary summarize(std::vector<double> samples);

class run_stats {
  public:
    void message(msg_kind kind, double seconds, std::size_t bytes_up, std::size_t bytes_down);
    void session(session_kind kind, bool ok, double seconds, std::uint64_t items_up, std::uint64_t items_down);
    void error(const std::string& key);
    void skipped() { skipped_.fetch_add(1, std::memory_order_relaxed); }

    std::uint64_t sessions_ok() const { return sessions_ok_.load(std::memory_order_relaxed); }
    std::uint64_t sessions_failed() const { return sessions_failed_.load(std::memory_order_relaxed); }
    std::uint64_t messages() const { return messages_.load(std::memory_order_relaxed); }
    std::uint64_t errors() const { return errors_.load(std::memory_order_relaxed); }
    std::uint64_t skipped_count() const { return skipped_.load(std::memory_order_relaxed); }

    struct report {
        double seconds = 0;
        std::uint64_t sessions_ok = 0, sessions_failed = 0, messages = 0, items_up = 0, items_down = 0;
        std::uint64_t bytes_up = 0, bytes_down = 0, skipped = 0;
        std::array<latency_summary, msg_kind_count> per_message{};
        std::array<latency_summary, session_kind_count> per_session{};
        std::map<std::string, std::uint64_t> errors;
    };
    report make_report(double seconds) const;
    // Latest p99 of one message kind, for the progress line.
    double recent_p99(msg_kind kind) const;

  private:
    mutable std::mutex mutex_;
    std::array<std::vector<double>, msg_kind_count> message_samples_;
    std::array<std::vector<double>, session_kind_count> session_samples_;
    std::map<std::string, std::uint64_t> errors_by_key_;
    std::uint64_t items_up_ = 0, items_down_ = 0, bytes_up_ = 0, bytes_down_ = 0;
    std::atomic<std::uint64_t> sessions_ok_{0}, sessions_failed_{0}, messages_{0}, errors_{0}, skipped_{0};
};

// Resource use of the server processes (summed over all pids), from /proc.
struct server_usage {
    std::uint64_t rss_bytes = 0;
    std::uint64_t peak_rss_bytes = 0;  // VmHWM
    double cpu_seconds = 0;            // utime + stime
    bool available = false;
};
server_usage read_server_usage(const std::vector<int>& pids);

}  // namespace syncml::loadtest
