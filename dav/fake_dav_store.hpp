#pragma once
// Test support: persistence::dav_store in memory, with the PostgreSQL store's semantics
// (persistence/dav/dav_store.cpp): one modseq counter per datastore bumped by every write, tombstones kept with their
// name, a resource named by its dav_names entry else by GUID + suffix, names released by tombstones when a new item
// takes them; collections as datastores of a user, the lowest live one of a kind its default, a deleted one with its
// items tombstones and its name freed.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "persistence/dav/dav_store.hpp"

namespace syncml::dav::testing {

class fake_dav_store final : public persistence::dav_store {
  public:
    struct item_row {
        std::int64_t tenant = 0;
        std::int64_t datastore = 0;
        std::int64_t item_id = 0;
        std::string guid;
        std::string name;  // "" when no DAV client named it
        std::string content;
        std::vector<std::string> keys;
        std::int64_t modseq = 0;
        bool deleted = false;
    };
    struct datastore_row {
        std::int64_t id = 0;
        std::int64_t modseq = 0;
        std::int64_t purged_modseq = 0;
        std::int64_t tenant = 0;
        std::int64_t user = 0;
        std::string name;
        common::item_kind kind = common::item_kind::contact;
        std::vector<std::string> components;
        persistence::collection_properties properties;
        bool deleted = false;
    };

    persistence::dav_collection collection(common::tenant_id tenant, common::user_id user, common::item_kind kind,
                                           const std::string& suffix) override {
        auto c = collection_of(datastore(tenant.value(), user.value(), kind));
        c.suffix = suffix;
        return c;
    }
    std::vector<persistence::dav_collection> collections(common::tenant_id tenant, common::user_id user) override {
        std::vector<persistence::dav_collection> out;
        for (const auto& ds : datastores_) {
            if (ds.tenant == tenant.value() && ds.user == user.value() && !ds.deleted) out.push_back(collection_of(ds));
        }
        return out;
    }
    persistence::collection_creation create_collection(common::tenant_id tenant, common::user_id user,
                                                       const persistence::new_collection& n,
                                                       std::size_t max_collections) override {
        datastore(tenant.value(), user.value(), n.kind);
        if (collections(tenant, user).size() >= max_collections) return persistence::collection_creation::too_many;
        for (const auto& ds : datastores_) {
            if (ds.tenant == tenant.value() && ds.user == user.value() && ds.name == n.name)
                return persistence::collection_creation::name_taken;
        }
        auto& ds = add_datastore(tenant.value(), user.value(), n.name, n.kind);
        ds.components = n.components;
        ds.properties = n.properties;
        return persistence::collection_creation::created;
    }
    void set_properties(const persistence::dav_collection& c, const persistence::collection_properties& p) override {
        row_of(c).properties = p;
    }
    void delete_collection(const persistence::dav_collection& c) override {
        if (c.is_default) throw std::logic_error("fake_dav_store: a default collection cannot be deleted");
        auto& ds = row_of(c);
        for (auto& row : items_) {
            if (in(row, c) && !row.deleted) {
                row.deleted = true;
                row.keys.clear();
                row.modseq = ++ds.modseq;
            }
        }
        ds.deleted = true;
        ds.name += "/" + std::to_string(ds.id);
    }
    std::vector<persistence::dav_resource> named(const persistence::dav_collection& c,
                                                 const std::vector<std::string>& names, bool) override {
        if (before_named) before_named(names);
        std::vector<persistence::dav_resource> out;
        for (const auto& name : names) {
            for (const auto& row : items_) {
                if (in(row, c) && !row.deleted && name_of(row, c) == name) out.push_back(resource_of(row, c, true));
            }
        }
        std::size_t bytes = 0;
        for (const auto& r : out) bytes += r.content.size();
        largest_content_handout = std::max(largest_content_handout, bytes);
        content_handed_out += bytes;
        return out;
    }
    std::vector<persistence::dav_resource> named_without_content(const persistence::dav_collection& c,
                                                                 const std::vector<std::string>& names) override {
        std::vector<persistence::dav_resource> out;
        for (const auto& name : names) {
            for (const auto& row : items_) {
                if (in(row, c) && !row.deleted && name_of(row, c) == name) out.push_back(resource_of(row, c, false));
            }
        }
        return out;
    }
    // What named(), the one call that hands out contents, gave at most in one call and in all: a listing that holds
    // one batch of contents at a time never takes more than a batch in one call.
    std::size_t largest_content_handout = 0;
    std::size_t content_handed_out = 0;
    // Runs at the start of named(): a test makes a write of another request happen between a listing's page and
    // its contents.
    std::function<void(const std::vector<std::string>& names)> before_named;
    std::vector<persistence::dav_resource> live_after(const persistence::dav_collection& c, std::int64_t after_item,
                                                      std::size_t limit) override {
        std::vector<persistence::dav_resource> out;
        for (const auto& row : items_) {  // items_ is in item id order
            if (limit && out.size() == limit) break;
            if (in(row, c) && !row.deleted && row.item_id > after_item) out.push_back(resource_of(row, c, false));
        }
        return out;
    }
    void lock_collection(const persistence::dav_collection&) override { ++collection_locks; }
    std::size_t collection_locks = 0;
    std::vector<persistence::dav_resource> changed_since(const persistence::dav_collection& c, std::int64_t after,
                                                         std::size_t limit) override {
        std::vector<persistence::dav_resource> out;
        std::set<std::string> live;  // a tombstone whose name a live item holds is left out, as the SQL does
        for (const auto& row : items_) {
            if (in(row, c) && !row.deleted) live.insert(resource_of(row, c, false).name);
        }
        for (const auto& row : items_) {
            if (!in(row, c) || row.modseq <= after) continue;
            auto r = resource_of(row, c, false);
            if (!r.deleted || !live.count(r.name)) out.push_back(std::move(r));
        }
        std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.modseq < b.modseq; });
        if (limit && out.size() > limit) out.resize(limit);
        return out;
    }
    std::int64_t live_count(const persistence::dav_collection& c) override {
        return std::count_if(items_.begin(), items_.end(), [&](const auto& row) { return in(row, c) && !row.deleted; });
    }
    std::int64_t user_stored_bytes(const persistence::dav_collection& c) override {
        std::int64_t bytes = 0;
        for (const auto& ds : datastores_) {
            if (ds.tenant != c.tenant.value() || ds.user != c.user.value()) continue;
            for (const auto& row : items_) {
                if (row.tenant == ds.tenant && row.datastore == ds.id && !row.deleted)
                    bytes += static_cast<std::int64_t>(row.content.size());
            }
        }
        return bytes;
    }
    std::vector<persistence::dav_resource> holding_key(const persistence::dav_collection& c,
                                                       const std::string& key) override {
        std::vector<persistence::dav_resource> out;
        for (const auto& row : items_) {
            if (in(row, c) && !row.deleted && std::find(row.keys.begin(), row.keys.end(), key) != row.keys.end())
                out.push_back(resource_of(row, c, false));
        }
        return out;
    }
    persistence::dav_resource create(const persistence::dav_collection& c, const std::string& name,
                                     const std::string& content, const std::vector<std::string>& keys) override {
        for (auto& row : items_) {
            if (in(row, c) && row.name == name) {
                if (!row.deleted) throw std::logic_error("fake_dav_store: a live item has the name " + name);
                row.name.clear();
            }
        }
        auto& row = add_item(c.tenant.value(), c.datastore.value(), content);
        row.name = name;
        row.keys = keys;
        return resource_of(row, c, true);
    }
    std::int64_t replace(const persistence::dav_collection& c, const persistence::dav_resource& current,
                         const std::string& content, const std::vector<std::string>& keys) override {
        auto& row = live(c, current);
        row.content = content;
        row.keys = keys;
        row.modseq = bump(c.datastore.value());
        return row.modseq;
    }
    std::int64_t remove(const persistence::dav_collection& c, const persistence::dav_resource& current) override {
        auto& row = live(c, current);
        row.deleted = true;
        row.modseq = bump(c.datastore.value());
        return row.modseq;
    }

    // For tests: the default datastore of a kind (created when missing), an item written as SyncML writes it (no DAV
    // name).
    datastore_row& datastore(std::int64_t tenant, std::int64_t user, common::item_kind kind) {
        for (auto& ds : datastores_) {
            if (ds.tenant == tenant && ds.user == user && ds.kind == kind && !ds.deleted) return ds;
        }
        return add_datastore(tenant, user, std::string(common::datastore_name(kind)), kind);
    }
    const std::deque<datastore_row>& datastores() const { return datastores_; }
    item_row& add_item(std::int64_t tenant, std::int64_t datastore_id, const std::string& content) {
        item_row row;
        row.tenant = tenant;
        row.datastore = datastore_id;
        row.item_id = static_cast<std::int64_t>(items_.size()) + 1;
        char guid[40];
        std::snprintf(guid, sizeof guid, "6f1c2a3e-0000-4000-8000-%012lld", static_cast<long long>(row.item_id));
        row.guid = guid;
        row.content = content;
        row.modseq = bump(datastore_id);
        items_.push_back(std::move(row));
        return items_.back();
    }
    const std::vector<item_row>& items() const { return items_; }
    std::vector<item_row>& items() { return items_; }

  private:
    static bool in(const item_row& row, const persistence::dav_collection& c) {
        return row.tenant == c.tenant.value() && row.datastore == c.datastore.value();
    }
    static std::string name_of(const item_row& row, const persistence::dav_collection& c) {
        return row.name.empty() ? row.guid + c.suffix : row.name;
    }
    static persistence::dav_resource resource_of(const item_row& row, const persistence::dav_collection& c,
                                                 bool with_content) {
        return {.name = name_of(row, c),
                .guid = row.guid,
                .item_id = row.item_id,
                .modseq = row.modseq,
                .deleted = row.deleted,
                .content = with_content ? row.content : "",
                .content_bytes = row.content.size()};
    }
    std::int64_t bump(std::int64_t datastore_id) {
        for (auto& ds : datastores_) {
            if (ds.id == datastore_id) return ++ds.modseq;
        }
        throw std::logic_error("fake_dav_store: no datastore " + std::to_string(datastore_id));
    }
    datastore_row& add_datastore(std::int64_t tenant, std::int64_t user, std::string name, common::item_kind kind) {
        datastore_row row;
        row.id = ++last_datastore_;
        row.tenant = tenant;
        row.user = user;
        row.name = std::move(name);
        row.kind = kind;
        datastores_.push_back(std::move(row));
        return datastores_.back();
    }
    datastore_row& row_of(const persistence::dav_collection& c) {
        for (auto& ds : datastores_) {
            if (ds.id == c.datastore.value() && ds.user == c.user.value()) return ds;
        }
        throw std::logic_error("fake_dav_store: no datastore " + std::to_string(c.datastore.value()));
    }
    // As the SQL reads it: the default of a kind is the lowest live datastore of the kind.
    persistence::dav_collection collection_of(const datastore_row& ds) const {
        bool is_default = true;
        for (const auto& other : datastores_) {
            if (other.tenant == ds.tenant && other.user == ds.user && other.kind == ds.kind && !other.deleted &&
                other.id < ds.id)
                is_default = false;
        }
        return {.tenant = common::tenant_id{ds.tenant},
                .user = common::user_id{ds.user},
                .datastore = common::datastore_id{ds.id},
                .modseq = ds.modseq,
                .purged_modseq = ds.purged_modseq,
                .suffix = {},
                .name = ds.name,
                .kind = ds.kind,
                .is_default = is_default && !ds.deleted,
                .components = ds.components,
                .properties = ds.properties};
    }
    item_row& live(const persistence::dav_collection& c, const persistence::dav_resource& current) {
        for (auto& row : items_) {
            if (in(row, c) && row.item_id == current.item_id && !row.deleted) return row;
        }
        throw std::logic_error("fake_dav_store: the item is gone");
    }

    std::deque<datastore_row> datastores_;  // a deque: rows stay where they are while others are added
    std::int64_t last_datastore_ = 0;
    std::vector<item_row> items_;
};

}  // namespace syncml::dav::testing
