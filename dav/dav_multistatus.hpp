#pragma once
// 207 Multi-Status bodies (RFC 4918 13): one response per resource, found properties with 200, the rest with 404
// (or another status), and a sync token for sync-collection reports.

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace syncml::dav {

struct prop_name {
    std::string ns;
    std::string name;
    auto operator<=>(const prop_name&) const = default;
};

// An element named by namespace and local name, with the namespaces of the multistatus root as prefixes; `inner`
// is XML already (escaped text or elements). Empty inner: an empty element.
std::string element(const prop_name& name, std::string_view inner = {});
std::string element(std::string_view ns, std::string_view name, std::string_view inner = {});

struct prop_value {
    prop_name name;
    std::string inner;  // XML
};

class multistatus {
  public:
    // A body of at most `cap` bytes of responses: add() and add_status() refuse a response that would take it past
    // the cap (and return false), except the first, so that a listing cut short still moves on (a sync report's token
    // always passes one resource). What closes a listing cut short (add_error, the sync token, the end tag) is taken
    // on top of the cap.
    explicit multistatus(std::size_t cap = std::numeric_limits<std::size_t>::max());
    // A resource's properties: `found` with 200, `missing` with `missing_status` (404 unless forbidden).
    bool add(const std::string& href, const std::vector<prop_value>& found, const std::vector<prop_name>& missing,
             int missing_status = 404);
    // A resource's properties each with its own status (PROPPATCH: 200, or 403/409 and 424 for the others), a
    // propstat per status in the order of first appearance.
    bool add_statuses(const std::string& href, const std::vector<std::pair<prop_name, int>>& statuses);
    // A resource answered with a status only (a deleted one in a sync report, an unknown href of a multiget).
    bool add_status(const std::string& href, int status);
    // A status line for a resource the response must name even when it is full (a multiget's hrefs).
    void add_status_past_cap(const std::string& href, int status);
    // A resource answered with a status and a precondition or postcondition (<d:error>), e.g. the 507
    // number-of-matches-within-limits of a listing cut short. Taken whatever the cap.
    void add_error(const std::string& href, int status, std::string_view ns, std::string_view condition);
    void sync_token(const std::string& token);
    std::string finish();

  private:
    // Appends one response unless it would pass the cap. The response is built apart first: appending and then
    // taking it back could grow the body's buffer to twice the cap.
    bool take(const std::string& response);

    std::string body_;
    std::size_t cap_;
    std::size_t responses_ = 0;
};

std::string status_line(int status);  // "HTTP/1.1 404 Not Found"

// The propstat elements of properties each with its status, grouped by status (for add_statuses and the bodies
// below).
std::string propstats(const std::vector<std::pair<prop_name, int>>& statuses);
// A body of propstats under the root element `ns`:`root` (RFC 5689 DAV:mkcol-response, RFC 4791
// CALDAV:mkcalendar-response).
std::string propstat_body(std::string_view ns, std::string_view root,
                          const std::vector<std::pair<prop_name, int>>& statuses);

// <d:error><precondition/></d:error> as an error body (RFC 4918 16).
// `inner`: XML inside the precondition element (the href of a conflicting resource).
std::string error_body(std::string_view ns, std::string_view precondition, std::string_view inner = {});

}  // namespace syncml::dav
