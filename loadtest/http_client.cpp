#include "loadtest/http_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>

#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"

namespace syncml::loadtest {
namespace {

template <typename T>
std::optional<T> to_number(std::string_view s, int base = 10) {
    T value{};
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
    if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
    return value;
}

void apply_header(response_head& head, std::string_view name, std::string_view value) {
    const std::string key = common::to_lower(name);
    if (key == "content-type") head.content_type = std::string(value);
    if (key == "content-length") head.content_length = to_number<std::size_t>(value);
    if (key == "transfer-encoding") head.chunked = common::to_lower(value).find("chunked") != std::string::npos;
    if (key == "connection") head.close = common::to_lower(value).find("close") != std::string::npos;
}

}  // namespace

std::optional<url_parts> parse_loopback_url(std::string_view url) {
    constexpr std::string_view scheme = "http://";
    if (!url.starts_with(scheme)) return std::nullopt;
    url.remove_prefix(scheme.size());
    const auto slash = url.find('/');
    std::string_view authority = url.substr(0, slash);
    url_parts parts;
    parts.target = slash == std::string_view::npos ? "/" : std::string(url.substr(slash));
    const auto colon = authority.rfind(':');
    parts.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) {
        auto port = to_number<std::uint16_t>(authority.substr(colon + 1));
        if (!port || *port == 0) return std::nullopt;
        parts.port = *port;
    }
    if (parts.host == "localhost") parts.host = "127.0.0.1";
    if (parts.host != "127.0.0.1") return std::nullopt;
    return parts;
}

std::optional<response_head> parse_response_head(std::string_view text) {
    const auto line_end = text.find("\r\n");
    std::string_view status_line = text.substr(0, line_end);
    if (!status_line.starts_with("HTTP/1.") || status_line.size() < 12) return std::nullopt;
    response_head head;
    auto code = to_number<int>(status_line.substr(9, 3));
    if (!code) return std::nullopt;
    head.status = *code;
    head.close = status_line.starts_with("HTTP/1.0");
    std::size_t pos = line_end == std::string_view::npos ? text.size() : line_end + 2;
    while (pos < text.size()) {
        auto end = text.find("\r\n", pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 2;
        if (line.empty()) break;
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) return std::nullopt;
        using common::k_blanks, common::k_blanks_and_cr;
        apply_header(head, common::trim(line.substr(0, colon), k_blanks, k_blanks_and_cr),
                     common::trim(line.substr(colon + 1), k_blanks, k_blanks_and_cr));
    }
    return head;
}

http_client::~http_client() { close(); }

void http_client::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    buffer_.clear();
}

bool http_client::connect_to(const url_parts& url) {
    close();
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return false;
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(timeout_.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>((timeout_.count() % 1000) * 1000);
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(url.port);
    ::inet_pton(AF_INET, url.host.c_str(), &addr.sin_addr);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        close();
        return false;
    }
    connected_host_ = url.host;
    connected_port_ = url.port;
    return true;
}

bool http_client::send_all(std::string_view data) {
    while (!data.empty()) {
        const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

bool http_client::fill() {
    char chunk[16384];
    for (;;) {
        const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n > 0) {
            buffer_.append(chunk, static_cast<std::size_t>(n));
            return true;
        }
        if (n == 0) {
            read_error_ = "eof";
        } else {
            read_error_ = errno == EAGAIN || errno == EWOULDBLOCK ? "timeout" : "reset";
        }
        return false;
    }
}

http_reply http_client::post(const url_parts& url, std::string_view content_type, std::string_view body) {
    std::string request = "POST " + url.target + " HTTP/1.1\r\nHost: " + url.host + ":" + std::to_string(url.port) +
                          "\r\nContent-Type: " + std::string(content_type) +
                          "\r\nAccept: " + std::string(content_type) +
                          "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n";
    request.append(body);
    for (int attempt = 0; attempt < 2; ++attempt) {
        const bool reused = fd_ >= 0 && connected_host_ == url.host && connected_port_ == url.port;
        if (!reused && !connect_to(url)) return http_reply{0, {}, {}, "connect"};
        buffer_.clear();
        read_error_.clear();
        if (!send_all(request)) {
            close();
            if (reused) continue;
            return http_reply{0, {}, {}, "reset"};
        }
        http_reply reply = read_reply();
        if (reply.error == "eof" && reused && buffer_.empty()) {
            close();
            continue;
        }
        return reply;
    }
    return http_reply{0, {}, {}, "reset"};
}

http_reply http_client::read_reply() {
    std::size_t head_end;
    while ((head_end = buffer_.find("\r\n\r\n")) == std::string::npos) {
        if (buffer_.size() > 64 * 1024 || !fill()) {
            http_reply failed{0, {}, {}, buffer_.size() > 64 * 1024 ? "malformed" : read_error_};
            close();
            return failed;
        }
    }
    auto head = parse_response_head(std::string_view(buffer_).substr(0, head_end + 4));
    if (!head || head->chunked || !head->content_length) {
        // The server under test answers with Content-Length; anything else is reported, not guessed at.
        close();
        return http_reply{0, {}, {}, "malformed"};
    }
    const std::size_t total = head_end + 4 + *head->content_length;
    while (buffer_.size() < total) {
        if (!fill()) {
            http_reply failed{0, {}, {}, read_error_};
            close();
            return failed;
        }
    }
    http_reply reply{head->status, head->content_type, buffer_.substr(head_end + 4, *head->content_length), {}};
    buffer_.erase(0, total);
    if (head->close) close();
    return reply;
}

}  // namespace syncml::loadtest
