#pragma once
// The SyncML 1.0/1.1/1.2.1 representation protocol as plain values. Both wire encodings (XML and
// WBXML) decode to and encode from these types, so the protocol engine never sees the wire format.
//
// Conventions:
// - Text fields keep the bytes the peer sent (no trimming of item data), so IDs like MsgID/CmdID/CmdRef
//   stay strings: phones send "-1", leading zeros and other oddities. The one change: a document in
//   an 8-bit charset (XML encoding="ISO-8859-1", WBXML charset 4, ...) has its text converted to UTF-8,
//   because the encoders always write UTF-8. WBXML opaque data stays byte-exact.
// - An absent optional element is std::nullopt; an empty element (<Last/>) is an empty string.
// - Empty-content flag elements (<NoResp/>, <Final/>, <MoreData/>, <Archive/>...) are bools.
// - operator== compares models, which is what the codec round-trip tests rely on.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "session/protocol/devinf.hpp"
#include "session/protocol/wire_encoding.hpp"

namespace syncml::session {

enum class syncml_version { v1_0, v1_1, v1_2 };

// MetInf Anchor; also carried as item data in Alert/Status.
struct sync_anchor {
    std::optional<std::string> last;
    std::optional<std::string> next;
    bool operator==(const sync_anchor&) const = default;
};

struct mem_info {
    bool shared_mem = false;
    std::optional<std::uint64_t> free_mem;
    std::optional<std::uint64_t> free_id;
    bool operator==(const mem_info&) const = default;
};

// The content of a <Meta> element (MetInf DTD). Numbers that do not parse are dropped, not fatal.
struct meta_info {
    std::optional<std::string> format;  // e.g. "b64", "chr", "bin"
    std::optional<std::string> type;    // MIME type or auth type ("syncml:auth-md5")
    std::optional<std::string> mark;
    std::optional<std::uint64_t> size;
    std::optional<std::string> next_nonce;  // as sent: base64 text when format is b64
    std::optional<std::string> version;
    std::optional<std::uint64_t> max_msg_size;
    std::optional<std::uint64_t> max_obj_size;
    std::vector<std::string> emi;
    std::optional<mem_info> mem;
    std::optional<sync_anchor> anchor;
    bool field_level = false;  // SyncML 1.2
    bool operator==(const meta_info&) const = default;
};

struct credentials {
    std::optional<meta_info> meta;
    std::string data;
    bool operator==(const credentials&) const = default;
};

struct challenge {
    std::optional<meta_info> meta;
    bool operator==(const challenge&) const = default;
};

// <Filter> (SyncML 1.2) inside an item's Target; Field and Record each wrap one Item of Meta + Data.
struct filter_part {
    std::optional<meta_info> meta;
    std::optional<std::string> data;
    bool operator==(const filter_part&) const = default;
};

struct item_filter {
    std::optional<meta_info> meta;
    std::optional<filter_part> field;
    std::optional<filter_part> record;
    std::optional<std::string> filter_type;
    bool operator==(const item_filter&) const = default;
};

// Target/Source: LocURI (+ LocName; + Filter on item targets, SyncML 1.2).
struct location {
    std::string loc_uri;
    std::optional<std::string> loc_name;
    std::optional<item_filter> filter;
    bool operator==(const location&) const = default;
};

// Item data. Exactly one representation is used on the wire:
// - devinf set: a DevInf document (inline XML, a nested WBXML opaque, or escaped text on input);
// - anchor set: an inline MetInf Anchor (Status for Alert in some clients);
// - otherwise `bytes`, byte-exact (WBXML opaque or string; XML text with entities decoded).
struct item_data {
    std::string bytes;
    std::optional<dev_inf> devinf;
    std::optional<sync_anchor> anchor;
    bool operator==(const item_data&) const = default;
};

struct item {
    std::optional<location> target;
    std::optional<location> source;
    std::optional<std::string> source_parent;  // LocURI of <SourceParent>, SyncML 1.2
    std::optional<std::string> target_parent;  // LocURI of <TargetParent>, SyncML 1.2
    std::optional<meta_info> meta;
    std::optional<item_data> data;
    bool more_data = false;
    bool operator==(const item&) const = default;
};

// Fields every request command carries.
struct command_base {
    std::string cmd_id;
    bool no_resp = false;
    std::optional<credentials> cred;
    bool operator==(const command_base&) const = default;
};

struct alert : command_base {
    std::optional<std::string> data;  // alert code as sent, e.g. "200"; see alert_code()
    std::optional<std::string> correlator;
    std::vector<item> items;
    bool operator==(const alert&) const = default;
};

// Add, Replace, Delete, Copy, Move share a shape.
struct item_command : command_base {
    std::optional<meta_info> meta;
    std::vector<item> items;
    bool operator==(const item_command&) const = default;
};
struct add : item_command {
    bool operator==(const add&) const = default;
};
struct replace : item_command {
    bool operator==(const replace&) const = default;
};
struct delete_ : item_command {
    bool archive = false;
    bool sft_del = false;
    bool operator==(const delete_&) const = default;
};
struct copy : item_command {
    bool operator==(const copy&) const = default;
};
struct move : item_command {
    bool operator==(const move&) const = default;
};

struct get : item_command {
    std::optional<std::string> lang;
    bool operator==(const get&) const = default;
};
struct put : item_command {
    std::optional<std::string> lang;
    bool operator==(const put&) const = default;
};

struct results {
    std::string cmd_id;
    std::optional<std::string> msg_ref;
    std::string cmd_ref;
    std::optional<meta_info> meta;
    std::optional<std::string> target_ref;
    std::optional<std::string> source_ref;
    std::vector<item> items;
    bool operator==(const results&) const = default;
};

struct status {
    std::string cmd_id;
    std::string msg_ref;
    std::string cmd_ref;
    std::string cmd;  // name of the command this answers: "SyncHdr", "Alert", "Add", ...
    std::vector<std::string> target_refs;
    std::vector<std::string> source_refs;
    std::optional<credentials> cred;
    std::optional<challenge> chal;
    std::string data;  // status code as sent, e.g. "200"; see status_code()
    std::vector<item> items;
    bool operator==(const status&) const = default;
};

struct map_item {
    std::string target;  // LocURI
    std::string source;  // LocURI
    bool operator==(const map_item&) const = default;
};

struct map {
    std::string cmd_id;
    location target;
    location source;
    std::optional<credentials> cred;
    std::optional<meta_info> meta;
    std::vector<map_item> items;
    bool operator==(const map&) const = default;
};

struct exec : command_base {
    std::optional<meta_info> meta;
    std::optional<std::string> correlator;
    std::vector<item> items;
    bool operator==(const exec&) const = default;
};

struct search : command_base {
    bool no_results = false;
    std::optional<location> target;
    std::vector<location> sources;
    std::optional<std::string> lang;
    std::optional<meta_info> meta;
    std::optional<std::string> data;
    bool operator==(const search&) const = default;
};

struct command;

// Containers: their commands are `command`s too (Sync may hold Atomic/Sequence and vice versa).
struct atomic : command_base {
    std::optional<meta_info> meta;
    std::vector<command> commands;
    bool operator==(const atomic&) const;
};
struct sequence : command_base {
    std::optional<meta_info> meta;
    std::vector<command> commands;
    bool operator==(const sequence&) const;
};
struct sync : command_base {
    std::optional<meta_info> meta;
    std::optional<location> target;
    std::optional<location> source;
    std::optional<std::uint64_t> number_of_changes;
    std::vector<command> commands;
    bool operator==(const sync&) const;
};

using command_variant = std::variant<alert, add, replace, delete_, copy, move, get, put, results, status, map, exec,
                                     search, atomic, sequence, sync>;

struct command {
    command_variant value;
    bool operator==(const command&) const;
};

// The element name of a command as it appears on the wire ("Alert", "Delete", ...).
const char* command_name(const command& cmd);
// Its CmdID, and whether it asks for no Status (NoResp; Results, Status and Map cannot).
const std::string& command_id(const command& cmd);
bool no_response(const command& cmd);

struct sync_hdr {
    std::string ver_dtd;    // "1.0", "1.1", "1.2"
    std::string ver_proto;  // "SyncML/1.2"
    std::string session_id;
    std::string msg_id;
    location target;
    location source;
    std::optional<std::string> resp_uri;
    bool no_resp = false;
    std::optional<credentials> cred;
    std::optional<meta_info> meta;
    bool operator==(const sync_hdr&) const = default;
};

struct sync_body {
    std::vector<command> commands;
    bool final = false;
    bool operator==(const sync_body&) const = default;
};

struct message {
    // How the message came in (decode) or which DTD names to write (encode). `version` follows
    // VerDTD; the encoder takes namespaces and public ids from it.
    syncml_version version = syncml_version::v1_2;
    wire_encoding encoding = wire_encoding::xml;
    sync_hdr header;
    sync_body body;
    bool operator==(const message&) const = default;
};

// Numeric status/alert codes; nullopt when the peer sent something that is not a number.
std::optional<int> status_code(const status& s);
std::optional<int> alert_code(const alert& a);

// "1.0" -> v1_0 etc. Unknown strings map to nullopt.
std::optional<syncml_version> version_from_ver_dtd(std::string_view ver_dtd);
const char* ver_dtd_string(syncml_version v);    // "1.2"
const char* ver_proto_string(syncml_version v);  // "SyncML/1.2"

}  // namespace syncml::session
