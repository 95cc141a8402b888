#include "src/admin/transfer/datastore_transfer.hpp"

#include <optional>
#include <variant>

#include "matching/convert/item_convert.hpp"
#include "matching/convert/item_format.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/sync/storage_quota.hpp"
#include "persistence/sync/sync_store.hpp"
#include "src/admin/transfer/import_match.hpp"
#include "src/admin/transfer/pim_text.hpp"

namespace syncml::server {
namespace {

struct file_format {
    const char* mime;
    const char* version;
    matching::item_dialect dialect;
};

file_format format_of(item_kind kind) {
    if (kind == item_kind::contact) return {"text/vcard", "3.0", matching::item_dialect::vcard30};
    if (kind == item_kind::memo) return {"text/plain", "", matching::item_dialect::plain_text};
    return {"text/calendar", "2.0", matching::item_dialect::ical20};
}

// The item as a datastore of `kind` stores it, or why it cannot be imported there.
std::variant<matching::item, std::string> parse_for(item_kind kind, const std::string& item) {
    auto parsed = matching::parse_item(item, format_of(kind).dialect);
    if (!parsed) return parsed.error().to_string();
    const auto found = matching::kind_of(*parsed);
    if (kind == item_kind::event && found != item_kind::event) return std::string("not an event (VEVENT)");
    if (kind == item_kind::task && found != item_kind::task) return std::string("not a to-do (VTODO)");
    return std::move(*parsed);
}

// The index keys of the stored form of `item`, parsed as `parsed`: that parse serves when the stored form is the
// item itself in the same dialect (vCard 3.0, iCalendar 2.0), so that most items are parsed once.
std::vector<std::string> keys_of(const std::string& content, const std::string& item, const matching::item& parsed,
                                 matching::item_dialect dialect) {
    if (content == item && matching::detect_dialect(content) == dialect) return matching::index_keys(content, &parsed);
    const auto reparsed = matching::parse_canonical(content);
    return matching::index_keys(content, reparsed ? &*reparsed : nullptr);
}

struct planned_item {
    std::string content;
    std::vector<std::string> keys;  // matching::index_keys
    import_decision decision;
};

// Decides what becomes of each item against the datastore's live items; later items see the earlier ones (a
// placeholder "#n" stands for the GUID the n-th add will get).
std::vector<planned_item> plan(persistence::sync_store& store, std::int64_t tenant, std::int64_t datastore,
                               const datastore_items& stored) {
    std::vector<planned_item> items;
    std::vector<std::string> wanted;
    for (std::size_t i = 0; i < stored.contents.size(); ++i) {
        const auto id = import_keys_of(stored.keys[i]);
        if (!id.uid.empty()) wanted.push_back(id.uid);
        wanted.push_back(id.content);
        items.push_back({.content = stored.contents[i], .keys = stored.keys[i], .decision = {}});
    }
    import_matcher matcher(store.twin_candidates(tenant, datastore, 0, wanted));
    int adds = 0;
    for (auto& item : items) {
        const auto id = import_keys_of(item.keys);
        item.decision = matcher.decide(id);
        if (item.decision.action == import_action::add) item.decision.guid = "#" + std::to_string(adds++);
        if (item.decision.action != import_action::keep) matcher.record(id, item.decision.guid);
    }
    return items;
}

// One batch of writes (sync_store::write_items: a fixed number of statements, whatever the size of the import).
item_import_counts write(persistence::sync_store& store, std::int64_t tenant, std::int64_t datastore,
                         const std::vector<planned_item>& items) {
    item_import_counts counts;
    std::vector<persistence::item_write> writes;
    std::map<std::string, std::size_t> add_at;  // placeholder -> its write
    for (const auto& item : items) {
        const auto& d = item.decision;
        if (d.action == import_action::keep) {
            ++counts.unchanged;
            continue;
        }
        ++(d.action == import_action::add ? counts.added : counts.updated);
        if (d.action == import_action::replace && d.guid.starts_with('#')) {
            // A later item of the same UID in this import: the add takes its content.
            auto& add = writes.at(add_at.at(d.guid));
            add.content = item.content;
            add.match_keys = item.keys;
            continue;
        }
        if (d.action == import_action::add) add_at[d.guid] = writes.size();
        persistence::item_write w;
        w.guid = d.action == import_action::add ? std::string() : d.guid;
        w.content = item.content;
        w.match_keys = item.keys;
        writes.push_back(std::move(w));
    }
    if (!writes.empty()) store.write_items(tenant, datastore, 0, writes);
    return counts;
}

// Each datastore's plan, against the tenant's item quota: an import that would go beyond it throws before anything
// is written.
std::vector<std::pair<std::int64_t, std::vector<planned_item>>> plan_all(persistence::sync_store& store,
                                                                         const persistence::user_ids& ids,
                                                                         const std::vector<datastore_items>& stores,
                                                                         std::int64_t limit) {
    std::vector<std::pair<std::int64_t, std::vector<planned_item>>> plans;
    for (const auto& items : stores) {
        const auto datastore = store.datastore(ids.tenant, ids.user, items.kind);
        auto planned = plan(store, ids.tenant, datastore, items);
        const auto adds = std::count_if(planned.begin(), planned.end(),
                                        [](const auto& p) { return p.decision.action == import_action::add; });
        // The tenant's quota holds for imports as for a phone's Adds: all of them or none.
        if (adds > 0 && store.live_items(ids.tenant, datastore, limit) + adds > limit) {
            throw import_quota_exceeded("importing " + std::to_string(adds) + " new items into " +
                                        std::string(common::datastore_name(items.kind)) +
                                        " would exceed the tenant's max-items-per-datastore (" + std::to_string(limit) +
                                        "); nothing was imported");
        }
        plans.emplace_back(datastore, std::move(planned));
    }
    return plans;
}

}  // namespace

std::vector<std::string> export_items(persistence::database& db, const persistence::user_ids& ids, item_kind kind) {
    const auto format = format_of(kind);
    std::vector<std::string> items;
    for (const auto& item : persistence::live_user_items(db, ids, kind)) {
        items.push_back(matching::to_device(item.content, format.mime, format.version, kind));
    }
    return items;
}

std::string datastore_text(item_kind kind, const std::vector<std::string>& items) {
    if (kind != item_kind::contact) return join_icalendar(items);
    std::string text;
    for (const auto& card : items) {
        text += card;
        if (!card.empty() && card.back() != '\n') text += "\r\n";
    }
    return text;
}

std::vector<std::string> split_datastore_text(item_kind kind, const std::string& text) {
    return kind == item_kind::contact ? split_vcards(text) : split_icalendar(text);
}

datastore_items read_items(item_kind kind, const std::vector<std::string>& items) {
    const auto format = format_of(kind);
    datastore_items out{.kind = kind, .contents = {}, .keys = {}, .rejected = {}};
    int position = 0;
    for (const auto& item : items) {
        ++position;
        auto parsed = parse_for(kind, item);
        if (auto* why = std::get_if<std::string>(&parsed)) {
            out.rejected.push_back({.position = position, .reason = std::move(*why)});
            continue;
        }
        auto content = matching::to_canonical(item, format.mime, format.version, kind);
        out.keys.push_back(keys_of(content, item, std::get<matching::item>(parsed), format.dialect));
        out.contents.push_back(std::move(content));
    }
    return out;
}

std::map<item_kind, item_import_counts> import_items(persistence::database& db, const std::string& tenant,
                                                     const persistence::user_ids& ids,
                                                     const std::vector<datastore_items>& stores) {
    const auto tenant_info = persistence::find_tenant(db, tenant);
    const std::int64_t limit = tenant_info ? tenant_info->settings.max_items_per_datastore : 0;
    const std::int64_t max_user_bytes = tenant_info ? tenant_info->settings.max_user_bytes : 0;
    std::map<item_kind, item_import_counts> counts;
    const bool done = persistence::run_sync_transaction(db, ids.user, [&](persistence::sync_store& store) {
        counts.clear();
        const auto held = store.user_stored_bytes(ids.tenant);
        const auto plans = plan_all(store, ids, stores, limit);
        for (std::size_t i = 0; i < stores.size(); ++i) {
            counts[stores[i].kind] = write(store, ids.tenant, plans[i].first, plans[i].second);
        }
        // And the user's byte quota, the whole import taken as one write: what it stored is counted by now, and
        // throwing undoes it.
        const persistence::item_growth import{.before = 0, .after = store.user_stored_bytes(ids.tenant) - held};
        if (!persistence::quota_allows(max_user_bytes, held, import)) {
            throw import_quota_exceeded("the import would take the user's items to " +
                                        std::to_string(held + import.after) +
                                        " bytes, beyond the tenant's max-user-bytes (" +
                                        std::to_string(max_user_bytes) + "); nothing was imported");
        }
    });
    if (!done) throw std::runtime_error("the database failed; nothing was imported");
    return counts;
}

}  // namespace syncml::server
