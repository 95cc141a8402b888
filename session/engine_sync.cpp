// Package 3 (the client's Sync with Add/Replace/Delete, large objects) and package 5 (Map).

#include "session/engine_run.hpp"

#include "session/engine_match.hpp"
#include "session/item_convert.hpp"

namespace syncml::session::detail {
namespace {

struct item_context {
    run& r;
    store_state& s;
    const std::string& cmd_id;
    const char* cmd_name;
    std::string luid;    // Source LocURI: the client's id
    std::string target;  // Target LocURI: our id, when the client knows it
    item_applier& applier;
    std::vector<incoming_item>& batch;
};

status& item_status(item_context& c, int code) {
    auto& st = c.r.add_status(c.cmd_id, c.cmd_name, code);
    if (!c.luid.empty()) st.source_refs = {c.luid};
    if (!c.target.empty()) st.target_refs = {c.target};
    return st;
}

std::string meta_type(const item& it, const item_command& cmd, const sync& container) {
    if (it.meta && it.meta->type) return *it.meta->type;
    if (cmd.meta && cmd.meta->type) return *cmd.meta->type;
    if (container.meta && container.meta->type) return *container.meta->type;
    return {};
}

// Queues the item; its Status is answered (in command order) when the batch is applied.
void queue_item(item_context& c, const std::string& data, const std::string& mime) {
    bool as_add = std::string_view(c.cmd_name) == "Add";
    (as_add ? c.s.received_add : c.s.received_replace) += 1;
    item_status(c, 500);  // the outcome replaces it when the batch is applied
    incoming_item in{c.r.statuses.size() - 1, as_add, c.luid, c.target, mime, to_canonical(data, mime, "", c.s.kind)};
    c.batch.push_back(std::move(in));
}

void delete_item(item_context& c) {
    // Keeps the order of the client's commands: a Delete after an Add of the same message sees the Add.
    c.applier.apply(c.batch);
    item_status(c, c.applier.remove(c.luid, c.target));
}

std::int64_t declared_size(const item& it, const item_command& cmd) {
    if (it.meta && it.meta->size) return static_cast<std::int64_t>(*it.meta->size);
    if (cmd.meta && cmd.meta->size) return static_cast<std::int64_t>(*cmd.meta->size);
    return -1;
}

// Collects MoreData chunks; returns the whole object once its last chunk arrived.
std::optional<std::string> assemble(item_context& c, const item& it, const item_command& cmd, const std::string& mime) {
    const std::string& data = it.data ? it.data->bytes : std::string();
    auto& partial = c.s.partial;
    if (partial && partial->luid != c.luid) partial.reset();  // a new item: the old one was abandoned
    if (!partial && !it.more_data) return data;
    if (!partial) partial = incoming_chunks{c.cmd_name, c.luid, c.target, mime, {}, declared_size(it, cmd)};
    partial->data += data;
    if (c.r.st.max_obj_size > 0 && static_cast<std::int64_t>(partial->data.size()) > c.r.st.max_obj_size * 2) {
        partial.reset();
        item_status(c, 413);
        return std::nullopt;
    }
    if (it.more_data) {
        item_status(c, 213);
        return std::nullopt;
    }
    auto whole = std::move(partial->data);
    auto size = partial->declared_size;
    partial.reset();
    if (size >= 0 && static_cast<std::int64_t>(whole.size()) != size) {
        item_status(c, 424);
        return std::nullopt;
    }
    return whole;
}

// The items of one Sync command, applied together so that a slow sync looks up twins once per message.
struct sync_items {
    item_applier applier;
    std::vector<incoming_item> batch;
};

void handle_item(run& r, store_state& s, sync_items& items, const sync& container, const item_command& cmd,
                 const char* name, const item& it) {
    item_context c{r,
                   s,
                   cmd.cmd_id,
                   name,
                   it.source ? it.source->loc_uri : "",
                   it.target ? it.target->loc_uri : "",
                   items.applier,
                   items.batch};
    if (s.mode == 204 || s.mode == 205) {
        item_status(c, 403);  // the client agreed to receive only
        return;
    }
    if (std::string_view(name) == "Delete") {
        delete_item(c);
        return;
    }
    auto mime = meta_type(it, cmd, container);
    if (!mime.empty()) s.device_mime = mime;
    auto data = assemble(c, it, cmd, mime);
    if (data) queue_item(c, *data, mime.empty() && s.partial ? s.partial->mime : mime);
}

template <class Cmd>
void handle_items(run& r, store_state& s, sync_items& items, const sync& container, const Cmd& cmd, const char* name) {
    if (cmd.items.empty()) r.add_status(cmd.cmd_id, name, 412);
    for (const auto& it : cmd.items) handle_item(r, s, items, container, cmd, name, it);
}

}  // namespace

void handle_sync(run& r, const sync& cmd) {
    std::string target = cmd.target ? cmd.target->loc_uri : "";
    std::string source = cmd.source ? cmd.source->loc_uri : "";
    auto* s = find_store(r.st, target);
    auto& st = r.add_status(cmd.cmd_id, "Sync", s ? 200 : 404);
    st.target_refs = {target};
    st.source_refs = {source};
    if (!s) {
        for (const auto& inner : cmd.commands) r.add_status("", command_name(inner), 404);
        return;
    }
    sync_items items{item_applier(r, *s), {}};
    for (const auto& inner : cmd.commands) {
        if (auto* a = std::get_if<add>(&inner.value)) {
            handle_items(r, *s, items, cmd, *a, "Add");
        } else if (auto* p = std::get_if<replace>(&inner.value)) {
            handle_items(r, *s, items, cmd, *p, "Replace");
        } else if (auto* d = std::get_if<delete_>(&inner.value)) {
            handle_items(r, *s, items, cmd, *d, "Delete");
        } else {
            r.add_status("", command_name(inner), 406);
        }
    }
    items.applier.apply(items.batch);
    s->client_sync_done = true;
}

void handle_map(run& r, const map& cmd) {
    auto* s = find_store(r.st, cmd.target.loc_uri);
    auto& st = r.add_status(cmd.cmd_id, "Map", s ? 200 : 404);
    st.target_refs = {cmd.target.loc_uri};
    st.source_refs = {cmd.source.loc_uri};
    if (!s) return;
    // One batch for the whole Map: each item the device now holds at its current modseq, if it still exists.
    std::vector<persistence::item_write> writes;
    for (const auto& mi : cmd.items) {
        if (mi.target.empty()) continue;  // names no item of ours
        persistence::item_write w;
        w.guid = mi.target;
        w.luid = mi.source;
        w.at_current = true;
        writes.push_back(std::move(w));
    }
    if (!writes.empty()) r.store.write_items(r.tenant(), s->datastore_id, s->device_store_id, writes);
}

void handle_status(run& r, const status& s) {
    // Statuses answer our own commands; a failed Add simply stays unmapped and the item is offered
    // again in the next slow sync. Nothing to apply here yet.
    (void)r;
    (void)s;
}

void finish_client_changes(run& r) {
    for (auto& s : r.st.stores) {
        if (s.mode != 203) continue;
        // Refresh from client: what the client did not send no longer exists.
        r.store.delete_unheld_items(r.tenant(), s.datastore_id, s.device_store_id);
    }
}

}  // namespace syncml::session::detail
