#include "src/http/failure_reply.hpp"

#include <algorithm>

#include "common/http/retry_after.hpp"

namespace syncml::server {

using std::chrono::seconds;

failure_terms terms_of(http_failure failure) {
    switch (failure) {
        case http_failure::server_busy:
            return {503, "server busy, try again later", seconds(1)};
        case http_failure::client_over_budget:
            return {503, "too many password checks or unknown sessions from this address, try again later", seconds(1)};
        // Other bodies are being read: a second is long enough for many of them to finish.
        case http_failure::body_budget_full:
            return {503, "server busy reading other requests, try again later", seconds(1)};
        // A database outage lasts longer than a full queue: clients come back later.
        case http_failure::database_unavailable:
            return {503, "database unavailable, try again later", seconds(5)};
        case http_failure::not_ready:
            return {503, "not ready", seconds(1)};
        case http_failure::internal_error:
            return {500, "internal server error", std::nullopt};
        case http_failure::body_too_large:
            return {413, "request body too large", std::nullopt};
        case http_failure::malformed_body:
            return {400, "malformed request body", std::nullopt};
        case http_failure::header_too_large:
            return {431, "request header too large", std::nullopt};
        case http_failure::misdirected:
            return {421, "this server does not answer for that host name", std::nullopt};
        case http_failure::malformed_request:
            break;
    }
    return {400, "malformed request", std::nullopt};
}

http_reply with_retry_after(http_reply reply, const failure_terms& terms) {
    if (terms.retry_after) reply.headers.push_back(common::retry_after(*terms.retry_after));
    return reply;
}

http_reply text_failure_reply(http_failure failure, std::optional<std::string_view> detail,
                              std::optional<std::chrono::seconds> wait) {
    failure_terms terms = terms_of(failure);
    if (wait) terms.retry_after = wait;
    std::string body(terms.message);
    if (detail) body.append(": ").append(*detail);
    return with_retry_after(text_reply(terms.status, body + "\n"), terms);
}

std::string refusal_reason(const http_reply& reply) {
    const bool readable = reply.content_type.starts_with("text/plain") || reply.content_type == "application/json";
    if (reply.status < 400 || !readable) return {};
    constexpr std::size_t max_reason = 200;
    return reply.body.substr(0, std::min({reply.body.find('\n'), reply.body.size(), max_reason}));
}

}  // namespace syncml::server
