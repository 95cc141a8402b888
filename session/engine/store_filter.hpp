#pragma once
// What part of a datastore a device gets in a session (issue 18): the filter the client asked for, in the Alert's
// <Filter> (OMA DS 1.2, record filters of type syncml:filtertype-cgi) or as Synthesis-style options in the datastore
// URI ("./calendar?/dr(-30,365)"), ANDed with the server's sync window for the device
// (persistence/sync/sync_window.hpp). The engine builds it when an Alert opens a datastore; what the filter means to a
// sync is matching/filter/item_filter.hpp.

#include <string>
#include <variant>

#include "matching/filter/item_filter.hpp"
#include "persistence/sync/sync_window.hpp"
#include "session/protocol/message.hpp"

namespace syncml::session {

struct store_filter {
    std::string datastore_uri;     // the Target LocURI without options: what names the datastore
    matching::item_filter filter;  // empty parts: no condition
    bool force_slow_sync = false;  // the URI asked for it (/slow)
    std::string collection;        // the collection the URI names (collection_option in store_names.hpp); "": none
    bool operator==(const store_filter&) const = default;
};

// Why a filter is refused, as the Alert's status: 422 (bad CGI script) for a record filter that does not parse,
// 406 (optional feature not supported) for a filter type, grammar feature or field filter the server does not do.
struct filter_refusal {
    int status = 0;
    std::string reason;  // for the log line
};

using store_filter_result = std::variant<store_filter, filter_refusal>;

// The client's filter for the datastore the Alert item targets: `target_uri` (options included) and its <Filter>.
store_filter_result client_filter(const std::string& target_uri, const item_filter* filter);

// The server's window as a filter: events and tasks by their span within [now - past, now + future) days, at most
// max_items items, no PHOTO larger than max_photo_bytes. An unlimited window is an empty filter.
matching::item_filter window_filter(const persistence::sync_window& window);

// Both: the client's filter (its semantics) narrowed by the window.
store_filter with_window(store_filter client, const persistence::sync_window& window);

}  // namespace syncml::session
