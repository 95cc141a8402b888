#include "persistence/sync/detail/item_batch.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/pg_arrays.hpp"
#include "persistence/sync/item_batch_sql.hpp"

namespace syncml::persistence {
namespace {

using std::int64_t;

// Applies one batch: content first (modseqs, items, keys), then mappings, as the per-item calls would.
// Existing items are addressed by id (the primary key) once known.
class batch_writer {
  public:
    batch_writer(pqxx::work& tx, int64_t tenant, int64_t owner, int64_t datastore, int64_t device_store,
                 const std::vector<item_write>& writes)
        : tx_(tx), tenant_(tenant), owner_(owner), datastore_(datastore), device_store_(device_store), writes_(writes) {
        for (const auto& w : writes_) {
            done_.push_back({w.guid, w.modseq});
            ids_.push_back(w.item_id);
        }
        skipped_.assign(writes_.size(), false);
    }

    std::vector<written_item> run() {
        find_ids();
        plan_content();
        if (std::any_of(writes_.begin(), writes_.end(), [](const item_write& w) { return w.content.has_value(); })) {
            take_modseqs();
            insert_adds();
            replace_existing();
            count_stored_bytes();
            write_keys();
        }
        write_mappings();
        analyze_fresh_tables();
        return std::move(done_);
    }

  private:
    void find_ids() {
        std::vector<std::string> guids;
        for (std::size_t i = 0; i < writes_.size(); ++i) {
            if ((ids_[i] == 0 || writes_[i].at_current) && !writes_[i].guid.empty()) guids.push_back(writes_[i].guid);
        }
        if (guids.empty()) return;
        std::map<std::string, pqxx::row> found;
        auto rows = exec_sql(tx_, sql::items_by_guid, tenant_, datastore_, text_array(guids), owner_);
        for (const auto& row : rows) found.emplace(row[1].as<std::string>(), row);
        for (std::size_t i = 0; i < writes_.size(); ++i) {
            if ((ids_[i] != 0 && !writes_[i].at_current) || writes_[i].guid.empty()) continue;
            auto it = found.find(writes_[i].guid);
            bool map_current = writes_[i].at_current && !writes_[i].content;
            auto at_most = writes_[i].at_most;
            if (map_current && (it == found.end() || (it->second["deleted"].as<bool>() && at_most < 0))) {
                skipped_[i] = true;  // a deleted or unknown item: the write does nothing at all
                done_[i].missing = true;
                ids_[i] = 0;
                continue;
            }
            if (it == found.end()) continue;
            if (map_current) {
                auto modseq = it->second["modseq"].as<int64_t>();
                done_[i].modseq = at_most < 0 ? modseq : std::min(modseq, at_most);
            }
            ids_[i] = it->second[0].as<int64_t>();
        }
    }

    // Every add writes; of several replaces of one item only the last does (it would overwrite the
    // others within the same transaction anyway). A replace of an item that is gone writes nothing.
    void plan_content() {
        for (std::size_t i = 0; i < writes_.size(); ++i) {
            if (!writes_[i].content) continue;
            if (writes_[i].guid.empty()) {
                adds_.push_back(i);
            } else if (ids_[i] != 0) {
                last_replace_[ids_[i]] = i;
            }
        }
        for (const auto& [id, i] : last_replace_) replaces_.push_back(i);
        std::sort(replaces_.begin(), replaces_.end());
    }

    // One bump for the batch; every write with content takes the next modseq in order, as replace_item takes
    // one even for an item that is gone.
    void take_modseqs() {
        int64_t count = 0;
        for (const auto& w : writes_) count += w.content ? 1 : 0;
        auto next = exec_sql1(tx_, sql::bump_by, tenant_, datastore_, count, owner_)[0].as<int64_t>() - count + 1;
        for (std::size_t i = 0; i < writes_.size(); ++i) {
            if (writes_[i].content) new_modseq_[i] = next++;
        }
    }

    void insert_adds() {
        if (adds_.empty()) return;
        std::vector<std::string> types, contents;
        std::vector<int64_t> modseqs;
        std::map<int64_t, std::size_t> by_modseq;
        for (auto i : adds_) {
            types.push_back(content_type_of(*writes_[i].content));
            contents.push_back(*writes_[i].content);
            modseqs.push_back(new_modseq_.at(i));
            by_modseq[modseqs.back()] = i;
        }
        auto packed = pack_texts(contents);
        auto rows =
            exec_sql(tx_, sql::insert_items, tenant_, datastore_, text_array(types), pqxx::binarystring(packed.bytes),
                     bigint_array(packed.starts), bigint_array(packed.lengths), bigint_array(modseqs), owner_);
        if (rows.size() != adds_.size()) throw std::logic_error("item batch: inserted rows do not match the adds");
        for (const auto& row : rows) {
            auto i = by_modseq.at(row[2].as<int64_t>());
            done_[i] = {row[1].as<std::string>(), row[2].as<int64_t>()};
            ids_[i] = row[0].as<int64_t>();
            stored_growth_ += row["bytes"].as<int64_t>();
            add_keys(i);
        }
    }

    // Items deleted meanwhile stay deleted; their writes keep the stored modseq, as replace_item would.
    void replace_existing() {
        if (replaces_.empty()) return;
        std::vector<std::string> types, contents;
        std::vector<int64_t> ids, modseqs;
        for (auto i : replaces_) {
            ids.push_back(ids_[i]);
            types.push_back(content_type_of(*writes_[i].content));
            contents.push_back(*writes_[i].content);
            modseqs.push_back(new_modseq_.at(i));
        }
        auto packed = pack_texts(contents);
        auto rows = exec_sql(tx_, sql::replace_items, tenant_, bigint_array(ids), text_array(types),
                             pqxx::binarystring(packed.bytes), bigint_array(packed.starts),
                             bigint_array(packed.lengths), bigint_array(modseqs), owner_);
        if (rows.size() > replaces_.size()) throw std::logic_error("item batch: replaced rows do not match");
        std::set<int64_t> written;
        for (const auto& row : rows) {
            auto i = last_replace_.at(row[0].as<int64_t>());
            stored_growth_ += row["growth"].as<int64_t>();
            written.insert(ids_[i]);
            rekeyed_.push_back(ids_[i]);
            add_keys(i);
        }
        // Each replace of a written item reports the modseq it took; the item keeps the last one.
        for (std::size_t i = 0; i < writes_.size(); ++i) {
            if (writes_[i].content && !writes_[i].guid.empty() && written.count(ids_[i]))
                done_[i].modseq = new_modseq_.at(i);
        }
    }

    // The datastore's stored_bytes follow its live items, in the transaction that took their modseqs.
    void count_stored_bytes() {
        if (stored_growth_ != 0) exec_sql0(tx_, sql::add_stored_bytes, tenant_, datastore_, stored_growth_, owner_);
    }

    // Without duplicates, the insert needs no ON CONFLICT: the item is new, or its old keys were dropped first.
    void add_keys(std::size_t write) {
        std::set<std::string_view> seen;
        for (const auto& key : writes_[write].match_keys) {
            if (!seen.insert(key).second) continue;
            keys_.push_back(key);
            key_items_.push_back(ids_[write]);
        }
    }

    void write_keys() {
        if (!rekeyed_.empty()) exec_sql0(tx_, sql::drop_keys_of_items, tenant_, bigint_array(rekeyed_), owner_);
        if (!keys_.empty())
            exec_sql0(tx_, sql::insert_keys, tenant_, datastore_, text_array(keys_), bigint_array(key_items_), owner_);
    }

    // set_mapping drops every mapping of the LUID and of the item before inserting one: over the whole batch
    // that is dropping the mappings of all its LUIDs and items, then inserting each mapping no later write
    // replaces (none shares its LUID or item).
    void write_mappings() {
        std::vector<std::string> luids;
        std::vector<int64_t> held;
        for (std::size_t i = 0; i < writes_.size(); ++i) {
            if (writes_[i].luid.empty() || skipped_[i]) continue;
            luids.push_back(writes_[i].luid);
            if (!writes_[i].guid.empty() && ids_[i] != 0) held.push_back(ids_[i]);
        }
        if (luids.empty()) return;
        exec_sql0(tx_, sql::drop_mappings, tenant_, device_store_, text_array(luids), bigint_array(held), owner_);
        std::set<std::string> seen_luids;
        std::set<int64_t> seen_ids;
        std::vector<std::string> map_luids;
        std::vector<int64_t> map_ids, revisions, sent_by_device;
        for (auto i = writes_.size(); i-- > 0;) {
            const auto& luid = writes_[i].luid;
            if (luid.empty() || skipped_[i] || ids_[i] == 0 || !seen_luids.insert(luid).second ||
                !seen_ids.insert(ids_[i]).second)
                continue;
            auto modseq = done_[i].modseq;
            map_luids.push_back(luid);
            map_ids.push_back(ids_[i]);
            revisions.push_back(writes_[i].send_back && modseq > 0 ? modseq - 1 : modseq);
            // A Map's mapping is of an item the device received: it records nothing the device itself sent.
            bool received = writes_[i].at_current && !writes_[i].content;
            sent_by_device.push_back(received ? -1 : revisions.back());
        }
        if (map_luids.empty()) return;
        mapped_ = map_luids.size();
        exec_sql0(tx_, sql::insert_mappings, tenant_, device_store_, text_array(map_luids), bigint_array(map_ids),
                  bigint_array(revisions), bigint_array(sent_by_device), owner_);
    }

    // A table without statistics that this batch wrote a fair number of rows into is analyzed, so that the next
    // statements (and the generic plans of prepared ones, which ANALYZE invalidates) probe the unique indexes.
    // Once all have statistics the process (the databases sharing its profile) stops asking.
    void analyze_fresh_tables() {
        auto& profile = profile_of(tx_);
        // Distributed, the coordinator's tables hold no rows and would never count as analyzed; the nodes' own
        // autovacuum analyzes the shards.
        if (profile.distributed_schema()) return;
        std::map<std::string, std::size_t> written{
            {"items", adds_.size()}, {"item_match_keys", keys_.size()}, {"mappings", mapped_}};
        if (profile.all_analyzed() ||
            std::none_of(written.begin(), written.end(), [](const auto& w) { return w.second >= k_analyze_after; }))
            return;
        std::string tables;
        auto rows = exec_sql(tx_, sql::tables_without_statistics);
        for (const auto& row : rows) {
            auto found = written.find(row[0].as<std::string>());
            if (found == written.end() || found->second < k_analyze_after) continue;
            tables += (tables.empty() ? "ANALYZE " : ", ") + found->first;
        }
        if (rows.empty()) profile.found_all_analyzed();
        if (!tables.empty()) tx_.exec0(tables);  // utility statements cannot be prepared
    }

    // Rows: even a small batch's statistics tell the planner which indexes are unique, and table growth
    // is scaled in by its size in pages.
    static constexpr std::size_t k_analyze_after = 1;

    pqxx::work& tx_;
    int64_t tenant_, owner_, datastore_, device_store_;
    std::size_t mapped_ = 0;     // mappings inserted
    int64_t stored_growth_ = 0;  // bytes the adds and replaces added to the datastore's live items
    const std::vector<item_write>& writes_;
    std::vector<written_item> done_;
    std::vector<int64_t> ids_;  // per write: the item's id, 0 while unknown or when the item is gone
    std::vector<bool>
        skipped_;  // per write: an at_current mapping of an item that is gone (or deleted, without at_most)
    std::vector<std::size_t> adds_, replaces_;
    std::map<int64_t, std::size_t> last_replace_;  // item id -> index of its last replace
    std::map<std::size_t, int64_t> new_modseq_;
    std::vector<int64_t> rekeyed_;  // replaced items, whose old keys go
    std::vector<std::string> keys_;
    std::vector<int64_t> key_items_;
};

}  // namespace

std::string content_type_of(const std::string& content) {
    if (content.find("BEGIN:VCARD") != std::string::npos) return "text/vcard";
    if (content.find("BEGIN:VCALENDAR") != std::string::npos) return "text/calendar";
    return "text/plain";
}

std::vector<written_item> write_item_batch(pqxx::work& tx, int64_t tenant, int64_t owner, int64_t datastore,
                                           int64_t device_store, const std::vector<item_write>& writes) {
    for (const auto& w : writes) {
        if (w.guid.empty() && !w.content) throw std::invalid_argument("item batch: an add needs content");
    }
    return batch_writer(tx, tenant, owner, datastore, device_store, writes).run();
}

}  // namespace syncml::persistence
