#pragma once
// The rows the sync store reads and writes (see sync_store.hpp and store_roles/), apart from the interfaces so that
// a caller that needs one role includes no other.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/vocabulary/datastore_kind.hpp"
#include "persistence/sync/sync_window.hpp"

namespace syncml::persistence {

// A datastore's kind; its name (datastore_name) is what datastores.kind stores.
using common::item_kind;

inline constexpr int k_candidates_per_key = 50;

struct device_record {
    std::int64_t id = 0;
    std::string nonce;   // next nonce the device must use for md5 auth (empty: none issued yet)
    std::string devinf;  // last DevInf the device sent (encoded XML), empty when unknown
};

// A device's view of one of the user's datastores.
struct device_store_record {
    std::int64_t id = 0;
    std::int64_t datastore_id = 0;
    std::string client_anchor;  // client's Next anchor of the last completed sync
    std::string server_anchor;  // our Next anchor of the last completed sync
    std::int64_t last_seen_modseq = 0;
    bool needs_slow_sync = true;  // set by an admin reset or before the first sync
    // The filter the last completed sync ran with (matching/filter/filter_codec.hpp text, empty: none); saved.
    std::string sync_filter;
    // Read with the row, never saved: the device's own sync window, else its tenant's.
    sync_window window;
    // Read with the row; save_device_store moves the anchor and seen modseq here: those of the sync before the last
    // completed one, which a client that lost that completion presents.
    std::string previous_client_anchor{};
    std::int64_t previous_seen_modseq = 0;
    // The format the device takes for this store (its content type and version, as it sent items or its DevInf
    // said): saved with a completed sync when not empty, so that a later sync without either still knows it.
    std::string content_type{};
    std::string content_version{};
    // Read with the row: the collection takes other components than the kind's too (a calendar of events and tasks,
    // issue 38), so only the items of the opened kind sync with it.
    bool other_kinds = false;
};

// One of a device's views of the user's datastores, found without creating any (see
// device_store_rows::device_store_views).
struct device_store_view {
    std::int64_t id = 0;
    std::int64_t datastore_id = 0;
    item_kind kind = item_kind::contact;
    std::string remote_uri;  // the client's LocURI of its local store
    std::string content_type;
    std::string content_version;
};

struct item_record {
    std::string guid;
    std::string content;  // canonical form (vCard 3.0, iCalendar 2.0, plain text)
    std::int64_t modseq = 0;
    bool deleted = false;
    std::int64_t item_id = 0;  // the row's key (0: unknown), so that writes need no lookup by GUID
};

// A server-side change a device has not seen yet.
struct change_record {
    std::string guid;
    std::int64_t modseq = 0;
    bool deleted = false;
    std::optional<std::string> luid;  // the device's id for the item, when the mapping is confirmed
    std::int64_t item_id = 0;         // the row's key (0: unknown)
    // changes() only: the device store has a mapping of the item, confirmed or not. A refresh unconfirms every
    // mapping when it starts, so after the client's data this tells an item the device held from one it never had.
    bool mapped = false;
};

// An item named by GUID and, when known (not 0), by its row's key, which finds it whatever the planner
// believes about the table.
struct item_ref {
    std::string guid;
    std::int64_t item_id = 0;
};

// A stored item that shares match keys with an incoming item of a slow sync.
struct twin_candidate {
    std::string guid;
    std::string content;
    std::int64_t modseq = 0;
    std::vector<std::string> keys;  // which of the requested keys the item has
    std::int64_t item_id = 0;
    // The device store has an unconfirmed mapping of the item: the device held it before this slow sync.
    bool mapped = false;
    // The modseq at which the device last sent the item, or was mapped to it, before this slow sync (-1: unknown):
    // a copy the device itself wrote at the item's modseq is no stale copy.
    std::int64_t sent_by_device = -1;
};

// The device's id for a server item and the modseq it last sent or received (-1: unconfirmed, the
// device must send the item again in a slow sync before it counts as held).
struct mapping_record {
    std::string guid;
    std::int64_t revision = -1;
};

// A mapping of one of the device's LUIDs, confirmed or not, with the item it maps to as it is now (a tombstone
// keeps its content and the modseq of its deletion).
struct luid_mapping {
    std::string luid;
    std::string guid;
    std::int64_t revision = -1;  // as in mapping_record
    std::int64_t item_id = 0;
    std::int64_t item_modseq = 0;
    bool item_deleted = false;
};

struct session_record {
    std::int64_t id = 0;
    std::string session_id;  // the client's SessionID
    std::string device_uri;
    std::int64_t user_id = 0;  // 0 until authenticated
    std::string state;         // the engine's serialized state
    std::string last_msg_id;   // client MsgID of the last answered message
    std::string last_reply;    // encoded reply to that message, for resends
    std::string last_reply_type;
    // SHA-256 of that message's body: a message 1 with the same MsgID but another body starts a new session.
    std::string last_request_digest;
    // The device row the session works with, read together with the session row so that later messages
    // need no lookup of their own (device_user_id 0: none yet); save_session stores device.id.
    std::int64_t device_user_id = 0;
    device_record device{};
    // Read with the row: an authenticated session of the same device started after this one.
    bool superseded = false;
    bool finished = false;  // save_session records the completion time
    // open_message_session upserted `device` (last seen) for this message with the message's user.
    bool device_touched = false;
    // open_message_session did not create the device row: the user has the tenant's maximum of devices.
    bool device_refused = false;
    // open_message_session started no session: the tenant has max_sessions live ones; nothing else is set.
    bool sessions_refused = false;
    // open_message_session found the session by the message's client address (no token, no valid credentials).
    bool continued_by_address = false;
    // save_session: this message carried valid credentials; the session is now bound to `client_address`.
    bool credentials_verified = false;
    std::string client_address;
};

// What names the session of an incoming message (see sync_store::open_message_session).
struct message_session {
    std::string device_uri;
    std::string session_id;           // the client's SessionID
    std::optional<std::int64_t> key;  // from a valid RespURI token
    std::int64_t key_user = 0;        // the user the token names with `key`: its session's owner
    // No valid token or credentials: the user whose sessions alone an address continuation may reach, 0 for any on
    // one database. Credentials that did not verify name it; else, on a distributed schema, the session starts
    // (session_routes.hpp), which say on whose shard to look.
    std::int64_t route_user = 0;
    std::string msg_id;
    std::int64_t user = 0;  // the account whose credentials this message carries, verified (0: none valid)
    std::string address;    // the client's address
    // A message without token or valid credentials continues a session authenticated from `address` within this
    // idle window; zero: never (tenant session_binding = token).
    std::chrono::seconds address_idle{0};
    std::chrono::seconds max_age{4 * 3600};  // absolute lifetime of a session
    int max_devices = 20;                    // devices per user (a new device beyond: device_refused)
    int max_sessions = 0;                    // live sessions of the tenant (one more: sessions_refused); 0: any
};

// What an Alert opens (see sync_store::open_device_store).
struct store_opening {
    std::int64_t user = 0;
    std::int64_t device = 0;
    item_kind kind = item_kind::contact;
    std::string remote_uri;  // the client's LocURI of its local store
    std::string device_uri;
    std::string resume_prefix;  // the resume pointer row is named this + the device store's id
    std::string session_id;     // empty: leave the resume pointer as it is
    // The collection the datastore URI names (./calendar?collection=work, issue 38); empty: the one an operator chose
    // for the device's datastore of `kind`, else the kind's default collection.
    std::string collection{};
};

// One write of a message's batch (see sync_store::write_items): new content for an item, the device's
// mapping of it, or both.
struct item_write {
    std::string guid;                     // empty: a new item (content required)
    std::optional<std::string> content;   // nullopt: the item stays as stored, only the mapping changes
    std::vector<std::string> match_keys;  // with content: replace the item's keys
    std::string luid;                     // the device's id for the item; empty: no mapping
    // The mapping's revision is the item's modseq after the write (`modseq`, the stored one, when no content
    // is written or the item is gone), one less with `send_back` so that package 4 sends the item back.
    std::int64_t modseq = 0;
    bool send_back = false;
    std::int64_t item_id = 0;  // of an existing item, when known (0: found by `guid`)
    // Without content: map the item at its current modseq (instead of `modseq`), and not at all when it is
    // deleted or gone, as a client's Map of an item the server sent asks. Such a mapping records the item as
    // received by the device, not sent by it (see twin_candidate::sent_by_device).
    bool at_current = false;
    // With at_current, when not negative: the mapping's revision is at most this (the modseq the device's copy
    // was sent at, or a bound of it), so that a later change is still sent; a deleted item is then mapped too,
    // so that its Delete reaches the device. Only an unknown item is not mapped.
    std::int64_t at_most = -1;
};

// What a write did: the item's GUID (new for an add) and its modseq after the write.
struct written_item {
    std::string guid;
    std::int64_t modseq = 0;
    // An at_current write found no item of its GUID in the datastore (or a deleted one, without at_most): it wrote
    // nothing. For a Map, the device named an id of no item of ours.
    bool missing = false;
};

// The id a device store was sent in place of an item's GUID that is longer than the device keeps (its DevInf's
// MaxGUIDSize): a decimal number, one per item and device store for good (see mapping_rows::short_guids_for).
struct short_guid {
    std::string id;
    std::string guid;
};

// An item package 4 may send (see sync_store::outgoing_items).
struct outgoing_item {
    item_record item;
    bool content_read = true;                   // false: beyond the message's budget, only the rest of `item` was read
    std::optional<std::string> confirmed_luid;  // the device's LUID of the item, when it confirmed one
};

// Where package 4 of a device store starts (see sync_store::server_changes).
struct server_changes_record {
    std::int64_t current_modseq = 0;    // the datastore's
    std::int64_t last_seen_modseq = 0;  // what the device saw by its last completed sync
    std::vector<change_record> changes;
};

}  // namespace syncml::persistence
