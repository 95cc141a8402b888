#include "persistence/sync/detail/incoming_chunks.hpp"

#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/sync/incoming_chunks_sql.hpp"

namespace syncml::persistence {

void append_object_chunk(pqxx::work& tx, std::int64_t tenant, int64_t owner, std::int64_t device_store,
                         std::int64_t offset, const std::string& data) {
    // Once per object: what an abandoned object left must not end up in this one.
    if (offset == 0) exec_sql0(tx, sql::drop_chunks, tenant, device_store, owner);
    exec_sql0(tx, sql::append_chunk, tenant, device_store, offset, pqxx::binarystring(data), owner);
}

std::optional<std::string> take_object_chunks(pqxx::work& tx, std::int64_t tenant, int64_t owner,
                                              std::int64_t device_store, std::int64_t size) {
    std::string whole;
    bool contiguous = true;
    for (const auto& row : exec_sql(tx, sql::take_chunks, tenant, device_store, owner)) {
        contiguous = contiguous && row[0].as<std::int64_t>() == static_cast<std::int64_t>(whole.size());
        if (!contiguous) continue;  // the rest is deleted all the same
        pqxx::binarystring bytes(row[1]);
        whole.append(bytes.get(), bytes.size());
    }
    if (!contiguous || static_cast<std::int64_t>(whole.size()) != size) return std::nullopt;
    return whole;
}

void drop_object_chunks(pqxx::work& tx, std::int64_t tenant, int64_t owner, std::int64_t device_store) {
    exec_sql0(tx, sql::drop_chunks, tenant, device_store, owner);
}

std::int64_t count_live_items(pqxx::work& tx, std::int64_t tenant, int64_t owner, std::int64_t datastore,
                              std::int64_t limit) {
    return exec_sql1(tx, sql::count_live_items, tenant, datastore, limit, owner)[0].as<std::int64_t>();
}

}  // namespace syncml::persistence
