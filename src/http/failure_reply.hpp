#pragma once
// The one place where a refusal of the HTTP layer becomes a reply: its status, the words the client reads (which the
// request's log line repeats as its reason) and whether to come back later (Retry-After, only ever from
// common::retry_after). The front ends dress the words their own way: plain text on the SyncML, DAV and metrics ports
// (text_failure_reply), a JSON error object on the admin port (admin_failure_reply in admin_api.hpp).

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "src/http/routing.hpp"

namespace syncml::server {

enum class http_failure {
    server_busy,           // the worker queue is full
    client_over_budget,    // the client's address spent its budget of password checks and failed session lookups
    body_budget_full,      // the body would not fit the bytes all requests together may hold (body_budget)
    database_unavailable,  // a database error that a retry may not meet
    not_ready,             // the readiness probe fails
    internal_error,        // a bug reached the request's handler
    body_too_large,
    malformed_body,
    header_too_large,
    malformed_request,  // a head that does not parse
    misdirected,        // a Host the listener does not answer for (admin API: DNS rebinding)
};

struct failure_terms {
    int status = 500;
    std::string_view message;                         // without the text form's newline
    std::optional<std::chrono::seconds> retry_after;  // set when the client should come back later
};

failure_terms terms_of(http_failure failure);

// The reply with Retry-After added when the terms ask the client to come back later.
http_reply with_retry_after(http_reply reply, const failure_terms& terms);

// "message\n", or "message: detail\n" when a detail is given; `wait` replaces the terms' Retry-After.
http_reply text_failure_reply(http_failure failure, std::optional<std::string_view> detail = std::nullopt,
                              std::optional<std::chrono::seconds> wait = std::nullopt);

// The log line's reason for a refused request: the first line of its plain-text or JSON reply; empty below 400.
std::string refusal_reason(const http_reply& reply);

}  // namespace syncml::server
