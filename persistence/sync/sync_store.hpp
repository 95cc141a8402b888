#pragma once
// What the protocol engine needs from the database, as an interface free of pqxx so that the state
// machine can be unit-tested with an in-memory fake. Every call runs inside the one transaction of the
// message being handled (see sync_transaction), so a message is applied completely or not at all.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "persistence/sync/sync_window.hpp"

namespace syncml::persistence {

class database;

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
    std::string kind;        // contacts, calendar, tasks, memos
    std::string remote_uri;  // the client's LocURI of its local store
    std::string device_uri;
    std::string resume_prefix;  // the resume pointer row is named this + the device store's id
    std::string session_id;     // empty: leave the resume pointer as it is
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

class sync_store {
  public:
    virtual ~sync_store() = default;

    // Finds or creates the user's device with this SyncML device id (LocURI of the SyncHdr Source).
    virtual device_record device(std::int64_t tenant, std::int64_t user, const std::string& device_uri) = 0;
    virtual void set_device_nonce(std::int64_t tenant, std::int64_t device, const std::string& nonce) = 0;
    virtual void set_device_devinf(std::int64_t tenant, std::int64_t device, const std::string& devinf) = 0;

    // Locks the session row for the rest of the transaction; nullopt when there is none.
    virtual std::optional<session_record> lock_session(std::int64_t tenant, const std::string& device_uri,
                                                       const std::string& session_id) = 0;
    virtual std::optional<session_record> lock_session_by_key(std::int64_t tenant, std::int64_t key) = 0;
    // Creates and locks a session; returns its key.
    virtual std::int64_t create_session(std::int64_t tenant, const std::string& device_uri,
                                        const std::string& session_id) = 0;
    virtual void save_session(std::int64_t tenant, const session_record& session) = 0;
    // Finds the live session (device, SessionID), or creates it (also over an expired one), and locks it.
    // The default composes the calls above; the PostgreSQL store does it in one statement.
    virtual session_record open_session(std::int64_t tenant, const std::string& device_uri,
                                        const std::string& session_id) {
        if (auto found = lock_session(tenant, device_uri, session_id)) return *found;
        session_record fresh;
        fresh.id = create_session(tenant, device_uri, session_id);
        fresh.session_id = session_id;
        fresh.device_uri = device_uri;
        return fresh;
    }
    // Orders the messages of all sessions of a device (see sync_service.hpp): waits for and takes the device's
    // lock, held until the transaction ends. Call it first, before anything the lock should order is read.
    // Without concurrent callers (the in-memory fake) there is nothing to order.
    virtual void lock_device(std::int64_t, const std::string&) {}
    // The start of a message: lock_device, then the session this message may continue (session/service/admission.hpp
    // says which ways it may take, the database's syncml_open_session, migrations/0027, decides row by row: the one
    // copy of that rule), created for valid credentials; nullopt when the message may touch no session. One round
    // trip, which also upserts the device row of `m.user` when a new message starts the session or the session has no
    // device row of that user yet (device_touched).
    virtual std::optional<session_record> open_message_session(std::int64_t tenant, const message_session& m) = 0;
    // The per-device row named `pointer` (no user, so no running session) now names `session_id`: created, or
    // restarted when it expired. The default composes lock_session, create_session and save_session.
    virtual void set_resume_pointer(std::int64_t tenant, const std::string& device_uri, const std::string& pointer,
                                    const std::string& session_id) {
        auto rec = lock_session(tenant, device_uri, pointer);
        if (!rec) {
            rec = session_record{};
            rec->id = create_session(tenant, device_uri, pointer);
            rec->session_id = pointer;
            rec->device_uri = device_uri;
        }
        rec->user_id = 0;
        rec->state = session_id;
        save_session(tenant, *rec);
    }
    // The live session the live row `pointer` names (see set_resume_pointer), both locked; nullopt when either
    // is gone. The default makes two lock_session calls; PostgreSQL needs one query.
    virtual std::optional<session_record> lock_pointed_session(std::int64_t tenant, const std::string& device_uri,
                                                               const std::string& pointer) {
        auto found = lock_session(tenant, device_uri, pointer);
        if (!found || found->state.empty()) return std::nullopt;
        return lock_session(tenant, device_uri, found->state);
    }

    // kind: contacts, calendar, tasks, memos. Creates the datastore on first use.
    virtual std::int64_t datastore(std::int64_t tenant, std::int64_t user, const std::string& kind) = 0;
    virtual device_store_record device_store(std::int64_t tenant, std::int64_t device, std::int64_t datastore,
                                             const std::string& remote_uri) = 0;
    // A sync completed: its anchors, seen modseq, slow-sync flag and filter; the ones it replaces become the previous.
    virtual void save_device_store(std::int64_t tenant, const device_store_record& store) = 0;
    // The device store's next sync must be slow (needs_slow_sync); nothing else of the row changes.
    virtual void require_slow_sync(std::int64_t tenant, std::int64_t device_store) = 0;
    // datastore() and device_store() together: the device's view of the user's datastore of `kind`, created on
    // first use. The default makes both calls; PostgreSQL needs one statement.
    virtual device_store_record device_store_of_kind(std::int64_t tenant, std::int64_t user, std::int64_t device,
                                                     const std::string& kind, const std::string& remote_uri) {
        return device_store(tenant, device, datastore(tenant, user, kind), remote_uri);
    }
    // device_store_of_kind, then (with a session_id) the device store's resume pointer: set_resume_pointer of the
    // row named `resume_prefix` + the device store's id. The default makes those calls; PostgreSQL needs one
    // statement.
    virtual device_store_record open_device_store(std::int64_t tenant, const store_opening& o) {
        auto ds = device_store_of_kind(tenant, o.user, o.device, o.kind, o.remote_uri);
        if (!o.session_id.empty()) {
            set_resume_pointer(tenant, o.device_uri, o.resume_prefix + std::to_string(ds.id), o.session_id);
        }
        return ds;
    }

    // Each change takes the next modseq of its datastore; the datastore's counter stays locked until
    // commit so that modseqs become visible in order and a reader never skips one.
    // `match_keys` (matching::to_string of each key) replace the item's keys in the index.
    virtual item_record add_item(std::int64_t tenant, std::int64_t datastore, const std::string& content,
                                 const std::vector<std::string>& match_keys) = 0;
    virtual std::optional<item_record> replace_item(std::int64_t tenant, std::int64_t datastore,
                                                    const std::string& guid, const std::string& content,
                                                    const std::vector<std::string>& match_keys) = 0;
    virtual std::optional<item_record> delete_item(std::int64_t tenant, std::int64_t datastore,
                                                   const std::string& guid) = 0;
    virtual std::optional<item_record> find_item(std::int64_t tenant, std::int64_t datastore,
                                                 const std::string& guid) = 0;
    // Applies `writes` as add_item/replace_item and then set_mapping (touch_mapping for a Map) would, in order. The
    // default does exactly that; the PostgreSQL store needs a fixed number of statements for the whole batch.
    virtual std::vector<written_item> write_items(std::int64_t tenant, std::int64_t datastore,
                                                  std::int64_t device_store, const std::vector<item_write>& writes);
    // Live items with one of `match_keys` that `device_store` does not hold confirmed, oldest first, at
    // most k_candidates_per_key per key so a key thousands of items share stays cheap. One query.
    virtual std::vector<twin_candidate> twin_candidates(std::int64_t tenant, std::int64_t datastore,
                                                        std::int64_t device_store,
                                                        const std::vector<std::string>& match_keys) = 0;
    virtual std::int64_t current_modseq(std::int64_t tenant, std::int64_t datastore) = 0;
    // Changes with after < modseq <= upto that this device has not sent or received itself. With
    // include_deleted false, only live items (for slow and refresh syncs).
    virtual std::vector<change_record> changes(std::int64_t tenant, std::int64_t device_store, std::int64_t after,
                                               std::int64_t upto, bool include_deleted) = 0;
    // The start of package 4 in one query: the datastore's current modseq, the device store's last seen one and,
    // with `wanted`, changes() after that (after 0 with `from_start`) up to the current modseq.
    virtual server_changes_record server_changes(std::int64_t tenant, std::int64_t datastore, std::int64_t device_store,
                                                 bool wanted, bool from_start, bool include_deleted) = 0;
    // Package 4's next page: at most `limit` of changes() after `after` up to `upto` in modseq order, with item
    // ids, without deleted items the device holds no confirmed LUID of (it never had them). The default filters
    // changes(); PostgreSQL needs one query that reads no further than the page.
    // The live items the device holds (a confirmed mapping, at any revision), in modseq order, with their LUIDs and
    // item ids: what a filtered sync checks for items that left the device's filter. One query.
    virtual std::vector<change_record> held_items(std::int64_t tenant, std::int64_t device_store) = 0;
    virtual std::vector<change_record> change_page(std::int64_t tenant, std::int64_t datastore,
                                                   std::int64_t device_store, std::int64_t after, std::int64_t upto,
                                                   bool include_deleted, std::size_t limit);
    // The items of `items` that exist (deleted ones too, in any order) with the device's confirmed LUID of each.
    // Contents are read only while the items before one in `items`, at their stored size plus `overhead` each,
    // take less than `budget` bytes (the first item's always): what one message can carry, so large items are
    // not read ahead. The default reads item by item; PostgreSQL needs one query.
    virtual std::vector<outgoing_item> outgoing_items(std::int64_t tenant, std::int64_t datastore,
                                                      std::int64_t device_store, const std::vector<item_ref>& items,
                                                      std::size_t budget, std::size_t overhead);
    // Package 4 arrived: the device holds each (item, modseq) of `held` (touch_mapping) and none of `removed`: the
    // mapping of a live one goes (remove_mapping), that of a deleted one records the Delete (touch_mapping at the
    // deletion's modseq) and goes with the tombstone. The default makes those calls; PostgreSQL needs one statement.
    virtual void record_delivery(std::int64_t tenant, std::int64_t datastore, std::int64_t device_store,
                                 const std::vector<std::pair<item_ref, std::int64_t>>& held,
                                 const std::vector<item_ref>& removed);
    // Refresh from client: deletes (as delete_item, each with its own modseq) every live item that changes()
    // from 0 lists for `device_store`, the ones the device neither sent nor received, and drops their
    // mappings. Returns how many. The default makes those calls; PostgreSQL needs one statement.
    virtual std::int64_t delete_unheld_items(std::int64_t tenant, std::int64_t datastore, std::int64_t device_store);

    virtual std::optional<std::string> guid_for_luid(std::int64_t tenant, std::int64_t device_store,
                                                     const std::string& luid) = 0;
    virtual std::optional<mapping_record> mapping_of_luid(std::int64_t tenant, std::int64_t device_store,
                                                          const std::string& luid) = 0;
    // The mappings of these LUIDs that exist, confirmed or not. One query.
    virtual std::vector<luid_mapping> mappings_of_luids(std::int64_t tenant, std::int64_t device_store,
                                                        const std::vector<std::string>& luids) = 0;
    // The LUID of the device's confirmed mapping of this item, if any.
    virtual std::optional<std::string> confirmed_luid(std::int64_t tenant, std::int64_t device_store,
                                                      const std::string& guid) = 0;
    virtual void set_mapping(std::int64_t tenant, std::int64_t device_store, const std::string& luid,
                             const std::string& guid, std::int64_t modseq) = 0;
    // Records that the device holds this revision of the item without changing its LUID.
    virtual void touch_mapping(std::int64_t tenant, std::int64_t device_store, const std::string& guid,
                               std::int64_t modseq) = 0;
    virtual void remove_mapping(std::int64_t tenant, std::int64_t device_store, const std::string& guid) = 0;
    // A slow sync starts: every mapping must be confirmed again by the client sending the item, or it
    // is replaced by a new one when the server sends the item. Unconfirmed mappings keep their LUID
    // for matching but count as "device does not hold the item".
    virtual void unconfirm_mappings(std::int64_t tenant, std::int64_t device_store) = 0;
    // Live (not deleted) items of the datastore, counted up to `limit` at most: enough to check a quota without
    // counting a large datastore whole.
    virtual std::int64_t live_items(std::int64_t tenant, std::int64_t datastore, std::int64_t limit) = 0;

    // A large object the device sends in chunks (MoreData) is kept beside the session row, which every message
    // rewrites: each message appends its chunk, so an object of n chunks costs O(n) bytes written, not O(n^2).
    // Keyed by the device store, so that a resumed session (another SessionID) continues the object. `offset` is
    // the number of the object's bytes before this chunk; offset 0 starts an object and drops what another one
    // left (abandoned by its session).
    virtual void append_chunk(std::int64_t tenant, std::int64_t device_store, std::int64_t offset,
                              const std::string& data) = 0;
    // The object's bytes in order, removed from the store; nullopt (and removed too) unless they are exactly
    // `size` bytes from offset 0 on, e.g. when another session's object took their place.
    virtual std::optional<std::string> take_chunks(std::int64_t tenant, std::int64_t device_store,
                                                   std::int64_t size) = 0;
    virtual void drop_chunks(std::int64_t tenant, std::int64_t device_store) = 0;

    // The tenant's conflict policy as stored (tenants.conflict_policy), e.g. "merge", "server_wins".
    virtual std::string conflict_policy(std::int64_t tenant) = 0;
    // Secret for signing RespURI tokens, the same for every server instance of the database.
    virtual std::string token_secret() = 0;
};

// Runs `work` in one transaction on `db` and commits when it returns normally; retries the whole
// function on serialization failures and lost connections. Returns false when the database failed
// (after retries); exceptions thrown by `work` itself propagate after rollback.
bool run_sync_transaction(database& db, const std::function<void(sync_store&)>& work);
// As run_sync_transaction, with the store bound to `owner` from the start (see pg_session_store::bind_owner): for
// work that knows its user before its first call names one.
bool run_sync_transaction(database& db, std::int64_t owner, const std::function<void(sync_store&)>& work);
// As run_sync_transaction, but `work` decides: true commits, false rolls everything it wrote back.
enum class transaction_outcome { committed, rolled_back, failed };
transaction_outcome run_sync_transaction_if(database& db, const std::function<bool(sync_store&)>& work);

}  // namespace syncml::persistence
