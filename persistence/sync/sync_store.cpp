#include "persistence/sync/sync_store.hpp"
#include "common/log/log_event.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>

#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/pg_arrays.hpp"
#include "persistence/sync/detail/incoming_chunks.hpp"
#include "persistence/sync/detail/item_batch.hpp"
#include "persistence/sync/detail/outgoing_batch.hpp"
#include "persistence/sync/detail/pg_sync_store.hpp"
#include "persistence/sync/detail/short_guids.hpp"
#include "persistence/sync/detail/sync_store_session.hpp"
#include "persistence/sync/sync_store_sql.hpp"

namespace syncml::persistence {
namespace {

using std::int64_t;

std::vector<std::string> split_keys(const std::string& joined) {
    std::vector<std::string> keys;
    std::size_t pos = 0;
    while (pos <= joined.size()) {
        auto end = joined.find('\x1f', pos);
        if (end == std::string::npos) end = joined.size();
        keys.push_back(joined.substr(pos, end - pos));
        pos = end + 1;
    }
    return keys;
}

class pg_sync_store final : public pg_session_store {
  public:
    explicit pg_sync_store(pqxx::work& tx) : pg_session_store(tx) {}
    pg_sync_store(pqxx::work& tx, int64_t owner) : pg_session_store(tx) { bind_owner(owner); }

    int64_t datastore(int64_t tenant, int64_t user, item_kind kind_of) override {
        bind_owner(user);
        const std::string kind(common::datastore_name(kind_of));
        auto rows = exec_sql(tx_, sql::find_datastore, tenant, user, kind);
        if (rows.empty()) {
            exec_sql0(tx_, sql::create_datastore, tenant, user, kind);
            rows = exec_sql(tx_, sql::find_datastore, tenant, user, kind);
        }
        // Only a datastore of another kind under this kind's name (an edit outside the server) stops the creation.
        if (rows.empty()) throw db_error("no datastore of kind " + kind + ": its name is taken by another kind", false);
        return rows[0][0].as<int64_t>();
    }
    device_store_record device_store(int64_t tenant, int64_t device, int64_t datastore,
                                     const std::string& remote_uri) override {
        auto row = exec_sql1(tx_, sql::upsert_device_store, tenant, device, datastore, remote_uri, owner());
        device_store_record ds{
            row[0].as<int64_t>(), datastore,         row[1].as<std::string>(), row[2].as<std::string>(),
            row[3].as<int64_t>(), row[4].as<bool>(), row[5].as<std::string>(), {}};
        ds.previous_client_anchor = row[6].as<std::string>();
        ds.previous_seen_modseq = row[7].as<int64_t>();
        auto window = exec_sql(tx_, sql::window_of_device, tenant, device, owner());
        if (!window.empty()) {
            const auto& w = window[0];
            ds.window = {w[0].as<int>(), w[1].as<int>(), w[2].as<int>(), w[3].as<int>()};
        }
        return ds;
    }
    void require_slow_sync(int64_t tenant, int64_t device_store) override {
        exec_sql0(tx_, sql::require_slow_sync, tenant, device_store, owner());
    }
    void save_device_store(int64_t tenant, const device_store_record& ds) override {
        exec_sql0(tx_, sql::save_device_store, tenant, ds.id, ds.client_anchor, ds.server_anchor, ds.last_seen_modseq,
                  ds.needs_slow_sync, ds.sync_filter, ds.content_type, ds.content_version, owner());
    }
    std::vector<device_store_view> device_store_views(int64_t tenant, int64_t device) override {
        std::vector<device_store_view> out;
        for (const auto& row : exec_sql(tx_, sql::device_store_views, tenant, device, owner())) {
            auto kind = common::parse_datastore_name(row[2].as<std::string>());
            if (!kind) continue;  // a kind this version does not know
            out.push_back({row[0].as<int64_t>(), row[1].as<int64_t>(), *kind, row[3].as<std::string>(),
                           row[4].as<std::string>(), row[5].as<std::string>()});
        }
        return out;
    }

    item_record add_item(int64_t tenant, int64_t datastore, const std::string& content,
                         const std::vector<std::string>& match_keys) override {
        auto row = exec_sql1(tx_, sql::add_item, tenant, datastore, content_type_of(content), content, owner());
        set_keys(tenant, datastore, row[0].as<int64_t>(), match_keys, true);
        return {row[1].as<std::string>(), content, row[2].as<int64_t>(), false, row[0].as<int64_t>()};
    }
    std::optional<item_record> replace_item(int64_t tenant, int64_t datastore, const std::string& guid,
                                            const std::string& content,
                                            const std::vector<std::string>& match_keys) override {
        hold_datastore(tenant, datastore);
        auto rows =
            exec_sql(tx_, sql::replace_item, tenant, datastore, guid, content_type_of(content), content, owner());
        if (rows.empty()) return std::nullopt;
        set_keys(tenant, datastore, rows[0][0].as<int64_t>(), match_keys, false);
        return item_record{guid, content, rows[0][1].as<int64_t>(), false, rows[0][0].as<int64_t>()};
    }
    std::optional<item_record> delete_item(int64_t tenant, int64_t datastore, const std::string& guid) override {
        hold_datastore(tenant, datastore);
        auto rows = exec_sql(tx_, sql::delete_item, tenant, datastore, guid, owner());
        if (rows.empty()) return std::nullopt;
        exec_sql0(tx_, sql::drop_keys, tenant, rows[0][0].as<int64_t>(), owner());
        return item_record{guid, rows[0][1].as<std::string>(), rows[0][2].as<int64_t>(), true,
                           rows[0][0].as<int64_t>()};
    }
    std::vector<written_item> write_items(int64_t tenant, int64_t datastore, int64_t device_store,
                                          const std::vector<item_write>& writes) override {
        auto written = write_item_batch(tx_, tenant, owner(), datastore, device_store, writes);
        // A batch with content took the datastore's lock (item_batch.cpp, bump_by).
        if (std::any_of(writes.begin(), writes.end(), [](const item_write& w) { return w.content.has_value(); }))
            held_.insert(datastore);
        return written;
    }
    std::optional<item_record> find_item(int64_t tenant, int64_t datastore, const std::string& guid) override {
        auto rows = exec_sql(tx_, sql::find_item, tenant, datastore, guid, owner());
        if (rows.empty()) return std::nullopt;
        const auto& row = rows[0];
        return item_record{row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<int64_t>(), row[3].as<bool>(),
                           row[4].as<int64_t>()};
    }
    std::vector<twin_candidate> twin_candidates(int64_t tenant, int64_t datastore, int64_t device_store,
                                                const std::vector<std::string>& match_keys) override {
        std::vector<twin_candidate> out;
        if (match_keys.empty()) return out;
        for (const auto& row : exec_sql(tx_, sql::twin_candidates, tenant, datastore, device_store,
                                        text_array(match_keys), k_candidates_per_key, owner())) {
            out.push_back({row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<int64_t>(),
                           split_keys(row[3].as<std::string>()), row[4].as<int64_t>(), row[5].as<bool>(),
                           row[6].as<int64_t>()});
        }
        return out;
    }
    int64_t current_modseq(int64_t tenant, int64_t datastore) override {
        return exec_sql1(tx_, sql::current_modseq, tenant, datastore, owner())[0].as<int64_t>();
    }
    std::vector<change_record> changes(int64_t tenant, int64_t device_store, int64_t after, int64_t upto,
                                       bool include_deleted) override {
        std::vector<change_record> out;
        for (const auto& row :
             exec_sql(tx_, sql::changes, tenant, device_store, after, upto, include_deleted, owner())) {
            change_record c{row[0].as<std::string>(), row[1].as<int64_t>(), row[2].as<bool>(), std::nullopt};
            if (!row[3].is_null() && row[4].as<int64_t>() >= 0) c.luid = row[3].as<std::string>();
            c.mapped = !row[3].is_null();
            out.push_back(std::move(c));
        }
        return out;
    }

    std::vector<change_record> held_items(int64_t tenant, int64_t device_store) override {
        std::vector<change_record> out;
        for (const auto& row : exec_sql(tx_, sql::held_items, tenant, device_store, owner())) {
            out.push_back({row[0].as<std::string>(), row[1].as<int64_t>(), false, row[2].as<std::string>(),
                           row[3].as<int64_t>()});
        }
        return out;
    }
    std::vector<change_record> change_page(int64_t tenant, int64_t datastore, int64_t device_store, int64_t after,
                                           int64_t upto, bool include_deleted, std::size_t limit) override {
        std::vector<change_record> out;
        for (const auto& row : exec_sql(tx_, sql::change_page, tenant, datastore, device_store, after, upto,
                                        include_deleted, static_cast<int64_t>(limit), owner())) {
            change_record c{row[0].as<std::string>(), row[1].as<int64_t>(), row[2].as<bool>(), std::nullopt,
                            row[5].as<int64_t>()};
            if (!row[3].is_null() && row[4].as<int64_t>() >= 0) c.luid = row[3].as<std::string>();
            out.push_back(std::move(c));
        }
        return out;
    }
    server_changes_record server_changes(int64_t tenant, int64_t datastore, int64_t device_store, bool wanted,
                                         bool from_start, bool include_deleted) override {
        return read_server_changes(tx_, tenant, owner(), datastore, device_store, wanted, from_start, include_deleted);
    }
    std::vector<outgoing_item> outgoing_items(int64_t tenant, int64_t datastore, int64_t device_store,
                                              const std::vector<item_ref>& items, std::size_t budget,
                                              std::size_t overhead) override {
        return read_outgoing_items(tx_, tenant, owner(), datastore, device_store, items, budget, overhead);
    }
    void record_delivery(int64_t tenant, int64_t datastore, int64_t device_store,
                         const std::vector<std::pair<item_ref, int64_t>>& held,
                         const std::vector<item_ref>& removed) override {
        write_delivery(tx_, tenant, owner(), datastore, device_store, held, removed);
    }
    int64_t delete_unheld_items(int64_t tenant, int64_t datastore, int64_t device_store, int64_t upto) override {
        hold_datastore(tenant, datastore);
        return delete_unheld(tx_, tenant, owner(), datastore, device_store, upto);
    }
    int64_t live_items(int64_t tenant, int64_t datastore, int64_t limit) override {
        return count_live_items(tx_, tenant, owner(), datastore, limit);
    }
    int64_t user_stored_bytes(int64_t tenant) override {
        return exec_sql1(tx_, sql::user_stored_bytes, tenant, owner())[0].as<int64_t>();
    }
    void append_chunk(int64_t tenant, int64_t device_store, int64_t offset, const std::string& data) override {
        append_object_chunk(tx_, tenant, owner(), device_store, offset, data);
    }
    std::optional<std::string> take_chunks(int64_t tenant, int64_t device_store, int64_t size) override {
        return take_object_chunks(tx_, tenant, owner(), device_store, size);
    }
    void drop_chunks(int64_t tenant, int64_t device_store) override {
        drop_object_chunks(tx_, tenant, owner(), device_store);
    }

    std::optional<mapping_record> mapping_of_luid(int64_t tenant, int64_t device_store,
                                                  const std::string& luid) override {
        auto rows = exec_sql(tx_, sql::mapping_of_luid, tenant, device_store, luid, owner());
        if (rows.empty()) return std::nullopt;
        return mapping_record{rows[0][0].as<std::string>(), rows[0][1].as<int64_t>()};
    }
    std::vector<luid_mapping> mappings_of_luids(int64_t tenant, int64_t device_store,
                                                const std::vector<std::string>& luids) override {
        std::vector<luid_mapping> out;
        if (luids.empty()) return out;
        for (const auto& row :
             exec_sql(tx_, sql::mappings_of_luids, tenant, device_store, text_array(luids), owner())) {
            out.push_back({row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<int64_t>(),
                           row[3].as<int64_t>(), row[4].as<int64_t>(), row[5].as<bool>()});
        }
        return out;
    }
    std::optional<std::string> confirmed_luid(int64_t tenant, int64_t device_store, const std::string& guid) override {
        auto rows = exec_sql(tx_, sql::confirmed_luid, tenant, device_store, guid, owner());
        if (rows.empty()) return std::nullopt;
        return rows[0][0].as<std::string>();
    }
    void set_mapping(int64_t tenant, int64_t device_store, const std::string& luid, const std::string& guid,
                     int64_t modseq) override {
        exec_sql0(tx_, sql::drop_mapping, tenant, device_store, guid, owner());
        exec_sql0(tx_, sql::drop_mapping_of_luid, tenant, device_store, luid, owner());
        exec_sql0(tx_, sql::insert_mapping, tenant, device_store, guid, luid, modseq, owner());
    }
    void touch_mapping(int64_t tenant, int64_t device_store, const std::string& guid, int64_t modseq) override {
        exec_sql0(tx_, sql::touch_mapping, tenant, device_store, guid, modseq, owner());
    }
    void remove_mapping(int64_t tenant, int64_t device_store, const std::string& guid) override {
        exec_sql0(tx_, sql::drop_mapping, tenant, device_store, guid, owner());
    }
    void unconfirm_mappings(int64_t tenant, int64_t device_store) override {
        exec_sql0(tx_, sql::unconfirm_mappings, tenant, device_store, owner());
    }
    std::vector<short_guid> short_guids_for(int64_t tenant, int64_t device_store,
                                            const std::vector<std::string>& guids) override {
        return give_short_guids(tx_, tenant, owner(), device_store, guids);
    }
    std::vector<short_guid> guids_of_short_ids(int64_t tenant, int64_t device_store,
                                               const std::vector<std::string>& ids) override {
        return find_short_guids(tx_, tenant, owner(), device_store, ids);
    }
    common::conflict_policy conflict_policy(int64_t tenant) override {
        auto rows = exec_sql(tx_, sql::conflict_policy, tenant);
        auto stored = rows.empty() ? std::string() : rows[0][0].as<std::string>();
        return common::parse_conflict_policy(stored).value_or(common::conflict_policy::merge);
    }

  private:
    // Before a statement that reads the size of an item it replaces or deletes (sql::lock_datastore); once per
    // datastore and transaction.
    void hold_datastore(int64_t tenant, int64_t datastore) {
        if (held_.insert(datastore).second) exec_sql(tx_, sql::lock_datastore, tenant, datastore, owner());
    }
    void set_keys(int64_t tenant, int64_t datastore, int64_t item, const std::vector<std::string>& keys, bool fresh) {
        if (!fresh) exec_sql0(tx_, sql::drop_keys, tenant, item, owner());
        if (!keys.empty()) exec_sql0(tx_, sql::add_keys, tenant, datastore, text_array(keys), item, owner());
    }

    std::set<int64_t> held_;  // datastores whose row this transaction has locked
};

}  // namespace

std::vector<written_item> sync_store::write_items(int64_t tenant, int64_t datastore, int64_t device_store,
                                                  const std::vector<item_write>& writes) {
    std::vector<written_item> out;
    for (const auto& w : writes) {
        written_item done{w.guid, w.modseq};
        if (w.at_current && !w.content) {
            auto found = find_item(tenant, datastore, w.guid);
            if (!found || (found->deleted && w.at_most < 0)) {
                done.missing = true;
                out.push_back(std::move(done));
                continue;
            }
            done.modseq = w.at_most < 0 ? found->modseq : std::min(found->modseq, w.at_most);
        }
        if (w.content && w.guid.empty()) {
            auto added = add_item(tenant, datastore, *w.content, w.match_keys);
            done = {added.guid, added.modseq};
        } else if (w.content) {
            if (auto replaced = replace_item(tenant, datastore, w.guid, *w.content, w.match_keys))
                done.modseq = replaced->modseq;
        }
        if (w.at_current && !w.content && !w.luid.empty()) {
            // The device received the item: the mapping records nothing the device itself sent.
            set_mapping(tenant, device_store, w.luid, done.guid, -1);
            touch_mapping(tenant, device_store, done.guid, done.modseq);
        } else if (!w.luid.empty()) {
            set_mapping(tenant, device_store, w.luid, done.guid,
                        w.send_back && done.modseq > 0 ? done.modseq - 1 : done.modseq);
        }
        out.push_back(std::move(done));
    }
    return out;
}

std::vector<change_record> sync_store::change_page(int64_t tenant, int64_t, int64_t device_store, int64_t after,
                                                   int64_t upto, bool include_deleted, std::size_t limit) {
    std::vector<change_record> out;
    for (auto& change : changes(tenant, device_store, after, upto, include_deleted)) {
        if (out.size() == limit) break;
        if (!change.deleted || change.luid) out.push_back(std::move(change));
    }
    return out;
}

std::vector<outgoing_item> sync_store::outgoing_items(int64_t tenant, int64_t datastore, int64_t device_store,
                                                      const std::vector<item_ref>& items, std::size_t budget,
                                                      std::size_t overhead) {
    std::vector<outgoing_item> out;
    std::size_t before = 0;
    for (const auto& ref : items) {
        auto found = find_item(tenant, datastore, ref.guid);
        if (!found) continue;
        outgoing_item o{*found, before == 0 || before < budget, confirmed_luid(tenant, device_store, ref.guid)};
        if (!found->deleted) before += found->content.size() + overhead;
        if (!o.content_read) o.item.content.clear();
        out.push_back(std::move(o));
    }
    return out;
}

void sync_store::record_delivery(int64_t tenant, int64_t datastore, int64_t device_store,
                                 const std::vector<std::pair<item_ref, int64_t>>& held,
                                 const std::vector<item_ref>& removed) {
    for (const auto& [ref, modseq] : held) touch_mapping(tenant, device_store, ref.guid, modseq);
    for (const auto& ref : removed) {
        auto item = find_item(tenant, datastore, ref.guid);
        if (item && item->deleted) {
            touch_mapping(tenant, device_store, ref.guid, item->modseq);
        } else {
            remove_mapping(tenant, device_store, ref.guid);
        }
    }
}

int64_t sync_store::delete_unheld_items(int64_t tenant, int64_t datastore, int64_t device_store, int64_t upto) {
    int64_t deleted = 0;
    for (const auto& change : changes(tenant, device_store, 0, upto, false)) {
        if (delete_item(tenant, datastore, change.guid)) ++deleted;
        remove_mapping(tenant, device_store, change.guid);
    }
    return deleted;
}

namespace {
// Not a std::exception, so in_transaction neither retries nor wraps it: it only unwinds, which aborts the
// transaction.
struct roll_back {};

void log_transaction_failure(const db_error& e) {
    common::log_event(spdlog::level::warn, "sync transaction failed",
                      {{"retryable", e.retryable()}, {"sqlstate", e.sqlstate()}, {"error", e.what()}});
}
}  // namespace

namespace detail {
std::unique_ptr<sync_store> make_pg_sync_store(pqxx::work& tx, int64_t owner) {
    return std::make_unique<pg_sync_store>(tx, owner);
}
}  // namespace detail

transaction_outcome run_sync_transaction_if(database& db, const std::function<bool(sync_store&)>& work) {
    try {
        in_transaction(db, [&](pqxx::work& tx) {
            pg_sync_store store(tx);
            if (!work(store)) throw roll_back{};
        });
        return transaction_outcome::committed;
    } catch (const roll_back&) {
        return transaction_outcome::rolled_back;
    } catch (const db_error& e) {
        log_transaction_failure(e);
        return transaction_outcome::failed;
    }
}

bool run_sync_transaction(database& db, const std::function<void(sync_store&)>& work) {
    return run_sync_transaction(db, 0, work);
}

bool run_sync_transaction(database& db, int64_t owner, const std::function<void(sync_store&)>& work) {
    try {
        in_transaction(db, [&](pqxx::work& tx) {
            pg_sync_store store(tx, owner);
            work(store);
        });
        return true;
    } catch (const db_error& e) {
        log_transaction_failure(e);
        return false;
    }
}

}  // namespace syncml::persistence
