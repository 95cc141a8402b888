#pragma once
// Everything the engine remembers about a session between two messages. It lives only in the session
// row (serialized by state_codec), never in process memory, so any server instance can take the next
// message.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "matching/model/item.hpp"

namespace syncml::session {

enum class phase : int {
    init = 0,            // waiting for the client's package 1 (alerts)
    client_changes = 1,  // receiving package 3
    server_changes = 2,  // sending package 4 (possibly over several messages)
    map = 3,             // receiving package 5
    done = 4,
};

// What a slow sync found in the datastore before it stored anything (store_state::own_modseqs).
enum class datastore_start : std::uint8_t {
    not_checked,
    was_empty,
    was_not_empty,
};

struct outgoing_change {
    std::string guid;
    std::int64_t modseq = 0;
    bool deleted = false;
    std::string luid;          // empty: the device does not hold the item yet (Add)
    std::int64_t item_id = 0;  // the item's row (0: unknown, e.g. in state of an older version)
    // Where the command went (our MsgID and CmdID), so that the client's Status for it finds it, and the code of
    // that Status once it arrived (0: none yet).
    std::int64_t msg_id = 0;
    std::string cmd_id{};
    int client_status = 0;
};

// The command whose item arrives in chunks.
enum class chunk_command : std::uint8_t { add, replace };

// A large object being received in chunks (MoreData). Its bytes are not here: the session row is rewritten by
// every message, so they go to sync_store::append_chunk, one row per chunk, and the state keeps their count.
struct incoming_chunks {
    std::optional<chunk_command> command;  // empty: the object was refused at its first chunk
    std::string luid;                      // Source LocURI of the item (client id)
    std::string target;                    // Target LocURI (server id) for Replace
    std::string mime;
    std::optional<std::int64_t> declared_size;  // Size of the item's Meta (empty: none sent)
    std::int64_t received = 0;                  // bytes of the object stored with append_chunk so far
    int refused = 0;          // the status it was refused with (413, 424): its further chunks get it too
    std::string legacy_data;  // bytes an older version kept in the state, for the chunk store
    std::string format;       // Meta Format of its first chunk ("b64": decoded once whole)
};

// Package 4 is a cursor over the changes in (position, store_state::upto_modseq]: each message reads the next
// page after the cursor (sync_store::change_page), so the session row stays small however much is pending.
struct server_package {
    std::int64_t position = 0;  // modseq of the last change taken off the queue (sent or skipped)
    std::string partial_guid;   // GUID of the item whose first `offset` bytes were sent
    std::int64_t offset = 0;    // bytes of partial_guid already sent as a large object
    std::int64_t count = 0;     // changes in the package when it started (NumberOfChanges of its first Sync)
    // The page being sent; not stored (a state of an older version that still has the whole list is turned
    // into a cursor at its front when decoded).
    std::vector<outgoing_change> page;
    bool loaded_all = false;  // not stored: `page` holds every change left up to upto_modseq
    // Sent in our last reply; recorded as held by the device only once the client's next message
    // shows that the reply arrived, so that a resumed session sends them again.
    std::vector<outgoing_change> in_flight;
    // Items the device holds that are outside an EXCLUSIVE filter: package 4 sends a Delete for each before its
    // changes; the server keeps the item, only the device's mapping goes (engine_filter.hpp).
    std::vector<outgoing_change> removals;
    // Under an item limit (LIMIT, MAXCOUNT, /max, a window's max_items): how many more items package 4 may add to
    // the device (empty: no limit). Set when package 4 starts from the items the device holds then.
    std::optional<std::int64_t> limit_room;
};

// The commands received and sent, for metrics and the session log line.
struct command_counts {
    std::int64_t received_add = 0, received_replace = 0, received_delete = 0;
    std::int64_t sent_add = 0, sent_replace = 0, sent_delete = 0;
};

// What one message learns and keeps while it runs; never stored in the session row.
struct per_message_cache {
    // The datastore's live items as this message knows them (empty: not looked at yet), an upper bound (its
    // modseq: every item took one when added) until live_items_exact, and the new items this message added.
    std::optional<std::int64_t> live_items;
    bool live_items_exact = false;
};

struct store_state {
    std::string server_uri;  // the datastore name as the client addressed it
    std::string client_uri;  // the client's own database URI
    matching::item_kind kind = matching::item_kind::contact;
    int mode = 200;  // alert code granted
    std::int64_t datastore_id = 0;
    std::int64_t device_store_id = 0;
    std::string client_last;  // the client's Last anchor: a resume must present the same one
    std::string client_next;  // anchors to store when the session completes
    std::string server_next;
    std::int64_t upto_modseq = 0;  // modseq the device has seen once package 4 is acknowledged
    // The modseq the device had seen by its last completed sync (empty: unknown, state of an older version). A slow
    // sync takes a server item changed after it as newer than the device's copy (engine_match.hpp).
    std::optional<std::int64_t> last_seen_modseq;
    // This session recorded something of its package 4 as held by the device before completing: the device store
    // then needs a slow sync unless this session completes or is resumed (engine_out.cpp, mark_delivery).
    bool delivery_marked = false;
    std::string device_mime;  // format the device wants for its items
    std::string device_version;
    std::string device_format;  // Meta Format of the device's items in this session ("b64", "chr"); empty: none seen
    // The task side of a device calendar that holds tasks too (calendar_tasks.hpp): the calendar's names, mode and
    // anchors over the user's task datastore; its items travel in the calendar's Sync.
    bool calendar_tasks = false;
    // A task side: the device's view of the task datastore through another of its datastores, whose items keep
    // travelling there (0: none). A task datastore: new tasks reach the device through its calendar instead.
    std::int64_t tasks_elsewhere = 0;
    bool tasks_via_calendar = false;
    bool client_sync_done = false;  // the client's Sync of package 3 was received (Final seen)
    bool server_sync_started = false;
    server_package out;
    // Lowest modseq minus one of a change the client refused (empty: none): the device's last seen modseq is stored
    // no higher, so that its next sync sends the change again (changes it holds are skipped by their mapping).
    std::optional<std::int64_t> resend_after;
    bool slow_sync_required = false;  // the client answered our Alert with 508: its next sync is a slow sync
    // Refresh from client: the datastore's modseq when the refresh began. Only items no later than that which the
    // client did not send are deleted: what changed or came meanwhile is newer than the client's upload.
    std::optional<std::int64_t> refresh_upto;
    // The client answered our Alert or Sync with an error: the datastore's sync failed, so its anchors and what the
    // device has seen stay as they were and the changes come again next time.
    bool client_refused = false;
    // The filter of this sync (matching/filter/filter_codec.hpp text; empty: the whole datastore): the client's ANDed
    // with the device's sync window (store_filter.hpp). `rescan`: package 4 looks at every item the device does not
    // hold, not only the changes since its last sync, because the filter is relative to the clock or changed.
    std::string filter;
    bool rescan = false;
    std::int64_t filtered_out = 0;  // items package 4 left out because they are outside the filter
    std::int64_t too_large = 0;     // items package 4 left out because the device cannot take them (sent again later)
    bool resumed = false;           // continues an interrupted session (Alert 225)
    std::optional<incoming_chunks> partial;
    per_message_cache per_message;
    // Slow sync: whether the datastore was empty when this session started and, if it was, the modseqs this
    // session took in it since. While the datastore's modseq equals own_modseqs, every stored item is one the
    // device sent in this sync and holds, so there is no twin to look up.
    datastore_start start_contents = datastore_start::not_checked;
    std::int64_t own_modseqs = 0;  // counted only while start_contents is was_empty
    command_counts counts;
};

struct session_state {
    phase current = phase::init;
    bool authenticated = false;
    std::int64_t user_id = 0;
    std::string user_name;
    std::string version = "1.2";    // VerDTD of the client: "1.0", "1.1", "1.2"
    std::int64_t next_msg_id = 1;   // our MsgID for the next reply
    std::int64_t max_msg_size = 0;  // 0: the client set no limit
    std::int64_t max_obj_size = 0;
    std::int64_t auth_failures = 0;
    bool devinf_known = false;
    // Statuses (and the commands after them) of a reply that exceeded the client's MaxMsgSize, as a SyncML message
    // in XML, sent first in the next reply; `pending_final`: that reply ended our package.
    std::string pending_reply;
    bool pending_final = false;
    std::vector<store_state> stores;
    std::int64_t started_unix_ms = 0;
    std::int64_t bytes_in = 0, bytes_out = 0;
};

std::string encode_state(const session_state& state);
// Tolerates state written by an older version: unknown or missing fields keep their defaults.
std::optional<session_state> decode_state(const std::string& text);

}  // namespace syncml::session
