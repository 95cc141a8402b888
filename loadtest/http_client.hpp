#pragma once
// A small blocking HTTP/1.1 client for the load generator: one keep-alive connection per simulated phone,
// POST only, loopback targets only (a load run must never leave the machine).

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace syncml::loadtest {

struct url_parts {
    std::string host;
    std::uint16_t port = 80;
    std::string target;  // path and query, "/sync/t1?s=..."
};

// http://127.0.0.1:PORT/path or http://localhost:PORT/path; nullopt for anything else (other hosts, https).
std::optional<url_parts> parse_loopback_url(std::string_view url);

struct http_reply {
    int status = 0;
    std::string content_type;
    std::string body;
    std::string error;  // transport error ("connect", "timeout", "reset", "malformed"); empty on success
};

class http_client {
  public:
    explicit http_client(std::chrono::milliseconds timeout) : timeout_(timeout) {}
    ~http_client();
    http_client(const http_client&) = delete;
    http_client& operator=(const http_client&) = delete;

    // Reuses the open connection when it goes to the same host and port; reconnects once when a reused
    // connection turns out to be closed by the server before any reply byte arrived.
    http_reply post(const url_parts& url, std::string_view content_type, std::string_view body);
    void close();

  private:
    bool connect_to(const url_parts& url);
    bool send_all(std::string_view data);
    http_reply read_reply();
    bool fill();  // reads more bytes into buffer_; false on eof, error or timeout

    std::chrono::milliseconds timeout_;
    int fd_ = -1;
    std::string connected_host_;
    std::uint16_t connected_port_ = 0;
    std::string buffer_;
    std::string read_error_;
};

// Parses one HTTP/1.1 response head ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n...\r\n\r\n").
struct response_head {
    int status = 0;
    std::string content_type;
    std::optional<std::size_t> content_length;
    bool chunked = false;
    bool close = false;
};
std::optional<response_head> parse_response_head(std::string_view head);

}  // namespace syncml::loadtest
