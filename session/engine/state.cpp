#include "session/engine/state.hpp"

// Format: a sequence of `name=<length>:<bytes>` tokens. Length-prefixed values need no escaping, so
// item data and anchors with any bytes survive; unknown names are skipped so old rows stay readable.

#include <array>
#include <charconv>
#include <limits>
#include <map>
#include <string_view>
#include <utility>

#include "matching/model/datastore_kind.hpp"

namespace syncml::session {
namespace {

class writer {
  public:
    void put(std::string_view name, std::string_view value) {
        out_.append(name);
        out_ += '=';
        out_ += std::to_string(value.size());
        out_ += ':';
        out_.append(value);
    }
    void put(std::string_view name, std::int64_t value) { put(name, std::to_string(value)); }
    void put(std::string_view name, bool value) { put(name, std::string_view(value ? "1" : "0")); }
    std::string take() { return std::move(out_); }

  private:
    std::string out_;
};

// Reads tokens one by one; `next` fails on malformed input.
class reader {
  public:
    explicit reader(std::string_view text) : text_(text) {}
    bool at_end() const { return pos_ >= text_.size(); }
    bool next(std::string_view& name, std::string_view& value) {
        auto eq = text_.find('=', pos_);
        auto colon = eq == std::string_view::npos ? eq : text_.find(':', eq);
        if (colon == std::string_view::npos) return false;
        std::size_t length = 0;
        auto [ptr, ec] = std::from_chars(text_.data() + eq + 1, text_.data() + colon, length);
        if (ec != std::errc{} || ptr != text_.data() + colon || length > text_.size() - colon - 1) return false;
        name = text_.substr(pos_, eq - pos_);
        value = text_.substr(colon + 1, length);
        pos_ = colon + 1 + length;
        return true;
    }

  private:
    std::string_view text_;
    std::size_t pos_ = 0;
};

std::int64_t to_int(std::string_view value) {
    std::int64_t n = 0;
    std::from_chars(value.data(), value.data() + value.size(), n);
    return n;
}

// Older versions store "none" / "unknown" / "no limit" as -1 (and any negative number means it): the rows keep
// that spelling both ways, so that an older instance reads a newer row and the other way round.
constexpr std::int64_t k_none = -1;
// own_modseqs of a datastore that was not empty when the slow sync started.
constexpr std::int64_t k_datastore_was_not_empty = -2;

std::optional<std::int64_t> to_optional_count(std::string_view value) {
    const auto n = to_int(value);
    return n < 0 ? std::nullopt : std::optional<std::int64_t>(n);
}

std::int64_t encode_own_modseqs(const store_state& s) {
    switch (s.start_contents) {
        case datastore_start::not_checked:
            return k_none;
        case datastore_start::was_not_empty:
            return k_datastore_was_not_empty;
        case datastore_start::was_empty:
            return s.own_modseqs;
    }
    return k_none;
}

// Older versions compare with -1 and -2 only; any other negative number behaved as "not empty".
void decode_own_modseqs(std::string_view value, store_state& s) {
    const auto n = to_int(value);
    s.start_contents = n == k_none ? datastore_start::not_checked
                       : n < 0     ? datastore_start::was_not_empty
                                   : datastore_start::was_empty;
    s.own_modseqs = n < 0 ? 0 : n;
}

std::string encode_change(const outgoing_change& change) {
    writer w;
    w.put("g", change.guid);
    w.put("m", change.modseq);
    w.put("d", change.deleted);
    w.put("l", change.luid);
    if (change.item_id != 0) w.put("i", change.item_id);
    if (change.msg_id != 0) w.put("msg", change.msg_id);
    if (!change.cmd_id.empty()) w.put("cmd", change.cmd_id);
    if (change.client_status != 0) w.put("st", std::int64_t{change.client_status});
    return w.take();
}

// Older versions read the object's bytes from "data" and check them against "size": they find no bytes here, and
// a "size" no object reaches makes them refuse the object (424) instead of storing a truncated one. When one of
// them wrote the state, "declared" is gone and that "size" refuses the object here too (it exceeds every limit).
constexpr std::int64_t k_size_no_object_reaches = std::numeric_limits<std::int64_t>::max();

// The SyncML command names, as older versions stored them.
std::string_view chunk_command_name(std::optional<chunk_command> command) {
    if (!command) return "";
    return *command == chunk_command::add ? "Add" : "Replace";
}

std::optional<chunk_command> parse_chunk_command(std::string_view name) {
    if (name == "Add") return chunk_command::add;
    if (name == "Replace") return chunk_command::replace;
    return std::nullopt;
}

std::string encode_partial(const incoming_chunks& partial) {
    writer w;
    w.put("cmd", chunk_command_name(partial.command));
    w.put("luid", partial.luid);
    w.put("target", partial.target);
    w.put("mime", partial.mime);
    if (!partial.format.empty()) w.put("format", partial.format);
    w.put("size", k_size_no_object_reaches);
    w.put("declared", partial.declared_size.value_or(k_none));
    w.put("received", partial.received);
    w.put("refused", std::int64_t{partial.refused});
    if (!partial.legacy_data.empty()) w.put("data", partial.legacy_data);
    return w.take();
}

// Where the store stands: its names, mode, rows and anchors.
void put_anchors(writer& w, const store_state& s) {
    w.put("server_uri", s.server_uri);
    w.put("client_uri", s.client_uri);
    w.put("kind", std::string(matching::datastore_name(s.kind)));
    w.put("mode", std::int64_t{s.mode});
    w.put("datastore", s.datastore_id);
    w.put("device_store", s.device_store_id);
    w.put("client_last", s.client_last);
    w.put("client_next", s.client_next);
    w.put("server_next", s.server_next);
}

// The commands received and sent, for the session-end log.
constexpr std::array<std::pair<std::string_view, std::int64_t command_counts::*>, 6> k_count_fields{{
    {"r_add", &command_counts::received_add},
    {"r_rep", &command_counts::received_replace},
    {"r_del", &command_counts::received_delete},
    {"s_add", &command_counts::sent_add},
    {"s_rep", &command_counts::sent_replace},
    {"s_del", &command_counts::sent_delete},
}};

void put_counts(writer& w, const command_counts& counts) {
    for (const auto& [name, field] : k_count_fields) w.put(name, counts.*field);
}

// Package 4's progress (cursor, changes in flight), the device's format, the filter and the item limit.
void put_server_progress(writer& w, const store_state& s) {
    // An older version ignores the cursor, sees no queue and, once the package ends, records "upto" as seen by the
    // device. While changes are pending it therefore reads the cursor there, so that a session whose next message
    // reaches an older instance (a rolling upgrade) leaves the rest for the device's next sync instead of losing it.
    const bool pending = s.server_sync_started && s.out.position < s.upto_modseq;
    w.put("upto", pending ? s.out.position : s.upto_modseq);
    w.put("pkg_upto", s.upto_modseq);
    w.put("device_mime", s.device_mime);
    w.put("device_version", s.device_version);
    if (!s.device_format.empty()) w.put("device_format", s.device_format);
    w.put("client_done", s.client_sync_done);
    w.put("server_started", s.server_sync_started);
    w.put("out_pos", s.out.position);
    w.put("out_guid", s.out.partial_guid);
    w.put("out_count", s.out.count);
    for (const auto& change : s.out.in_flight) w.put("flight", encode_change(change));
    for (const auto& change : s.out.removals) w.put("removal", encode_change(change));
    w.put("resumed", s.resumed);
    if (s.resend_after) w.put("resend_after", *s.resend_after);
    if (s.refresh_upto) w.put("refresh_upto", *s.refresh_upto);
    if (s.slow_sync_required) w.put("slow_required", s.slow_sync_required);
    if (s.client_refused) w.put("client_refused", s.client_refused);
    if (!s.filter.empty()) w.put("filter", s.filter);
    if (s.rescan) w.put("rescan", s.rescan);
    if (s.filtered_out > 0) w.put("filtered_out", s.filtered_out);
    if (s.too_large > 0) w.put("too_large", s.too_large);
    if (s.out.limit_room) w.put("limit_room", *s.out.limit_room);
    if (s.last_seen_modseq) w.put("seen", *s.last_seen_modseq);
    if (s.delivery_marked) w.put("delivery_marked", s.delivery_marked);
    if (s.calendar_tasks) w.put("calendar_tasks", s.calendar_tasks);
    if (s.tasks_elsewhere != 0) w.put("tasks_elsewhere", s.tasks_elsewhere);
    if (s.tasks_via_calendar) w.put("tasks_via_calendar", s.tasks_via_calendar);
}

std::string encode_store(const store_state& s) {
    writer w;
    put_anchors(w, s);
    put_server_progress(w, s);
    w.put("out_offset", s.out.offset);
    if (s.partial) w.put("partial", encode_partial(*s.partial));
    w.put("own_modseqs", encode_own_modseqs(s));
    put_counts(w, s.counts);
    return w.take();
}

bool decode_change(std::string_view text, outgoing_change& change) {
    reader r(text);
    std::string_view name, value;
    while (!r.at_end()) {
        if (!r.next(name, value)) return false;
        if (name == "g") change.guid = value;
        if (name == "m") change.modseq = to_int(value);
        if (name == "d") change.deleted = value == "1";
        if (name == "l") change.luid = value;
        if (name == "i") change.item_id = to_int(value);
        if (name == "msg") change.msg_id = to_int(value);
        if (name == "cmd") change.cmd_id = value;
        if (name == "st") change.client_status = static_cast<int>(to_int(value));
    }
    return true;
}

bool decode_partial(std::string_view text, incoming_chunks& partial) {
    reader r(text);
    std::string_view name, value;
    // "declared", when present, wins over "size" even when it says "none".
    std::optional<std::optional<std::int64_t>> declared;
    while (!r.at_end()) {
        if (!r.next(name, value)) return false;
        if (name == "cmd") partial.command = parse_chunk_command(value);
        if (name == "luid") partial.luid = value;
        if (name == "target") partial.target = value;
        if (name == "mime") partial.mime = value;
        if (name == "format") partial.format = value;
        if (name == "data") partial.legacy_data = value;
        if (name == "size") partial.declared_size = to_optional_count(value);
        if (name == "declared") declared = to_optional_count(value);
        if (name == "received") partial.received = to_int(value);
        if (name == "refused") partial.refused = static_cast<int>(to_int(value));
    }
    if (declared) partial.declared_size = *declared;
    return true;
}

const std::map<std::string_view, std::string store_state::*>& string_fields() {
    static const std::map<std::string_view, std::string store_state::*> strings = {
        {"server_uri", &store_state::server_uri},
        {"client_uri", &store_state::client_uri},
        {"client_last", &store_state::client_last},
        {"client_next", &store_state::client_next},
        {"server_next", &store_state::server_next},
        {"device_mime", &store_state::device_mime},
        {"device_version", &store_state::device_version},
        {"device_format", &store_state::device_format},
        {"filter", &store_state::filter}};
    return strings;
}

const std::map<std::string_view, std::int64_t store_state::*>& number_fields() {
    static const std::map<std::string_view, std::int64_t store_state::*> numbers = {
        {"datastore", &store_state::datastore_id},
        {"device_store", &store_state::device_store_id},
        {"upto", &store_state::upto_modseq},
        {"pkg_upto", &store_state::upto_modseq},
        {"filtered_out", &store_state::filtered_out},
        {"too_large", &store_state::too_large},
        {"tasks_elsewhere", &store_state::tasks_elsewhere}};
    return numbers;
}

// Numbers an older version writes as -1 when they are absent.
const std::map<std::string_view, std::optional<std::int64_t> store_state::*>& optional_number_fields() {
    static const std::map<std::string_view, std::optional<std::int64_t> store_state::*> numbers = {
        {"resend_after", &store_state::resend_after},
        {"refresh_upto", &store_state::refresh_upto},
        {"seen", &store_state::last_seen_modseq}};
    return numbers;
}

void decode_count(std::string_view name, std::string_view value, command_counts& counts) {
    for (const auto& [field_name, field] : k_count_fields) {
        if (name == field_name) counts.*field = to_int(value);
    }
}

bool decode_package_field(std::string_view name, std::string_view value, server_package& out) {
    if (name == "out_pos") out.position = to_int(value);
    if (name == "out_guid") out.partial_guid = value;
    if (name == "out_offset") out.offset = to_int(value);
    if (name == "out_count") out.count = to_int(value);
    if (name == "limit_room") out.limit_room = to_optional_count(value);
    if (name == "out" || name == "flight" || name == "removal") {
        outgoing_change change;
        if (!decode_change(value, change)) return false;
        (name == "out" ? out.page : name == "flight" ? out.in_flight : out.removals).push_back(std::move(change));
    }
    return true;
}

bool decode_store_field(std::string_view name, std::string_view value, store_state& s) {
    const auto& strings = string_fields();
    const auto& numbers = number_fields();
    const auto& optional_numbers = optional_number_fields();
    if (auto it = strings.find(name); it != strings.end()) s.*(it->second) = value;
    if (auto it = numbers.find(name); it != numbers.end()) s.*(it->second) = to_int(value);
    if (auto it = optional_numbers.find(name); it != optional_numbers.end()) s.*(it->second) = to_optional_count(value);
    if (name == "own_modseqs") decode_own_modseqs(value, s);
    if (name == "kind") s.kind = matching::parse_datastore_name(value).value_or(s.kind);
    if (name == "mode") s.mode = static_cast<int>(to_int(value));
    if (name == "client_done") s.client_sync_done = value == "1";
    if (name == "server_started") s.server_sync_started = value == "1";
    if (name == "resumed") s.resumed = value == "1";
    if (name == "slow_required") s.slow_sync_required = value == "1";
    if (name == "client_refused") s.client_refused = value == "1";
    if (name == "rescan") s.rescan = value == "1";
    if (name == "delivery_marked") s.delivery_marked = value == "1";
    if (name == "calendar_tasks") s.calendar_tasks = value == "1";
    if (name == "tasks_via_calendar") s.tasks_via_calendar = value == "1";
    decode_count(name, value, s.counts);
    if (!decode_package_field(name, value, s.out)) return false;
    if (name == "partial") {
        incoming_chunks partial;
        if (!decode_partial(value, partial)) return false;
        s.partial = std::move(partial);
    }
    return true;
}

// State of an older version lists every change still to send: everything before its front was taken off the
// queue, so the cursor stands just before the front (modseqs of a datastore are unique) and the page reads
// the rest again as it is now.
void cursor_from_list(store_state& s) {
    s.out.position = s.out.page.empty() ? s.upto_modseq : s.out.page.front().modseq - 1;
    if (!s.out.page.empty()) s.out.partial_guid = s.out.page.front().guid;
    s.out.count = static_cast<std::int64_t>(s.out.page.size());
    s.out.page.clear();
}

bool decode_store(std::string_view text, store_state& s) {
    reader r(text);
    std::string_view name, value;
    bool cursor = false;
    while (!r.at_end()) {
        if (!r.next(name, value) || !decode_store_field(name, value, s)) return false;
        cursor = cursor || name == "out_pos";
    }
    if (!cursor) cursor_from_list(s);
    return true;
}

}  // namespace

std::string encode_state(const session_state& state) {
    writer w;
    w.put("phase", std::int64_t{static_cast<int>(state.current)});
    w.put("auth", state.authenticated);
    w.put("user_id", state.user_id);
    w.put("user", state.user_name);
    w.put("version", state.version);
    w.put("next_msg", state.next_msg_id);
    w.put("max_msg", state.max_msg_size);
    w.put("max_obj", state.max_obj_size);
    w.put("auth_failures", state.auth_failures);
    w.put("devinf_known", state.devinf_known);
    if (!state.pending_reply.empty()) {
        w.put("pending_reply", state.pending_reply);
        w.put("pending_final", state.pending_final);
    }
    w.put("started", state.started_unix_ms);
    w.put("bytes_in", state.bytes_in);
    w.put("bytes_out", state.bytes_out);
    for (const auto& store : state.stores) w.put("store", encode_store(store));
    return w.take();
}

std::optional<session_state> decode_state(const std::string& text) {
    static const std::map<std::string_view, std::int64_t session_state::*> numbers = {
        {"user_id", &session_state::user_id},         {"next_msg", &session_state::next_msg_id},
        {"max_msg", &session_state::max_msg_size},    {"max_obj", &session_state::max_obj_size},
        {"started", &session_state::started_unix_ms}, {"bytes_in", &session_state::bytes_in},
        {"bytes_out", &session_state::bytes_out},     {"auth_failures", &session_state::auth_failures}};
    session_state state;
    reader r(text);
    std::string_view name, value;
    while (!r.at_end()) {
        if (!r.next(name, value)) return std::nullopt;
        if (auto it = numbers.find(name); it != numbers.end()) state.*(it->second) = to_int(value);
        if (name == "phase") state.current = static_cast<phase>(to_int(value));
        if (name == "auth") state.authenticated = value == "1";
        if (name == "user") state.user_name = value;
        if (name == "version") state.version = value;
        if (name == "devinf_known") state.devinf_known = value == "1";
        if (name == "pending_reply") state.pending_reply = value;
        if (name == "pending_final") state.pending_final = value == "1";
        if (name == "store") {
            store_state store;
            if (!decode_store(value, store)) return std::nullopt;
            state.stores.push_back(std::move(store));
        }
    }
    return state;
}

}  // namespace syncml::session
