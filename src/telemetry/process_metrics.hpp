#pragma once
// The process_* metrics Prometheus client libraries conventionally export (prometheus-cpp core has none) and
// the readiness and certificate gauges, computed at scrape time: per-instance RSS, CPU, file descriptors and
// start time for the dashboard without cAdvisor, and readiness and certificate expiry as metrics alerts use.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <prometheus/metric_family.h>

namespace syncml::server {

struct process_stats {
    double resident_bytes = 0;
    double virtual_bytes = 0;
    double cpu_seconds = 0;         // user + system
    double start_time_seconds = 0;  // since the Unix epoch
    double open_fds = 0;
    double max_fds = 0;
};

// Fields of /proc/<pid>/stat ("pid (comm) state ..."); comm may contain spaces and parentheses.
struct stat_fields {
    double user_ticks = 0;
    double system_ticks = 0;
    double start_ticks = 0;  // since boot
    double virtual_bytes = 0;
    double resident_pages = 0;
};
std::optional<stat_fields> parse_proc_stat(std::string_view text);
// "btime" of /proc/stat: boot time in seconds since the epoch.
std::optional<double> parse_boot_time(std::string_view proc_stat);
// "Max open files" soft limit of /proc/<pid>/limits.
std::optional<double> parse_max_fds(std::string_view limits);

// Reads the stats of this process from proc_dir (normally /proc); nullopt when /proc is unreadable.
std::optional<process_stats> read_process_stats(const std::string& proc_dir = "/proc");

// process_* families (none when stats is empty), syncml_ready, and the served TLS certificate's not-after
// (seconds since the epoch). Without TLS (tls_not_after empty) that family is declared without a sample: an
// alert on it stays quiet, and a scrape still shows the name exists.
std::vector<prometheus::MetricFamily> scrape_time_families(const std::optional<process_stats>& stats, bool ready,
                                                           std::optional<double> tls_not_after);

}  // namespace syncml::server
