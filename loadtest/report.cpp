#include "loadtest/report.hpp"

#include <iomanip>
#include <ostream>
#include <sstream>

namespace syncml::loadtest {
namespace {

double rate(std::uint64_t count, double seconds) { return seconds > 0 ? static_cast<double>(count) / seconds : 0; }

std::uint64_t total_errors(const run_stats::report& r) {
    std::uint64_t n = 0;
    for (const auto& [key, count] : r.errors) n += count;
    return n;
}

void latency_row(std::ostream& out, const std::string& name, const latency_summary& s) {
    out << "  " << std::left << std::setw(10) << name << std::right << std::setw(9) << s.count << std::fixed
        << std::setprecision(1) << std::setw(10) << s.p50 * 1000 << std::setw(10) << s.p90 * 1000 << std::setw(10)
        << s.p99 * 1000 << std::setw(10) << s.max * 1000 << "\n";
}

void phase_table(std::ostream& out, const char* title, const run_stats::report& r) {
    out << title << ": " << std::fixed << std::setprecision(1) << r.seconds << " s, " << r.sessions_ok
        << " sessions ok, " << r.sessions_failed << " failed, " << total_errors(r) << " errors";
    if (r.skipped) out << ", " << r.skipped << " open-loop starts skipped";
    out << "\n  sessions/s " << std::setprecision(1) << rate(r.sessions_ok, r.seconds) << "   messages/s "
        << rate(r.messages, r.seconds) << "   items/s " << rate(r.items_up + r.items_down, r.seconds)
        << "   items up/down " << r.items_up << "/" << r.items_down << "   bytes up/down " << r.bytes_up << "/"
        << r.bytes_down << "\n";
    out << "  latency      count   p50 ms    p90 ms    p99 ms    max ms\n";
    for (std::size_t i = 0; i < msg_kind_count; ++i) {
        if (r.per_message[i].count) latency_row(out, to_string(static_cast<msg_kind>(i)), r.per_message[i]);
    }
    for (std::size_t i = 0; i < session_kind_count; ++i) {
        if (r.per_session[i].count) {
            latency_row(out, std::string("S:") + to_string(static_cast<session_kind>(i)), r.per_session[i]);
        }
    }
    for (const auto& [key, count] : r.errors) out << "  error " << key << ": " << count << "\n";
}

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) >= 0x20) out += c;
    }
    return out + "\"";
}

void json_latency(std::ostream& out, const latency_summary& s) {
    out << "{\"count\": " << s.count << ", \"p50_ms\": " << s.p50 * 1000 << ", \"p90_ms\": " << s.p90 * 1000
        << ", \"p95_ms\": " << s.p95 * 1000 << ", \"p99_ms\": " << s.p99 * 1000 << ", \"max_ms\": " << s.max * 1000
        << "}";
}

void json_phase(std::ostream& out, const run_stats::report& r) {
    out << "{\"seconds\": " << r.seconds << ", \"sessions_ok\": " << r.sessions_ok
        << ", \"sessions_failed\": " << r.sessions_failed << ", \"sessions_per_s\": " << rate(r.sessions_ok, r.seconds)
        << ", \"messages\": " << r.messages << ", \"messages_per_s\": " << rate(r.messages, r.seconds)
        << ", \"items_up\": " << r.items_up << ", \"items_down\": " << r.items_down
        << ", \"items_per_s\": " << rate(r.items_up + r.items_down, r.seconds) << ", \"bytes_up\": " << r.bytes_up
        << ", \"bytes_down\": " << r.bytes_down << ", \"skipped\": " << r.skipped
        << ", \"errors_total\": " << total_errors(r) << ", \"latency\": {";
    const char* sep = "";
    for (std::size_t i = 0; i < msg_kind_count; ++i) {
        out << sep << quoted(to_string(static_cast<msg_kind>(i))) << ": ";
        json_latency(out, r.per_message[i]);
        sep = ", ";
    }
    for (std::size_t i = 0; i < session_kind_count; ++i) {
        out << sep << quoted(std::string("session_") + to_string(static_cast<session_kind>(i))) << ": ";
        json_latency(out, r.per_session[i]);
    }
    out << "}, \"errors\": {";
    sep = "";
    for (const auto& [key, count] : r.errors) {
        out << sep << quoted(key) << ": " << count;
        sep = ", ";
    }
    out << "}}";
}

}  // namespace

void print_table(const load_options& options, const run_result& result, std::ostream& out) {
    out << "syncml-load: " << options.people.phone_count() << " phones, "
        << (options.mode == loop_mode::closed ? "closed loop" : "open loop") << ", "
        << (options.phone.encoding == session::wire_encoding::wbxml ? "WBXML" : "XML") << ", "
        << (options.phone.auth == auth_kind::md5 ? "md5" : "basic") << " auth, " << options.phone.first_items
        << " items first, +" << options.phone.adds << "/~" << options.phone.replaces << "/-" << options.phone.deletes
        << " per two-way sync\n";
    phase_table(out, "prepare (first slow syncs)", result.prepare);
    phase_table(out, "measured (two-way syncs)", result.measured);
    if (result.usage_end.available) {
        out << std::setprecision(1) << "server: rss " << static_cast<double>(result.usage_end.rss_bytes) / 1048576.0
            << " MB (peak sampled " << static_cast<double>(result.peak_rss_sampled) / 1048576.0 << " MB, VmHWM "
            << static_cast<double>(result.usage_end.peak_rss_bytes) / 1048576.0 << " MB), cpu " << std::setprecision(2)
            << result.usage_end.cpu_seconds - result.usage_start.cpu_seconds << " s during the measured phase\n";
    }
}

std::string to_json(const load_options& options, const run_result& result) {
    std::ostringstream out;
    out << std::setprecision(6);
    out << "{\"phones\": " << options.people.phone_count() << ", \"tenants\": " << options.people.tenants
        << ", \"mode\": " << quoted(options.mode == loop_mode::closed ? "closed" : "open")
        << ", \"concurrency\": " << options.concurrency << ", \"rate\": " << options.rate
        << ", \"encoding\": " << quoted(options.phone.encoding == session::wire_encoding::wbxml ? "wbxml" : "xml")
        << ", \"auth\": " << quoted(options.phone.auth == auth_kind::md5 ? "md5" : "basic")
        << ", \"items_first\": " << options.phone.first_items << ", \"prepare\": ";
    json_phase(out, result.prepare);
    out << ", \"measured\": ";
    json_phase(out, result.measured);
    const double cpu = result.usage_end.cpu_seconds - result.usage_start.cpu_seconds;
    out << ", \"server\": {\"available\": " << (result.usage_end.available ? "true" : "false")
        << ", \"rss_bytes\": " << result.usage_end.rss_bytes
        << ", \"peak_rss_sampled_bytes\": " << result.peak_rss_sampled
        << ", \"vm_hwm_bytes\": " << result.usage_end.peak_rss_bytes << ", \"cpu_seconds_measured\": " << cpu
        << ", \"cpu_seconds_total\": " << result.usage_end.cpu_seconds << "}}\n";
    return out.str();
}

}  // namespace syncml::loadtest
