#include "persistence/sync/detail/outgoing_batch.hpp"

#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/pg_arrays.hpp"
#include "persistence/sync/outgoing_batch_sql.hpp"

namespace syncml::persistence {

using std::int64_t;

namespace {

// The GUIDs and ids of `refs` as two array literals.
std::pair<std::string, std::string> ref_arrays(const std::vector<item_ref>& refs) {
    std::vector<std::string> guids;
    std::vector<int64_t> ids;
    for (const auto& ref : refs) {
        guids.push_back(ref.guid);
        ids.push_back(ref.item_id);
    }
    return {text_array(guids), bigint_array(ids)};
}

}  // namespace

server_changes_record read_server_changes(pqxx::work& tx, int64_t tenant, int64_t owner, int64_t datastore,
                                          int64_t device_store, bool wanted, bool from_start, bool include_deleted) {
    server_changes_record out;
    auto rows =
        exec_sql(tx, sql::server_changes, tenant, datastore, device_store, wanted, from_start, include_deleted, owner);
    if (rows.empty()) return out;  // no such device store of the datastore
    out.current_modseq = rows[0][0].as<int64_t>();
    out.last_seen_modseq = rows[0][1].as<int64_t>();
    for (const auto& row : rows) {
        if (row[2].is_null()) continue;  // the one row of a package without changes
        change_record c{row[2].as<std::string>(), row[3].as<int64_t>(), row[4].as<bool>(), std::nullopt,
                        row[7].as<int64_t>()};
        if (!row[5].is_null() && row[6].as<int64_t>() >= 0) c.luid = row[5].as<std::string>();
        out.changes.push_back(std::move(c));
    }
    return out;
}

std::vector<outgoing_item> read_outgoing_items(pqxx::work& tx, int64_t tenant, int64_t owner, int64_t datastore,
                                               int64_t device_store, const std::vector<item_ref>& items,
                                               std::size_t budget, std::size_t overhead) {
    std::vector<outgoing_item> out;
    if (items.empty()) return out;
    auto [guids, ids] = ref_arrays(items);
    auto rows = exec_sql(tx, sql::outgoing_items, tenant, datastore, device_store, guids, ids,
                         static_cast<int64_t>(budget), static_cast<int64_t>(overhead), owner);
    for (const auto& row : rows) {
        outgoing_item o;
        o.item = {row[0].as<std::string>(), {}, row[2].as<int64_t>(), row[3].as<bool>(), row[4].as<int64_t>()};
        o.content_read = !row[1].is_null();
        if (o.content_read) o.item.content = row[1].as<std::string>();
        if (!row[5].is_null()) o.confirmed_luid = row[5].as<std::string>();
        out.push_back(std::move(o));
    }
    return out;
}

void write_delivery(pqxx::work& tx, int64_t tenant, int64_t owner, int64_t datastore, int64_t device_store,
                    const std::vector<std::pair<item_ref, int64_t>>& held, const std::vector<item_ref>& removed) {
    if (held.empty() && removed.empty()) return;
    std::vector<item_ref> refs;
    std::vector<int64_t> modseqs;
    for (const auto& [ref, modseq] : held) {
        refs.push_back(ref);
        modseqs.push_back(modseq);
    }
    auto [guids, ids] = ref_arrays(refs);
    auto [gone_guids, gone_ids] = ref_arrays(removed);
    exec_sql0(tx, sql::record_delivery, tenant, datastore, device_store, guids, ids, bigint_array(modseqs), gone_guids,
              gone_ids, owner);
}

int64_t delete_unheld(pqxx::work& tx, int64_t tenant, int64_t owner, int64_t datastore, int64_t device_store,
                      int64_t upto) {
    return exec_sql1(tx, sql::delete_unheld_items, tenant, datastore, device_store, owner, upto)[0].as<int64_t>();
}

}  // namespace syncml::persistence
