#pragma once
// The seam between the HTTP front end (src/) and the protocol engine (session/).
// The front end calls handle() on a worker-pool thread, never on an io thread, because the engine
// blocks on PostgreSQL.

#include <string>
#include <utility>
#include <vector>

#include "session/protocol/wire_encoding.hpp"

namespace syncml::persistence {
class database;
}

namespace syncml::session {

struct sync_request {
    std::string tenant;  // from /sync/<tenant>; empty for /sync (the default tenant)
    std::string url;     // the request target as the client sent it (for RespURI building)
    std::string host;    // Host header (not trusted: only used when public_base is empty)
    bool tls = false;    // request came in over https
    // Scheme, host and port RespURIs start with ("https://sync.example.com"), decided by the front end from
    // configuration or a trusted proxy's headers; empty: from the listener (tls + host).
    std::string public_base;
    // The client's address: the TCP peer, or what a configured trusted proxy says the client was. Sessions of
    // clients that ignore RespURI are bound to it.
    std::string remote_addr;
    wire_encoding encoding = wire_encoding::xml;
    std::string body;
};

struct sync_response {
    int http_status = 200;
    std::string content_type;  // empty when body is empty
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;  // extra headers, e.g. Retry-After
};

class sync_handler {
  public:
    virtual ~sync_handler() = default;
    // Must not throw for bad input: bad SyncML is answered with a SyncML status or an HTTP error.
    // Exceptions that escape are bugs: the caller logs them and answers 500.
    virtual sync_response handle(const sync_request& request, persistence::database& db) = 0;
};

}  // namespace syncml::session
