#include "session/service/device_trace.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "common/log/log_event.hpp"
#include "session/codec/codec.hpp"

namespace syncml::session {
namespace {

std::string utc_file_time(std::chrono::system_clock::time_point time) {
    const auto seconds = std::chrono::time_point_cast<std::chrono::seconds>(time);
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(time - seconds).count();
    const std::time_t t = std::chrono::system_clock::to_time_t(seconds);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%04d%02d%02dT%02d%02d%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                  utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis));
    return buffer;
}

bool safe_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
}

// mkdir -p with mode 0700 for what it creates.
bool make_private_dirs(const std::filesystem::path& dir) {
    std::filesystem::path walked;
    for (const auto& part : dir) {
        walked /= part;
        if (::mkdir(walked.c_str(), 0700) != 0 && errno != EEXIST) return false;
    }
    return true;
}

}  // namespace

std::string trace_path_segment(std::string_view value) {
    constexpr std::size_t max_segment = 120;  // of the value; escapes may triple it, still far below NAME_MAX
    std::string out;
    for (const char c : value.substr(0, max_segment)) {
        if (safe_char(c)) {
            out += c;
        } else {
            char buffer[4];
            std::snprintf(buffer, sizeof buffer, "%%%02X", static_cast<unsigned>(static_cast<unsigned char>(c)));
            out += buffer;
        }
    }
    if (out.empty() || out == "." || out == "..") out = "%" + out;
    return out;
}

std::string trace_request_text(const message& request) {
    message masked = request;
    if (masked.header.cred) masked.header.cred->data = "********";
    return encode_xml_pretty(masked);
}

std::string trace_reply_text(const sync_response& reply) {
    if (!reply.body.empty()) {
        if (auto decoded = decode(reply.body)) return encode_xml_pretty(decoded.value());
    }
    return "HTTP " + std::to_string(reply.http_status) + "\n";
}

device_trace::device_trace(trace_settings settings) : settings_(std::move(settings)) {}

bool device_trace::wants(const std::string& device) {
    if (settings_.devices.empty() || !settings_.devices.contains(device)) return false;
    const bool running = std::chrono::system_clock::now() < settings_.until && written_.load() < settings_.max_bytes;
    if (!running) {
        std::call_once(ended_logged_, [&] {
            common::log_event(spdlog::level::warn, "device trace ended: time or size limit reached",
                              {{"dir", settings_.dir.string()}, {"bytes", written_.load()}});
        });
    }
    return running;
}

std::filesystem::path device_trace::message_path(const std::string& tenant, const message& request) const {
    return settings_.dir / trace_path_segment(tenant) / trace_path_segment(request.header.source.loc_uri) /
           (utc_file_time(std::chrono::system_clock::now()) + "-s" + trace_path_segment(request.header.session_id) +
            "-m" + trace_path_segment(request.header.msg_id));
}

bool device_trace::write_file(const std::filesystem::path& path, const std::string& text) {
    if (!make_private_dirs(path.parent_path())) return false;
    // O_EXCL: a resent message gets a file of its own instead of replacing the first one.
    int fd = -1;
    std::string name = path.string();
    for (int attempt = 2; (fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0; ++attempt) {
        if (errno != EEXIST || attempt > 100) return false;
        name = path.string() + "-" + std::to_string(attempt);
    }
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
    }
    ::close(fd);
    written_ += done;
    return done == text.size();
}

void device_trace::record(const std::string& tenant, const message& request, const sync_response& reply) {
    try {
        const auto base = message_path(tenant, request);
        const bool ok = write_file(base.string() + "-in.xml", trace_request_text(request)) &&
                        write_file(base.string() + "-out.xml", trace_reply_text(reply));
        if (!ok) {
            common::log_event(spdlog::level::warn, "device trace not written",
                              {{"path", base.string()}, {"error", std::strerror(errno)}});
        }
    } catch (const std::exception& e) {
        common::log_event(spdlog::level::warn, "device trace not written", {{"error", e.what()}});
    }
}

}  // namespace syncml::session
