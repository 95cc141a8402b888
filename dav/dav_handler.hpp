#pragma once
// The DAV front end without the HTTP: one authenticated request in, its response out, the user's items through a
// dav_store in the request's one transaction. The front end (src/) authenticates and maps the tenant; this decides
// everything else (RFC 4918 PROPFIND/PROPPATCH, RFC 6352 CardDAV, RFC 4791 CalDAV, RFC 6578 sync-collection).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "persistence/dav/dav_store.hpp"

namespace syncml::dav {

struct dav_request {
    std::string method;
    std::string path;   // of the request target, still percent-encoded, no query
    std::string depth;  // Depth header ("" when absent)
    std::string if_match;
    std::string if_none_match;
    std::string body;
};

// What one listing of a collection's items (PROPFIND Depth 1, addressbook-query, calendar-query, sync-collection)
// may hold. It reads the items in pages without content and their contents a batch at a time, so that it holds one
// batch of contents and its response, never the collection (measured before, issue 35: 60 MB stored, one PROPFIND
// with the contents took 166 MB, four at once 500 MB). A listing whose response reaches `response_bytes` stops there
// and says so with a 507 for the collection; a sync report's token then continues where it stopped (RFC 6578 3.6).
// Fields and not constants, so that tests take small ones; every tenant has the defaults.
struct listing_limits {
    // Of XML. Above a listing without contents of as many items as the default item limit allows (100000 at about
    // 300 bytes each): only listings with contents are ever cut.
    std::size_t response_bytes = 32 << 20;
    std::size_t page_items = 1000;              // resources without content: about 200 bytes each
    std::size_t content_batch_bytes = 1 << 20;  // of stored contents; an item larger than that is a batch alone
};

// Who is asking: the account the front end authenticated, with its tenant's limits.
struct dav_account {
    common::tenant_id tenant_id;
    std::string tenant;
    common::user_id user_id;
    std::string user;
    std::int64_t max_items = 100000;          // per datastore
    std::size_t max_object_bytes = 16 << 20;  // per item
    listing_limits listing{};
    std::int64_t max_user_bytes = 0;  // of all the user's items (0: no quota)
    // Live collections of the user, the defaults included (the server's dav_max_collections): MKCOL and MKCALENDAR
    // beyond it get 507.
    std::size_t max_collections = 50;
};

struct dav_response {
    int status = 200;
    std::string content_type;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    // What the request did, for the log line and metrics: "read", "write", "delete", "refused".
    std::string outcome = "read";
    // The tenant limit a write met ("items_per_datastore", "user_bytes"; empty: none), for the front end's log line.
    std::string refused_by;
};

// The methods this front end knows; anything else (MOVE and COPY too: items and collections stay where they are) is
// answered 405 (with this Allow) before a body is read.
inline constexpr std::array<std::string_view, 10> k_known_methods{"OPTIONS",  "GET",       "HEAD",   "PUT",
                                                                  "DELETE",   "PROPFIND",  "PROPPATCH", "REPORT",
                                                                  "MKCOL",    "MKCALENDAR"};
bool known_method(std::string_view method);
inline constexpr const char* k_allowed_methods =
    "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCOL, MKCALENDAR";

// The largest XML body (PROPFIND, REPORT, PROPPATCH) the front end reads: parsing costs a multiple of the size.
inline constexpr std::size_t k_max_xml_body = 1 << 20;

// OPTIONS needs neither the store nor credentials: the DAV classes, and in Allow the methods that can work on the
// resource at `path` (a request target outside the DAV space: every method the front end knows).
dav_response options_response(std::string_view path = {});

dav_response handle_dav(const dav_request& request, const dav_account& account, persistence::dav_store& store);

// The value of an ETag header for an item at `modseq`.
std::string etag_of(std::int64_t modseq);

}  // namespace syncml::dav
