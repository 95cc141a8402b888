#include "src/telemetry/process_metrics.hpp"

#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace syncml::server {
namespace {

std::optional<std::string> read_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string_view> split_spaces(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto start = text.find_first_not_of(" \t\n", pos);
        if (start == std::string_view::npos) break;
        auto end = text.find_first_of(" \t\n", start);
        if (end == std::string_view::npos) end = text.size();
        out.push_back(text.substr(start, end - start));
        pos = end;
    }
    return out;
}

std::optional<double> number(std::string_view text) {
    double value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size()) return std::nullopt;
    return value;
}

prometheus::MetricFamily family(std::string name, std::string help, prometheus::MetricType type, double value) {
    prometheus::ClientMetric metric;
    if (type == prometheus::MetricType::Counter) {
        metric.counter.value = value;
    } else {
        metric.gauge.value = value;
    }
    return prometheus::MetricFamily{std::move(name), std::move(help), type, {metric}};
}

double count_open_fds(const std::string& fd_dir) {
    std::error_code ec;
    double count = 0;
    for (std::filesystem::directory_iterator it(fd_dir, ec), end; !ec && it != end; it.increment(ec)) ++count;
    return count;
}

}  // namespace

std::optional<stat_fields> parse_proc_stat(std::string_view text) {
    // Fields are counted after the last ')', which ends comm: state is field 3 of proc(5).
    auto close = text.rfind(')');
    if (close == std::string_view::npos) return std::nullopt;
    auto fields = split_spaces(text.substr(close + 1));
    // fields[0] is field 3 (state); field N is fields[N - 3].
    if (fields.size() < 22) return std::nullopt;
    auto utime = number(fields[11]), stime = number(fields[12]), start = number(fields[19]);
    auto vsize = number(fields[20]), rss = number(fields[21]);
    if (!utime || !stime || !start || !vsize || !rss) return std::nullopt;
    return stat_fields{*utime, *stime, *start, *vsize, *rss};
}

std::optional<double> parse_boot_time(std::string_view proc_stat) {
    auto pos = proc_stat.find("\nbtime ");
    if (pos == std::string_view::npos) return std::nullopt;
    auto line = proc_stat.substr(pos + 7);
    return number(line.substr(0, line.find('\n')));
}

std::optional<double> parse_max_fds(std::string_view limits) {
    auto pos = limits.find("Max open files");
    if (pos == std::string_view::npos) return std::nullopt;
    auto line = limits.substr(pos + 14);
    auto fields = split_spaces(line.substr(0, line.find('\n')));
    if (fields.empty()) return std::nullopt;
    return number(fields[0]);
}

std::optional<process_stats> read_process_stats(const std::string& proc_dir) {
    auto stat_text = read_file(proc_dir + "/self/stat");
    auto system_text = read_file(proc_dir + "/stat");
    if (!stat_text || !system_text) return std::nullopt;
    auto fields = parse_proc_stat(*stat_text);
    auto boot = parse_boot_time(*system_text);
    if (!fields || !boot) return std::nullopt;
    const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
    const double page = static_cast<double>(sysconf(_SC_PAGESIZE));
    process_stats stats;
    stats.resident_bytes = fields->resident_pages * page;
    stats.virtual_bytes = fields->virtual_bytes;
    stats.cpu_seconds = (fields->user_ticks + fields->system_ticks) / ticks;
    stats.start_time_seconds = *boot + fields->start_ticks / ticks;
    stats.open_fds = count_open_fds(proc_dir + "/self/fd");
    if (auto limits = read_file(proc_dir + "/self/limits")) stats.max_fds = parse_max_fds(*limits).value_or(0);
    return stats;
}

std::vector<prometheus::MetricFamily> scrape_time_families(const std::optional<process_stats>& stats, bool ready,
                                                           std::optional<double> tls_not_after) {
    using prometheus::MetricType;
    std::vector<prometheus::MetricFamily> out;
    if (stats) {
        out.push_back(family("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.",
                             MetricType::Counter, stats->cpu_seconds));
        out.push_back(family("process_resident_memory_bytes", "Resident memory size in bytes.", MetricType::Gauge,
                             stats->resident_bytes));
        out.push_back(family("process_virtual_memory_bytes", "Virtual memory size in bytes.", MetricType::Gauge,
                             stats->virtual_bytes));
        out.push_back(family("process_start_time_seconds", "Start time of the process since unix epoch in seconds.",
                             MetricType::Gauge, stats->start_time_seconds));
        out.push_back(
            family("process_open_fds", "Number of open file descriptors.", MetricType::Gauge, stats->open_fds));
        if (stats->max_fds > 0) {
            out.push_back(family("process_max_fds", "Maximum number of open file descriptors.", MetricType::Gauge,
                                 stats->max_fds));
        }
    }
    out.push_back(family("syncml_ready", "1 when /readyz answers ready (database reachable, schema current), else 0",
                         MetricType::Gauge, ready ? 1 : 0));
    const std::string tls_name = "syncml_tls_certificate_expiry_timestamp_seconds";
    const std::string tls_help =
        "Not-after time of the TLS certificate served on the SyncML listener in seconds since the epoch; no sample "
        "when TLS is off";
    if (tls_not_after) {
        out.push_back(family(tls_name, tls_help, MetricType::Gauge, *tls_not_after));
    } else {
        out.push_back(prometheus::MetricFamily{tls_name, tls_help, MetricType::Gauge, {}});
    }
    return out;
}

}  // namespace syncml::server
