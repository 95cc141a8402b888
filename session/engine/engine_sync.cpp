// Package 3 (the client's Sync with Add/Replace/Delete, large objects); package 5 (Map) is in engine_map.cpp.

#include "session/engine/engine_run.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>
#include <type_traits>

#include "common/log/log_event.hpp"
#include "matching/convert/item_convert.hpp"
#include "session/engine/calendar_tasks.hpp"
#include "session/engine/engine_filter.hpp"
#include "session/engine/engine_match.hpp"
#include "session/engine/engine_metrics.hpp"
#include "session/engine/engine_quota.hpp"
#include "session/engine/item_encoding.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session::detail {
namespace {

// The items of one Sync for one store, applied together so that a slow sync looks up twins once per message.
struct sync_items {
    item_applier applier;
    std::vector<incoming_item> batch;
};

// Where the items of one Sync go: its store and, for a calendar that holds tasks, the task side (calendar_tasks.hpp),
// opened at the first VTODO of a calendar not known to hold tasks.
class sync_destinations {
  public:
    sync_destinations(run& r, store_state& s) : r_(r), calendar_(s), items_{item_applier(r, s), {}} {
        if (auto* tasks = calendar_tasks_of(r.st, s)) tasks_.emplace(sync_items{item_applier(r, *tasks), {}});
    }

    sync_items& calendar() { return items_; }
    // The task side's items; opened here when the calendar had none (r.st.stores has room for it: handle_sync).
    sync_items& tasks() {
        if (!tasks_) tasks_.emplace(sync_items{item_applier(r_, open_calendar_tasks(r_, calendar_)), {}});
        return *tasks_;
    }
    // The side whose store holds the device's item `luid` (the calendar's when neither does).
    sync_items& holding(const std::string& luid) {
        if (tasks_ && !luid.empty()) {
            auto* t = calendar_tasks_of(r_.st, calendar_);
            if (t && r_.store.mapping_of_luid(r_.tenant(), t->device_store_id, luid)) return *tasks_;
        }
        return items_;
    }
    // Every queued item, before a command that reads what they wrote.
    void apply() {
        items_.applier.apply(items_.batch);
        if (tasks_) tasks_->applier.apply(tasks_->batch);
    }
    void done() {
        apply();
        calendar_.client_sync_done = true;
        if (auto* t = calendar_tasks_of(r_.st, calendar_)) t->client_sync_done = true;
    }

  private:
    run& r_;
    store_state& calendar_;
    sync_items items_;
    std::optional<sync_items> tasks_;
};

struct item_context {
    run& r;
    store_state& s;
    const std::string& cmd_id;
    const char* cmd_name;
    std::string luid;    // Source LocURI: the client's id
    std::string target;  // Target LocURI: our id, when the client knows it
    sync_destinations& to;
};

bool is_add(const item_context& c) { return std::string_view(c.cmd_name) == "Add"; }

status& item_status(item_context& c, int code) {
    auto& st = c.r.add_status(c.cmd_id, c.cmd_name, code);
    if (!c.luid.empty()) st.source_refs = {c.luid};
    if (!c.target.empty()) st.target_refs = {c.target};
    return st;
}

// A Meta field (Type, Format) as the item, its command or the Sync states it, the nearest first.
std::string meta_field(const item& it, const item_command& cmd, const sync& container,
                       std::optional<std::string> meta_info::*field) {
    for (const auto* meta : {&it.meta, &cmd.meta, &container.meta}) {
        if (*meta && (**meta).*field) return *((**meta).*field);
    }
    return {};
}

// An item no codec could store for other devices: answered 415 (unsupported media type or format), logged.
void refuse_format(item_context& c, std::string_view why) {
    common::log_event(spdlog::level::info, "sync: item refused",
                      {{"user", c.r.st.user_name},
                       {"device", c.r.in.header.source.loc_uri},
                       {"datastore", c.s.server_uri},
                       {"luid", c.luid},
                       {"reason", why}});
    item_status(c, status_codes::unsupported_media_type);
}

// Queues the item; its Status is answered (in command order) when the batch is applied. A VTODO that arrives in a
// calendar goes to the task side (calendar_tasks.hpp).
void queue_item(item_context& c, const std::string& data, const std::string& mime) {
    bool as_add = is_add(c);
    auto content = matching::canonical_content(data, mime, "", c.s.kind);
    const bool task =
        c.s.kind == matching::item_kind::event && content && calendar_component(*content) == matching::item_kind::task;
    auto& items = task ? c.to.tasks() : c.to.calendar();
    auto& counts = task ? calendar_tasks_of(c.r.st, c.s)->counts : c.s.counts;
    (as_add ? counts.received_add : counts.received_replace) += 1;
    if (!content) return refuse_format(c, content.error().to_string());
    item_status(c, status_codes::command_failed);  // the outcome replaces it when the batch is applied
    incoming_item in{c.r.statuses.size() - 1, as_add, c.luid, c.target, mime, std::move(*content)};
    items.batch.push_back(std::move(in));
}

// How the client deletes: OMA DS 1.2 (DataSyncRep, Delete) lets it flag a Delete SftDel, a soft delete: the item
// left the device (typically evicted for lack of memory) but was not deleted by the user, so it must stay on the
// server and on every other device. Archive asks the recipient to archive its copy before deleting it: the item
// is deleted everywhere (the user deleted it) and, as this server keeps no archive, it answers 210 (Delete
// without archive), the status the specification defines for a recipient that does not support archiving.
enum class delete_kind { hard, soft, archive };

delete_kind kind_of(const delete_& cmd) {
    if (cmd.sft_del) return delete_kind::soft;
    return cmd.archive ? delete_kind::archive : delete_kind::hard;
}

// A soft delete only forgets that this device holds the item: its mapping goes, the item stays. Without a mapping
// and with the device's last seen modseq past the item, a two-way sync does not send it back; the next slow sync,
// or a later change of the item on another device, offers it again as an Add (the device asks for everything, or
// there is a new version to hold).
int soft_delete(item_context& c, const store_state& s) {
    auto mapping = c.luid.empty() ? std::nullopt : c.r.store.mapping_of_luid(c.r.tenant(), s.device_store_id, c.luid);
    std::string guid = mapping ? mapping->guid : c.target;
    if (guid.empty() || !c.r.store.find_item(c.r.tenant(), s.datastore_id, guid)) return status_codes::item_not_deleted;
    c.r.store.remove_mapping(c.r.tenant(), s.device_store_id, guid);
    return status_codes::ok;
}

void delete_item(item_context& c, delete_kind kind) {
    // Keeps the order of the client's commands: a Delete after an Add of the same message sees the Add.
    c.to.apply();
    auto& items = c.to.holding(c.luid);
    auto& s = &items == &c.to.calendar() ? c.s : *calendar_tasks_of(c.r.st, c.s);
    if (kind == delete_kind::soft) {
        item_status(c, soft_delete(c, s));
        return;
    }
    int code = items.applier.remove(c.luid, c.target);
    if (code == status_codes::ok || code == status_codes::conflict_client_won) give_back_item_slot(s);
    if (code == status_codes::ok && kind == delete_kind::archive) code = status_codes::delete_without_archive;
    item_status(c, code);
}

// Size as the client declared it, as sent (the codec keeps only numbers that fit 64 bits unsigned).
std::optional<std::uint64_t> declared_size(const item& it, const item_command& cmd) {
    if (it.meta && it.meta->size) return it.meta->size;
    if (cmd.meta && cmd.meta->size) return cmd.meta->size;
    return std::nullopt;
}

// The largest object we accept: the server's and the tenant's limit (engine_context::max_obj_size), never the
// client's MaxObjSize, which says what the client can receive.
std::uint64_t object_limit(const item_context& c) {
    return static_cast<std::uint64_t>(std::max<std::int64_t>(c.r.ctx.max_obj_size, 0));
}

// An item whose last chunk arrived, with the content type and format its first chunk declared when the last one has
// none.
struct whole_item {
    std::string data;
    std::string mime;
    std::string format;
};

void drop_partial(item_context& c) {
    auto& partial = c.s.partial;
    if (partial && partial->received > 0) c.r.store.drop_chunks(c.r.tenant(), c.s.device_store_id);
    partial.reset();
}

// Refuses the item with `code`; a chunked one stays refused until its last chunk, with nothing of it stored.
std::nullopt_t refuse(item_context& c, int code, bool more_data) {
    drop_partial(c);
    if (more_data) {
        c.s.partial.emplace();
        c.s.partial->luid = c.luid;
        c.s.partial->refused = code;
    }
    if (code == status_codes::object_too_large && c.r.ctx.metrics) {
        c.r.ctx.metrics->limit_refused(engine_metrics::limit::object_bytes);
    }
    item_status(c, code);
    return std::nullopt;
}

// The first chunk (or the whole item): refused at once when it declares more than we accept.
std::optional<whole_item> start_item(item_context& c, const item& it, const item_command& cmd, const whole_item& meta,
                                     const std::string& data) {
    auto size = declared_size(it, cmd);
    if ((size && *size > object_limit(c)) || data.size() > object_limit(c))
        return refuse(c, status_codes::object_too_large, it.more_data);
    if (!it.more_data) return whole_item{data, meta.mime, meta.format};
    auto& p = c.s.partial.emplace();
    p.command = is_add(c) ? chunk_command::add : chunk_command::replace;
    p.luid = c.luid;
    p.target = c.target;
    p.mime = meta.mime;
    p.format = meta.format;
    if (size) p.declared_size = static_cast<std::int64_t>(*size);  // at most object_limit(c)
    return std::nullopt;
}

// Bytes an older version kept in the state go to the chunk store, from offset 0 on.
void store_legacy_data(item_context& c, incoming_chunks& p) {
    if (p.legacy_data.empty()) return;
    c.r.store.append_chunk(c.r.tenant(), c.s.device_store_id, 0, p.legacy_data);
    p.received = static_cast<std::int64_t>(p.legacy_data.size());
    p.legacy_data.clear();
}

// The last chunk (`data`, `received` bytes in all) completes the object without a trip through the store.
std::optional<whole_item> last_chunk(item_context& c, const std::string& data, std::uint64_t received,
                                     const whole_item& meta) {
    auto& partial = c.s.partial;
    auto& p = *partial;
    auto stored = p.received == 0 ? std::optional<std::string>(std::string())
                                  : c.r.store.take_chunks(c.r.tenant(), c.s.device_store_id, p.received);
    if (!stored || (p.declared_size && received != static_cast<std::uint64_t>(*p.declared_size))) {
        partial.reset();
        item_status(c, status_codes::size_mismatch);
        return std::nullopt;
    }
    whole_item whole{std::move(*stored) + data, meta.mime.empty() ? p.mime : meta.mime,
                     meta.format.empty() ? p.format : meta.format};
    partial.reset();
    return whole;
}

// Collects MoreData chunks in the store; returns the whole object once its last chunk arrived.
// `meta`: the Type and Format of this chunk, without data.
std::optional<whole_item> assemble(item_context& c, const item& it, const item_command& cmd, const whole_item& meta) {
    static const std::string no_data;
    const std::string& data = it.data ? it.data->bytes : no_data;
    auto& partial = c.s.partial;
    if (partial && partial->luid != c.luid) drop_partial(c);  // a new item: the old one was abandoned
    if (partial && partial->refused != 0) {
        int code = partial->refused;
        if (!it.more_data) partial.reset();
        item_status(c, code);
        return std::nullopt;
    }
    if (!partial) {
        auto whole = start_item(c, it, cmd, meta, data);
        if (!partial || partial->refused != 0) return whole;  // a whole item, or refused at once
    }
    auto& p = *partial;
    store_legacy_data(c, p);
    const auto received = static_cast<std::uint64_t>(p.received) + data.size();
    if (received > object_limit(c)) return refuse(c, status_codes::object_too_large, it.more_data);
    if (p.declared_size && received > static_cast<std::uint64_t>(*p.declared_size)) {
        return refuse(c, status_codes::size_mismatch, it.more_data);
    }
    if (it.more_data) {
        c.r.store.append_chunk(c.r.tenant(), c.s.device_store_id, p.received, data);
        p.received = static_cast<std::int64_t>(received);
        item_status(c, status_codes::chunk_accepted);
        return std::nullopt;
    }
    return last_chunk(c, data, received, meta);
}

void handle_item(run& r, store_state& s, sync_destinations& to, const sync& container, const item_command& cmd,
                 const char* name, const item& it, delete_kind deletion) {
    item_context c{r, s, cmd.cmd_id, name, it.source ? it.source->loc_uri : "", it.target ? it.target->loc_uri : "",
                   to};
    if (!sync_mode::granted(s.mode).client_sends()) {
        item_status(c, status_codes::forbidden);  // the client agreed to receive only
        return;
    }
    if (std::string_view(name) == "Delete") {
        delete_item(c, deletion);
        return;
    }
    whole_item meta{
        {}, meta_field(it, cmd, container, &meta_info::type), meta_field(it, cmd, container, &meta_info::format)};
    if (!meta.mime.empty()) s.device_mime = meta.mime;
    auto whole = assemble(c, it, cmd, meta);
    if (!whole) return;
    auto bytes = decoded_item_data(std::move(whole->data), whole->format);
    if (!bytes) return refuse_format(c, undecodable_reason(whole->format));
    // Of the whole item, once it decoded: a later chunk that repeats the Type without the Format is no plain item, and
    // an encoding we cannot undo is none to answer in.
    note_device_format(s, whole->mime, whole->format);
    queue_item(c, *bytes, whole->mime);
}

template <class Cmd>
void handle_items(run& r, store_state& s, sync_destinations& to, const sync& container, const Cmd& cmd,
                  const char* name) {
    if (cmd.items.empty()) r.add_status(cmd.cmd_id, name, status_codes::incomplete_command);
    delete_kind deletion = delete_kind::hard;
    if constexpr (std::is_same_v<Cmd, delete_>) deletion = kind_of(cmd);
    for (const auto& it : cmd.items) handle_item(r, s, to, container, cmd, name, it, deletion);
}

// NoResp: the client wants no Status for the command. Its Status is made like any other (an item's outcome is set
// once its batch is applied) and dropped here, once the Sync is done; `first`: the Sync's own Status.
void drop_unwanted_statuses(run& r, const sync& cmd, std::size_t first) {
    std::set<std::string> unwanted;
    if (cmd.no_resp) unwanted.insert(cmd.cmd_id);
    for (const auto& inner : cmd.commands) {
        if (no_response(inner)) unwanted.insert(command_id(inner));
    }
    if (unwanted.empty()) return;
    auto from = r.statuses.begin() + static_cast<std::ptrdiff_t>(first);
    r.statuses.erase(std::remove_if(from, r.statuses.end(), [&](const status& s) { return unwanted.count(s.cmd_ref); }),
                     r.statuses.end());
}

// One command of a Sync. A Sequence's commands are carried out in order, as the Sync's are anyway; an Atomic is not
// supported (all or nothing would need a transaction of its own): it and each command in it get 406, so that the client
// knows none was carried out.
void handle_sync_command(run& r, store_state& s, sync_destinations& to, const sync& cmd, const command& inner) {
    if (auto* a = std::get_if<add>(&inner.value)) {
        handle_items(r, s, to, cmd, *a, "Add");
    } else if (auto* p = std::get_if<replace>(&inner.value)) {
        handle_items(r, s, to, cmd, *p, "Replace");
    } else if (auto* d = std::get_if<delete_>(&inner.value)) {
        handle_items(r, s, to, cmd, *d, "Delete");
    } else if (auto* q = std::get_if<sequence>(&inner.value)) {
        if (!q->no_resp) r.add_status(q->cmd_id, "Sequence", status_codes::ok);
        for (const auto& next : q->commands) handle_sync_command(r, s, to, cmd, next);
    } else {
        refuse_with_everything_inside(r, inner, status_codes::optional_feature_not_supported);
    }
}

void handle_sync_commands(run& r, const sync& cmd) {
    std::string target = cmd.target ? cmd.target->loc_uri : "";
    std::string source = cmd.source ? cmd.source->loc_uri : "";
    // Room for the task side a VTODO may open (sync_destinations::tasks): the references into the stores stay valid.
    r.st.stores.reserve(r.st.stores.size() + 1);
    auto* s = find_store(r.st, target);
    auto& st = r.add_status(cmd.cmd_id, "Sync", s ? status_codes::ok : status_codes::not_found);
    st.target_refs = {target};
    st.source_refs = {source};
    if (!s) {
        for (const auto& inner : cmd.commands)
            r.add_status(command_id(inner), command_name(inner), status_codes::not_found);
        return;
    }
    sync_destinations to(r, *s);
    for (const auto& inner : cmd.commands) handle_sync_command(r, *s, to, cmd, inner);
    to.done();
}

}  // namespace

void handle_sync(run& r, const sync& cmd) {
    const auto first = r.statuses.size();
    handle_sync_commands(r, cmd);
    drop_unwanted_statuses(r, cmd, first);
}

void finish_client_changes(run& r) {
    for (auto& s : r.st.stores) {
        if (sync_mode::granted(s.mode) != sync_modes::refresh_from_client) continue;
        // Refresh from client: what the client did not send no longer exists, of what its filter let it see and the
        // server held when the refresh began (a state of an older version has no bound: all up to now).
        const auto upto = s.refresh_upto.value_or(r.store.current_modseq(r.tenant(), s.datastore_id));
        if (s.filter.empty()) {
            r.store.delete_unheld_items(r.tenant(), s.datastore_id, s.device_store_id, upto);
        } else {
            delete_unheld_inside(r, s, upto);
        }
    }
}

}  // namespace syncml::session::detail
