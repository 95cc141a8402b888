#pragma once
// Internal to the engine: filtered syncs (issue 18). A datastore opened with a filter (the client's <Filter> or
// URI options, ANDed with the device's sync window) syncs only the items inside it:
// - package 4 sends no item the device does not hold that is outside the filter, at the session's clock;
// - it looks at every item the device does not hold (`rescan`), not only the changes since the last sync, while
//   a filter is in effect or when it differs from the last sync's: an item that moved into a window, or that an
//   earlier filter left out, is sent as an Add;
// - a refresh from the client deletes only the server items inside the filter that the device did not send;
// - items the device holds that are outside an EXCLUSIVE filter (OMA's default; windows are exclusive) are removed
//   from the device: package 4 sends a Delete and drops the device's mapping, the server and other devices keep
//   the item, and it comes back as an Add if it moves inside again. Under an INCLUSIVE filter the device keeps them
//   and they keep receiving their changes;
// - nothing is ever deleted on the server because it is outside a filter.
// - a field filter (URI options /li(n), /na; a window's max_photo_bytes) withholds properties: the device gets the item
//   without them, and when it sends the item back the server keeps its values of them (the CTCap merge treats them
//   as properties the device cannot store), so they are never wiped;
// - an item limit (LIMIT, MAXCOUNT, /max(n), a window's max_items) caps how many items of the datastore the device
//   holds: package 4 adds items the device does not hold, in the order of the datastore's changes, only while the
//   device holds fewer; the others wait (counted as filtered out) for a sync where it has room, and every sync under
//   a limit looks at all of them (`rescan`). The device keeps what it holds beyond the limit (a slow sync may bring
//   more): nothing is removed from it, nor deleted on the server, for being over the limit. A refresh from a client
//   under a limit deletes only the items inside the filter that the device held and did not send, since an item it
//   never received is no sign that it was deleted.

#include <chrono>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "matching/filter/item_filter.hpp"
#include "session/engine/engine_run.hpp"
#include "session/engine/store_filter.hpp"

namespace syncml::session::detail {

// The FilterKeyword values of the CGI grammar the engine applies (DevInf FilterCap); the others are refused.
std::span<const std::string_view> applied_filter_keywords();

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
    // The filter's result replaces what the device holds (EXCLUSIVE): items outside are removed from the device.
    bool exclusive(const store_state& s);
    // The canonical content as the device gets it: without the properties its field filter withholds.
    std::string sendable(const store_state& s, const std::string& canonical_content);
    // The properties of `stored` the field filter withholds from the device (upper case; empty without one).
    std::vector<std::string> withheld(const store_state& s, const matching::item& stored);
    // The item limit of store `s`, if it has one.
    std::optional<std::size_t> limit(const store_state& s);

  private:
    const matching::item_filter* filter_of(const store_state& s);

    std::chrono::system_clock::time_point now_;
    std::map<std::string, std::optional<matching::item_filter>> decoded_;  // by filter text
};

// Package 4 starts: s.out.removals lists the items the device holds that are outside an EXCLUSIVE filter, and
// s.out.limit_room how many items it may still get under an item limit (empty: no limit).
void plan_filtered_package(run& r, store_state& s);

// A slow sync or refresh under a filter completed: the mappings it did not confirm again are of items the device no
// longer holds (it did not send them, the filter kept them from it). They are dropped, so that a later refresh under
// an item limit does not take them for items the device held.
void drop_unconfirmed_mappings(run& r, const store_state& s);

// Refresh from the client with a filter: deletes the server items up to modseq `upto` inside the filter that the
// device neither sent nor received, drops their mappings; what it could not see stays. Returns how many.
std::int64_t delete_unheld_inside(run& r, const store_state& s, std::int64_t upto);

}  // namespace syncml::session::detail
