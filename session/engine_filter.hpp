#pragma once
// Internal to the engine: filtered syncs (issue 18). A datastore opened with a filter (the client's <Filter> or
// URI options, ANDed with the device's sync window) syncs only the items inside it:
// - package 4 sends no item the device does not hold that is outside the filter, at the session's clock;
// - it looks at every item the device does not hold (`rescan`), not only the changes since the last sync, while
//   a filter is in effect or when it differs from the last sync's: an item that moved into a window, or that an
//   earlier filter left out, is sent as an Add;
// - a refresh from the client deletes only the server items inside the filter that the device did not send;
// - items the device holds keep receiving their changes and deletes even when they are outside the filter, and are
//   never deleted on the server because of it: the device keeps what it has until it deletes it itself.
// Not applied yet, and refused (406) when a client asks for them: field filters and item limits (LIMIT, /max).
// A server window's max_items and max_photo_bytes are stored but not applied.

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "matching/item_filter.hpp"
#include "session/engine_run.hpp"
#include "session/store_filter.hpp"

namespace syncml::session::detail {

// The client's filter for the datastore the Alert item targets; nullopt after answering the Alert with the status
// refusing it (422 for a record filter that does not parse, 406 for what the server does not do), logged.
std::optional<store_filter> alert_filter(run& r, const alert& cmd, const item& it);

// The filter `s` syncs with: `client` ANDed with the parts of the device's window that are applied; sets s.filter
// and s.rescan (against the filter the device store last completed a sync with).
void set_store_filter(store_state& s, const store_filter& client, const persistence::device_store_record& ds);

// Whether items of store `s` are inside its filter, at the clock of `now_ms`. Decodes each store's filter once.
class filter_check {
  public:
    explicit filter_check(std::int64_t now_ms);
    // An item that does not parse is inside: the device gets it, as it would without a filter.
    bool inside(const store_state& s, const std::string& canonical_content);

  private:
    std::chrono::system_clock::time_point now_;
    std::map<std::string, std::optional<matching::item_filter>> decoded_;  // by filter text
};

// Refresh from the client with a filter: deletes the server items inside the filter that the device neither sent
// nor received, drops their mappings; what it could not see stays. Returns how many.
std::int64_t delete_unheld_inside(run& r, const store_state& s);

}  // namespace syncml::session::detail
