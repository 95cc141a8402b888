#pragma once
// In-memory sync_store for the engine's unit tests: the same contract as the PostgreSQL store
// (persistence/sync/sync_store.cpp), with modseqs per datastore and mappings per device store.

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "persistence/sync/sync_store.hpp"

namespace syncml::session::testing {

class fake_sync_store final : public persistence::sync_store {
  public:
    struct stored_item {
        std::string guid;
        std::int64_t datastore = 0;
        std::string content;
        std::vector<std::string> keys;
        std::int64_t modseq = 0;
        bool deleted = false;
    };
    struct mapping {
        std::string luid;
        std::int64_t modseq = 0;  // the revision: what the device last sent or received (-1: unconfirmed)
        // What it last sent or was mapped at (set_mapping), which touch_mapping leaves; kept by unconfirm_mappings as
        // the twin_candidate's sent_by_device.
        std::int64_t received = 0;
    };

    std::map<std::string, persistence::device_record> devices;  // by user:uri
    std::map<std::int64_t, persistence::session_record> sessions;
    std::map<std::pair<std::int64_t, persistence::item_kind>, std::int64_t> datastores;  // (user, kind) -> id
    std::map<std::int64_t, std::int64_t> modseqs;                                        // datastore -> counter
    std::map<std::int64_t, persistence::device_store_record> device_stores;
    std::map<std::string, std::int64_t> device_store_ids;  // device:datastore:uri
    std::vector<stored_item> items;
    std::map<std::int64_t, std::map<std::string, mapping>> mappings;       // device store -> guid -> mapping
    std::map<std::int64_t, std::map<std::string, std::string>> short_ids;  // device store -> guid -> short id
    bool uuid_guids = false;  // new items get GUIDs of 36 bytes, as PostgreSQL gives them, instead of "guid-N"
    std::int64_t next_id = 1;
    std::string policy = "merge";  // the tenant's conflict policy
    int candidate_queries = 0;     // twin_candidates calls, to check one lookup per message
    int server_changes_queries = 0;
    int outgoing_reads = 0;    // outgoing_items calls, to check one read per package-4 message
    int change_pages = 0;      // change_page calls: package 4 reads its queue a page at a time after the first message
    int live_item_counts = 0;  // live_items calls: a quota check counts only near the limit
    int stored_bytes_reads = 0;  // user_stored_bytes calls: a byte quota reads once per message at most
    std::map<std::int64_t, std::map<std::int64_t, std::string>> chunks;  // device store -> offset -> large object chunk
    std::int64_t chunk_bytes_written = 0;
    // The sync window in effect per device LocURI, as the database resolves the device's own and its tenant's.
    std::map<std::string, persistence::sync_window> windows;
    // The collections a user made beside the defaults (issue 38): (user, name) -> the datastore, its kind and
    // whether it takes other kinds too; and the collection an operator chose for a device's datastore of a kind.
    struct collection_row {
        std::int64_t datastore = 0;
        persistence::item_kind kind = persistence::item_kind::event;
        std::vector<persistence::item_kind> kinds;  // what it takes (the kind alone when empty)
    };
    std::map<std::pair<std::int64_t, std::string>, collection_row> collections;
    std::map<std::pair<std::int64_t, persistence::item_kind>, std::int64_t> chosen;  // (device, kind) -> datastore

    // For tests: a collection of `user` named `name` taking `kinds`, the first its kind.
    std::int64_t add_collection(std::int64_t user, const std::string& name, std::vector<persistence::item_kind> kinds) {
        datastore(0, user, kinds.front());  // the default comes first, as in PostgreSQL
        auto id = next_id++;
        collections[{user, name}] = {id, kinds.front(), std::move(kinds)};
        return id;
    }

    persistence::sync_window window_of(std::int64_t device) const {
        for (const auto& [key, d] : devices) {
            if (d.id != device) continue;
            auto found = windows.find(key.substr(key.find(':') + 1));
            if (found != windows.end()) return found->second;
        }
        return {};
    }

    std::vector<const stored_item*> live_items(std::int64_t datastore) const {
        std::vector<const stored_item*> out;
        for (const auto& it : items) {
            if (it.datastore == datastore && !it.deleted) out.push_back(&it);
        }
        return out;
    }

    persistence::device_record device(std::int64_t, std::int64_t user, const std::string& uri) override {
        auto key = std::to_string(user) + ":" + uri;
        auto [it, inserted] = devices.try_emplace(key);
        if (inserted) it->second.id = next_id++;
        return it->second;
    }
    void set_device_nonce(std::int64_t, std::int64_t device, const std::string& nonce) override {
        for (auto& [key, d] : devices) {
            if (d.id == device) d.nonce = nonce;
        }
    }
    void set_device_devinf(std::int64_t, std::int64_t device, const std::string& devinf) override {
        for (auto& [key, d] : devices) {
            if (d.id == device) d.devinf = devinf;
        }
    }

    std::optional<persistence::session_record> lock_session(std::int64_t, const std::string& uri,
                                                            const std::string& sid) override {
        for (auto& [id, s] : sessions) {
            if (s.device_uri == uri && s.session_id == sid) return s;
        }
        return std::nullopt;
    }
    std::optional<persistence::session_record> lock_session_by_key(std::int64_t, std::int64_t key) override {
        auto it = sessions.find(key);
        if (it == sessions.end()) return std::nullopt;
        return it->second;
    }
    std::int64_t create_session(std::int64_t, const std::string& uri, const std::string& sid) override {
        auto id = next_id++;
        auto& s = sessions[id];
        s = persistence::session_record{};
        s.id = id;
        s.session_id = sid;
        s.device_uri = uri;
        return id;
    }
    void save_session(std::int64_t, const persistence::session_record& s) override { sessions[s.id] = s; }
    // Which session a message may continue is PostgreSQL's alone (migrations/0027): engine tests run no admission.
    std::optional<persistence::session_record> open_message_session(std::int64_t,
                                                                    const persistence::message_session&) override {
        throw std::logic_error("fake_sync_store: open_message_session needs PostgreSQL");
    }

    // syncml_open_collection_store without deleted collections: the collection the URI names, else the one chosen
    // for the device, else the default.
    persistence::device_store_record open_device_store(std::int64_t tenant,
                                                       const persistence::store_opening& o) override {
        std::int64_t id = 0;
        bool other_kinds = false;
        const auto kind_name = std::string(common::datastore_name(o.kind));
        if (!o.collection.empty() && o.collection != kind_name) {
            auto found = collections.find({o.user, o.collection});
            if (found == collections.end()) return {};
            const auto& kinds = found->second.kinds;
            if (std::find(kinds.begin(), kinds.end(), o.kind) == kinds.end()) return {};
            id = found->second.datastore;
            other_kinds = kinds.size() > 1;
        } else if (o.collection.empty()) {
            if (auto found = chosen.find({o.device, o.kind}); found != chosen.end()) id = found->second;
            for (const auto& [key, row] : collections) {
                if (row.datastore == id) other_kinds = row.kinds.size() > 1;
            }
        }
        if (id == 0) id = datastore(tenant, o.user, o.kind);
        auto ds = device_store(tenant, o.device, id, o.remote_uri);
        ds.other_kinds = other_kinds;
        if (!o.session_id.empty())
            set_resume_pointer(tenant, o.device_uri, o.resume_prefix + std::to_string(ds.id), o.session_id);
        return ds;
    }
    std::int64_t datastore(std::int64_t, std::int64_t user, persistence::item_kind kind) override {
        auto [it, inserted] = datastores.try_emplace({user, kind});
        if (inserted) it->second = next_id++;
        return it->second;
    }
    persistence::device_store_record device_store(std::int64_t, std::int64_t device, std::int64_t datastore,
                                                  const std::string& uri) override {
        auto key = std::to_string(device) + ":" + std::to_string(datastore) + ":" + uri;
        auto [it, inserted] = device_store_ids.try_emplace(key);
        if (inserted) {
            it->second = next_id++;
            device_stores[it->second] =
                persistence::device_store_record{it->second, datastore, {}, {}, 0, true, {}, {}};
        }
        auto ds = device_stores[it->second];
        ds.window = window_of(device);
        return ds;
    }
    void save_device_store(std::int64_t, const persistence::device_store_record& ds) override {
        auto& row = device_stores[ds.id];
        auto previous_anchor = row.client_anchor;
        auto previous_seen = row.last_seen_modseq;
        auto format = std::make_pair(row.content_type, row.content_version);
        row = ds;
        row.previous_client_anchor = previous_anchor;
        row.previous_seen_modseq = previous_seen;
        if (ds.content_type.empty()) std::tie(row.content_type, row.content_version) = format;
    }
    std::vector<persistence::device_store_view> device_store_views(std::int64_t, std::int64_t device) override {
        std::vector<persistence::device_store_view> out;
        for (const auto& [key, id] : device_store_ids) {
            const auto first = key.find(':'), second = key.find(':', first + 1);
            if (key.substr(0, first) != std::to_string(device)) continue;
            const auto& row = device_stores.at(id);
            persistence::device_store_view view{id,
                                                row.datastore_id,
                                                persistence::item_kind::contact,
                                                key.substr(second + 1),
                                                row.content_type,
                                                row.content_version};
            for (const auto& [owner_kind, datastore] : datastores) {
                if (datastore == row.datastore_id) view.kind = owner_kind.second;
            }
            for (const auto& [user_name, collection] : collections) {
                if (collection.datastore == row.datastore_id) view.kind = collection.kind;
            }
            out.push_back(std::move(view));
        }
        std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        return out;
    }
    void require_slow_sync(std::int64_t, std::int64_t device_store) override {
        device_stores.at(device_store).needs_slow_sync = true;
    }

    persistence::item_record add_item(std::int64_t, std::int64_t ds, const std::string& content,
                                      const std::vector<std::string>& keys) override {
        stored_item it{new_guid(), ds, content, keys, ++modseqs[ds], false};
        items.push_back(it);
        return {it.guid, it.content, it.modseq, false};
    }
    std::optional<persistence::item_record> replace_item(std::int64_t, std::int64_t ds, const std::string& guid,
                                                         const std::string& content,
                                                         const std::vector<std::string>& keys) override {
        auto* it = find(ds, guid);
        if (!it || it->deleted) return std::nullopt;
        it->content = content;
        it->keys = keys;
        it->modseq = ++modseqs[ds];
        return persistence::item_record{guid, content, it->modseq, false};
    }
    std::optional<persistence::item_record> delete_item(std::int64_t, std::int64_t ds,
                                                        const std::string& guid) override {
        auto* it = find(ds, guid);
        if (!it || it->deleted) return std::nullopt;
        it->deleted = true;
        it->keys.clear();
        it->modseq = ++modseqs[ds];
        return persistence::item_record{guid, it->content, it->modseq, true};
    }
    std::optional<persistence::item_record> find_item(std::int64_t, std::int64_t ds, const std::string& guid) override {
        auto* it = find(ds, guid);
        if (!it) return std::nullopt;
        return persistence::item_record{it->guid, it->content, it->modseq, it->deleted};
    }
    std::vector<persistence::twin_candidate> twin_candidates(std::int64_t, std::int64_t ds, std::int64_t device_store,
                                                             const std::vector<std::string>& keys) override {
        ++candidate_queries;
        std::vector<persistence::twin_candidate> out;
        std::map<std::string, int> per_key;
        for (const auto& it : items) {
            if (it.datastore != ds || it.deleted) continue;
            auto& m = mappings[device_store];
            auto found = m.find(it.guid);
            if (found != m.end() && found->second.modseq >= 0) continue;
            persistence::twin_candidate c{it.guid,
                                          it.content,
                                          it.modseq,
                                          {},
                                          0,
                                          found != m.end(),
                                          found != m.end() ? found->second.received : -1};
            for (const auto& k : it.keys) {
                if (std::find(keys.begin(), keys.end(), k) == keys.end()) continue;
                if (++per_key[k] <= persistence::k_candidates_per_key) c.keys.push_back(k);
            }
            if (!c.keys.empty()) out.push_back(std::move(c));
        }
        return out;
    }
    std::int64_t current_modseq(std::int64_t, std::int64_t ds) override { return modseqs[ds]; }
    std::vector<persistence::change_record> changes(std::int64_t, std::int64_t device_store, std::int64_t after,
                                                    std::int64_t upto, bool include_deleted) override {
        auto ds = device_stores.at(device_store).datastore_id;
        std::vector<const stored_item*> picked;
        for (const auto& it : items) {
            if (it.datastore != ds || it.modseq <= after || it.modseq > upto) continue;
            if (it.deleted && !include_deleted) continue;
            auto& m = mappings[device_store];
            auto found = m.find(it.guid);
            if (found != m.end() && found->second.modseq >= it.modseq) continue;
            picked.push_back(&it);
        }
        std::sort(picked.begin(), picked.end(), [](auto* a, auto* b) { return a->modseq < b->modseq; });
        std::vector<persistence::change_record> out;
        for (const auto* it : picked) {
            persistence::change_record c{it->guid, it->modseq, it->deleted, std::nullopt};
            auto& m = mappings[device_store];
            auto found = m.find(it->guid);
            c.mapped = found != m.end();
            if (c.mapped && found->second.modseq >= 0) c.luid = found->second.luid;
            out.push_back(std::move(c));
        }
        return out;
    }
    std::vector<persistence::change_record> held_items(std::int64_t, std::int64_t device_store) override {
        std::vector<const stored_item*> held;
        const auto& m = mappings[device_store];
        for (const auto& it : items) {
            auto found = m.find(it.guid);
            if (!it.deleted && found != m.end() && found->second.modseq >= 0) held.push_back(&it);
        }
        std::sort(held.begin(), held.end(), [](auto* a, auto* b) { return a->modseq < b->modseq; });
        std::vector<persistence::change_record> out;
        for (const auto* it : held) out.push_back({it->guid, it->modseq, false, m.at(it->guid).luid});
        return out;
    }
    persistence::server_changes_record server_changes(std::int64_t tenant, std::int64_t ds, std::int64_t device_store,
                                                      bool wanted, bool from_start, bool include_deleted) override {
        ++server_changes_queries;
        persistence::server_changes_record out{modseqs[ds], device_stores.at(device_store).last_seen_modseq, {}};
        auto after = from_start ? 0 : out.last_seen_modseq;
        if (wanted) out.changes = changes(tenant, device_store, after, out.current_modseq, include_deleted);
        return out;
    }
    std::vector<persistence::change_record> change_page(std::int64_t tenant, std::int64_t ds, std::int64_t device_store,
                                                        std::int64_t after, std::int64_t upto, bool include_deleted,
                                                        std::size_t limit) override {
        ++change_pages;
        return sync_store::change_page(tenant, ds, device_store, after, upto, include_deleted, limit);
    }
    std::vector<persistence::outgoing_item> outgoing_items(std::int64_t tenant, std::int64_t ds,
                                                           std::int64_t device_store,
                                                           const std::vector<persistence::item_ref>& refs,
                                                           std::size_t budget, std::size_t overhead) override {
        ++outgoing_reads;
        return sync_store::outgoing_items(tenant, ds, device_store, refs, budget, overhead);
    }
    std::optional<persistence::mapping_record> mapping_of_luid(std::int64_t, std::int64_t device_store,
                                                               const std::string& luid) override {
        for (const auto& [guid, m] : mappings[device_store]) {
            if (m.luid == luid) return persistence::mapping_record{guid, m.modseq};
        }
        return std::nullopt;
    }
    std::vector<persistence::luid_mapping> mappings_of_luids(std::int64_t, std::int64_t device_store,
                                                             const std::vector<std::string>& luids) override {
        std::vector<persistence::luid_mapping> out;
        for (const auto& [guid, m] : mappings[device_store]) {
            if (std::find(luids.begin(), luids.end(), m.luid) == luids.end()) continue;
            for (const auto& it : items) {
                if (it.guid == guid) out.push_back({m.luid, guid, m.modseq, 0, it.modseq, it.deleted});
            }
        }
        return out;
    }
    std::optional<std::string> confirmed_luid(std::int64_t, std::int64_t device_store,
                                              const std::string& guid) override {
        auto& m = mappings[device_store];
        auto found = m.find(guid);
        if (found == m.end() || found->second.modseq < 0) return std::nullopt;
        return found->second.luid;
    }
    void set_mapping(std::int64_t, std::int64_t device_store, const std::string& luid, const std::string& guid,
                     std::int64_t modseq) override {
        auto& m = mappings[device_store];
        std::erase_if(m, [&](const auto& entry) { return entry.second.luid == luid; });
        m[guid] = mapping{luid, modseq, modseq};
    }
    void touch_mapping(std::int64_t, std::int64_t device_store, const std::string& guid, std::int64_t modseq) override {
        auto& m = mappings[device_store];
        if (auto found = m.find(guid); found != m.end()) found->second.modseq = modseq;
    }
    void remove_mapping(std::int64_t, std::int64_t device_store, const std::string& guid) override {
        mappings[device_store].erase(guid);
    }
    void unconfirm_mappings(std::int64_t, std::int64_t device_store) override {
        for (auto& [guid, m] : mappings[device_store]) m.modseq = -1;  // `received` stays, as the SQL keeps it
    }
    // Numbered per device store from 1, as PostgreSQL numbers them; kept for good.
    std::vector<persistence::short_guid> short_guids_for(std::int64_t, std::int64_t device_store,
                                                         const std::vector<std::string>& guids) override {
        auto& given = short_ids[device_store];
        std::vector<persistence::short_guid> out;
        for (const auto& guid : guids) {
            auto [it, inserted] = given.try_emplace(guid);
            if (inserted) it->second = std::to_string(given.size());
            out.push_back({it->second, guid});
        }
        return out;
    }
    std::vector<persistence::short_guid> guids_of_short_ids(std::int64_t, std::int64_t device_store,
                                                            const std::vector<std::string>& ids) override {
        std::vector<persistence::short_guid> out;
        auto given = short_ids.find(device_store);
        if (given == short_ids.end()) return out;
        for (const auto& [guid, id] : given->second) {
            if (std::find(ids.begin(), ids.end(), id) != ids.end()) out.push_back({id, guid});
        }
        return out;
    }
    std::int64_t live_items(std::int64_t, std::int64_t ds, std::int64_t limit) override {
        ++live_item_counts;
        return std::min(static_cast<std::int64_t>(live_items(ds).size()), limit);
    }
    // The store holds one user's items: all of them count.
    std::int64_t user_stored_bytes(std::int64_t) override {
        ++stored_bytes_reads;
        std::int64_t bytes = 0;
        for (const auto& it : items) {
            if (!it.deleted) bytes += static_cast<std::int64_t>(it.content.size());
        }
        return bytes;
    }
    void append_chunk(std::int64_t, std::int64_t device_store, std::int64_t offset, const std::string& data) override {
        auto& object = chunks[device_store];
        if (offset == 0) object.clear();
        object[offset] = data;
        chunk_bytes_written += static_cast<std::int64_t>(data.size());
    }
    std::optional<std::string> take_chunks(std::int64_t, std::int64_t device_store, std::int64_t size) override {
        std::string whole;
        for (const auto& [offset, data] : chunks[device_store]) {
            if (offset != static_cast<std::int64_t>(whole.size())) break;
            whole += data;
        }
        chunks.erase(device_store);
        if (static_cast<std::int64_t>(whole.size()) != size) return std::nullopt;
        return whole;
    }
    void drop_chunks(std::int64_t, std::int64_t device_store) override { chunks.erase(device_store); }
    common::conflict_policy conflict_policy(std::int64_t) override {
        return common::parse_conflict_policy(policy).value_or(common::conflict_policy::merge);
    }
    std::string token_secret() override { return "test-secret"; }

  private:
    std::string new_guid() {
        auto n = std::to_string(next_id++);
        if (!uuid_guids) return "guid-" + n;
        return "00000000-0000-4000-8000-" + std::string(12 - std::min<std::size_t>(12, n.size()), '0') + n;
    }
    stored_item* find(std::int64_t ds, const std::string& guid) {
        for (auto& it : items) {
            if (it.datastore == ds && it.guid == guid) return &it;
        }
        return nullptr;
    }
};

}  // namespace syncml::session::testing
