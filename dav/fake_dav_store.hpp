#pragma once
// Test support: persistence::dav_store in memory, with the PostgreSQL store's semantics
// (persistence/dav/dav_store.cpp): one modseq counter per datastore bumped by every write, tombstones kept with their
// name, a resource named by its dav_names entry else by GUID + suffix, names released by tombstones when a new item
// takes them.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
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
    };

    persistence::dav_collection collection(common::tenant_id tenant, common::user_id user, common::item_kind kind,
                                           const std::string& suffix) override {
        auto& ds = datastore(tenant.value(), user.value(), kind);
        return {.tenant = tenant,
                .user = user,
                .datastore = common::datastore_id{ds.id},
                .modseq = ds.modseq,
                .purged_modseq = ds.purged_modseq,
                .suffix = suffix};
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
        for (const auto& [key, ds] : datastores_) {
            const auto& [tenant, user, kind] = key;
            if (tenant != c.tenant.value() || user != c.user.value()) continue;
            for (const auto& row : items_) {
                if (row.tenant == tenant && row.datastore == ds.id && !row.deleted)
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

    // For tests: the datastore row (created when missing), an item written as SyncML writes it (no DAV name).
    datastore_row& datastore(std::int64_t tenant, std::int64_t user, common::item_kind kind) {
        auto [at, added] = datastores_.try_emplace({tenant, user, kind});
        if (added) at->second.id = ++last_datastore_;
        return at->second;
    }
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
        for (auto& [key, ds] : datastores_) {
            if (ds.id == datastore_id) return ++ds.modseq;
        }
        throw std::logic_error("fake_dav_store: no datastore " + std::to_string(datastore_id));
    }
    item_row& live(const persistence::dav_collection& c, const persistence::dav_resource& current) {
        for (auto& row : items_) {
            if (in(row, c) && row.item_id == current.item_id && !row.deleted) return row;
        }
        throw std::logic_error("fake_dav_store: the item is gone");
    }

    std::map<std::tuple<std::int64_t, std::int64_t, common::item_kind>, datastore_row> datastores_;
    std::int64_t last_datastore_ = 0;
    std::vector<item_row> items_;
};

}  // namespace syncml::dav::testing
