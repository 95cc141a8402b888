#include "persistence/dav/dav_store.hpp"

#include <algorithm>
#include <stdexcept>

#include "persistence/dav/dav_store_sql.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/pg/pg_arrays.hpp"
#include "persistence/sync/detail/pg_sync_store.hpp"

namespace syncml::persistence {
namespace {

using std::int64_t;

// Another request created an item of the same name between our lookup and our insert: the request runs again and
// then finds that item (a replace, or 412 for If-None-Match: *), as if it had come second.
struct name_taken final : std::runtime_error {
    name_taken() : std::runtime_error("a concurrent request created an item of this name") {}
};
constexpr int k_name_race_attempts = 3;

std::vector<std::string> split_components(const std::string& joined) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < joined.size()) {
        auto end = joined.find(',', pos);
        if (end == std::string::npos) end = joined.size();
        out.push_back(joined.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

template <class T>
std::optional<T> optional_of(const pqxx::field& field) {
    if (field.is_null()) return std::nullopt;
    return field.as<T>();
}

// A row of the columns sql::dav_collection_state reads, for the collection's tenant and user.
dav_collection collection_of(const pqxx::row& row, common::tenant_id tenant, common::user_id user) {
    dav_collection c{.tenant = tenant,
                     .user = user,
                     .datastore = common::datastore_id{row["datastore_id"].as<int64_t>()},
                     .modseq = row["modseq"].as<int64_t>(),
                     .purged_modseq = row["purged_modseq"].as<int64_t>(),
                     .suffix = {}};
    c.name = row["name"].as<std::string>();
    c.kind = common::parse_datastore_name(row["kind"].as<std::string>()).value_or(item_kind::contact);
    c.is_default = row["is_default"].as<bool>();
    c.components = split_components(row["components"].as<std::string>());
    c.properties = {.display_name = optional_of<std::string>(row["display_name"]),
                    .description = optional_of<std::string>(row["description"]),
                    .color = optional_of<std::string>(row["color"]),
                    .order = optional_of<int64_t>(row["sort_order"]),
                    .time_zone = optional_of<std::string>(row["time_zone"])};
    return c;
}

std::vector<dav_resource> resources_of(const pqxx::result& rows) {
    std::vector<dav_resource> out;
    out.reserve(rows.size());
    for (const auto& row : rows) {
        out.push_back({.name = row["name"].as<std::string>(),
                       .guid = row["guid"].as<std::string>(),
                       .item_id = row["item_id"].as<int64_t>(),
                       .modseq = row["modseq"].as<int64_t>(),
                       .deleted = row["deleted"].as<bool>(),
                       .content = row["content"].as<std::string>(),
                       .content_bytes = row["content_bytes"].as<std::size_t>()});
    }
    return out;
}

class pg_dav_store final : public dav_store {
  public:
    explicit pg_dav_store(pqxx::work& tx) : tx_(tx) {}

    dav_collection collection(common::tenant_id tenant, common::user_id user, item_kind kind,
                              const std::string& suffix) override {
        const auto datastore = items_of(user.value()).datastore(tenant.value(), user.value(), kind);
        owned_.push_back(datastore);
        auto c = collection_of(exec_sql1(tx_, sql::dav_collection_state, tenant.value(), user.value(), datastore),
                               tenant, user);
        c.suffix = suffix;
        return c;
    }
    std::vector<dav_collection> collections(common::tenant_id tenant, common::user_id user) override {
        items_of(user.value());  // binds the transaction to the user
        std::vector<dav_collection> out;
        for (const auto& row : exec_sql(tx_, sql::dav_collections, tenant.value(), user.value())) {
            out.push_back(collection_of(row, tenant, user));
            owned_.push_back(out.back().datastore.value());
        }
        return out;
    }
    collection_creation create_collection(common::tenant_id tenant, common::user_id user, const new_collection& n,
                                          std::size_t max_collections) override {
        auto& items = items_of(user.value());
        exec_sql1(tx_, sql::dav_lock_user, tenant.value(), user.value());
        items.datastore(tenant.value(), user.value(), n.kind);
        const auto live = exec_sql1(tx_, sql::dav_count_collections, tenant.value(), user.value())[0].as<int64_t>();
        if (live >= static_cast<int64_t>(max_collections)) return collection_creation::too_many;
        const auto& p = n.properties;
        const auto rows = exec_sql(tx_, sql::dav_create_collection, tenant.value(), user.value(), n.name,
                                   std::string(common::datastore_name(n.kind)), text_array(n.components),
                                   p.display_name, p.description, p.color, p.order, p.time_zone);
        if (rows.empty()) return collection_creation::name_taken;
        owned_.push_back(rows[0][0].as<int64_t>());
        return collection_creation::created;
    }
    void set_properties(const dav_collection& c, const collection_properties& p) override {
        items_of(c);
        exec_sql0(tx_, sql::dav_set_properties, c.tenant.value(), c.user.value(), c.datastore.value(), p.display_name,
                  p.description, p.color, p.order, p.time_zone);
    }
    void delete_collection(const dav_collection& c) override {
        if (c.is_default) throw std::logic_error("dav_store::delete_collection of a default collection");
        items_of(c);
        lock_collection(c);
        exec_sql1(tx_, sql::dav_delete_collection, c.tenant.value(), c.user.value(), c.datastore.value());
    }
    std::vector<dav_resource> named(const dav_collection& c, const std::vector<std::string>& names,
                                    bool for_update) override {
        auto found = read_named(c, names, true);
        if (for_update && !found.empty()) {
            std::vector<int64_t> ids;
            for (const auto& r : found) ids.push_back(r.item_id);
            exec_sql(tx_, sql::dav_lock_items, c.tenant.value(), c.user.value(), bigint_array(ids));
            // Read again under the lock: a write that committed meanwhile is seen.
            found = read_named(c, names, true);
        }
        return found;
    }
    std::vector<dav_resource> named_without_content(const dav_collection& c,
                                                    const std::vector<std::string>& names) override {
        return read_named(c, names, false);
    }
    std::vector<dav_resource> live_after(const dav_collection& c, int64_t after_item, std::size_t limit) override {
        return resources_of(exec_sql(tx_, sql::dav_live_after, c.tenant.value(), c.user.value(), c.datastore.value(),
                                     c.suffix, after_item, static_cast<int64_t>(limit)));
    }
    std::vector<dav_resource> changed_since(const dav_collection& c, int64_t after, std::size_t limit) override {
        return resources_of(exec_sql(tx_, sql::dav_changed_since, c.tenant.value(), c.user.value(), c.datastore.value(),
                                     c.suffix, after, static_cast<int64_t>(limit)));
    }
    void lock_collection(const dav_collection& c) override {
        exec_sql1(tx_, sql::dav_lock_collection, c.tenant.value(), c.user.value(), c.datastore.value());
    }
    int64_t live_count(const dav_collection& c) override {
        lock_collection(c);
        return exec_sql1(tx_, sql::dav_live_count, c.tenant.value(), c.user.value(), c.datastore.value())[0]
            .as<int64_t>();
    }
    int64_t user_stored_bytes(const dav_collection& c) override {
        return items_of(c).user_stored_bytes(c.tenant.value());
    }
    std::vector<dav_resource> holding_key(const dav_collection& c, const std::string& key) override {
        return resources_of(
            exec_sql(tx_, sql::dav_holding_key, c.tenant.value(), c.user.value(), c.datastore.value(), c.suffix, key));
    }
    dav_resource create(const dav_collection& c, const std::string& name, const std::string& content,
                        const std::vector<std::string>& match_keys) override {
        auto added = items_of(c).add_item(c.tenant.value(), c.datastore.value(), content, match_keys);
        // Not prepared: Citus routes a DELETE that joins a second table to one shard only in a plan made with the
        // values; the generic plan a prepared statement gets from its sixth run on goes to every shard (measured,
        // Citus 13.2.2), which the hot path refuses.
        tx_.exec_params(sql::dav_release_name, c.tenant.value(), c.user.value(), c.datastore.value(), name);
        if (exec_sql(tx_, sql::dav_name_item, c.tenant.value(), c.user.value(), c.datastore.value(), added.item_id,
                     name)
                .empty()) {
            throw name_taken();
        }
        return {.name = name,
                .guid = added.guid,
                .item_id = added.item_id,
                .modseq = added.modseq,
                .content = content,
                .content_bytes = content.size()};
    }
    int64_t replace(const dav_collection& c, const dav_resource& current, const std::string& content,
                    const std::vector<std::string>& match_keys) override {
        auto replaced =
            items_of(c).replace_item(c.tenant.value(), c.datastore.value(), current.guid, content, match_keys);
        if (!replaced) throw std::logic_error("dav_store::replace of an item that is gone");
        return replaced->modseq;
    }
    int64_t remove(const dav_collection& c, const dav_resource& current) override {
        auto deleted = items_of(c).delete_item(c.tenant.value(), c.datastore.value(), current.guid);
        if (!deleted) throw std::logic_error("dav_store::remove of an item that is gone");
        return deleted->modseq;
    }

  private:
    std::vector<dav_resource> read_named(const dav_collection& c, const std::vector<std::string>& names,
                                         bool with_content) {
        if (names.empty()) return {};
        std::vector<std::string> guids;
        for (const auto& name : names) {
            const bool guid_form = name.size() > c.suffix.size() && name.ends_with(c.suffix);
            guids.push_back(guid_form ? name.substr(0, name.size() - c.suffix.size()) : std::string());
        }
        return resources_of(exec_sql(tx_, sql::dav_named, c.tenant.value(), c.user.value(), c.datastore.value(),
                                     c.suffix, text_array(names), text_array(guids), with_content));
    }
    // The sync store of the transaction's one user: it writes that user's rows only (on a distributed database, one
    // shard), so a second user's collection in the same transaction is a defect.
    sync_store& items_of(int64_t user) {
        if (!items_) {
            items_ = detail::make_pg_sync_store(tx_, user);
            items_user_ = user;
        }
        if (user != items_user_) throw std::logic_error("a DAV transaction named a second user");
        return *items_;
    }
    // Item writes name the datastore, which must be the collection user's: collection() found it so; a collection
    // read in an earlier transaction is checked here, and a datastore id of another user throws before any write.
    sync_store& items_of(const dav_collection& c) {
        auto& items = items_of(c.user.value());
        if (std::find(owned_.begin(), owned_.end(), c.datastore.value()) == owned_.end()) {
            exec_sql1(tx_, sql::dav_own_datastore, c.tenant.value(), c.user.value(), c.datastore.value());
            owned_.push_back(c.datastore.value());
        }
        return items;
    }

    pqxx::work& tx_;
    std::unique_ptr<sync_store> items_;  // created for the first user named
    int64_t items_user_ = 0;
    std::vector<int64_t> owned_;  // datastores of items_user_ seen in this transaction
};

}  // namespace

void run_dav_transaction(database& db, const std::function<void(dav_store&)>& work) {
    for (int attempt = 1;; ++attempt) {
        try {
            in_transaction(db, [&](pqxx::work& tx) {
                pg_dav_store store(tx);
                work(store);
            });
            return;
        } catch (const name_taken& e) {
            if (attempt >= k_name_race_attempts) throw db_error(e.what(), true);
        }
    }
}

}  // namespace syncml::persistence
