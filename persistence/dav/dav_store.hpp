#pragma once
// What the CardDAV/CalDAV front end (dav/) needs from the database: a user's datastore seen as a collection of named
// resources. Items are the very rows SyncML syncs; a DAV write is a server change like any other, so every phone
// receives it in its next sync. Free of pqxx so that dav/ is tested with an in-memory fake.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/vocabulary/datastore_kind.hpp"
#include "common/vocabulary/ids.hpp"

namespace syncml::persistence {

using common::item_kind;

class database;

// What a collection says of itself beyond its items (issue 38), set when it is created (MKCALENDAR, extended MKCOL)
// and by PROPPATCH; nullopt: not set (the kind's display name, no description, colour, order or time zone).
struct collection_properties {
    std::optional<std::string> display_name;
    std::optional<std::string> description;  // CALDAV:calendar-description, CARDDAV:addressbook-description
    std::optional<std::string> color;        // Apple's calendar-color, as the client wrote it
    std::optional<std::int64_t> order;       // Apple's calendar-order
    std::optional<std::string> time_zone;    // CALDAV:calendar-timezone: a VCALENDAR with one VTIMEZONE
    bool operator==(const collection_properties&) const = default;
};

// One of the user's datastores, as a DAV collection. Every statement on it names its user, the owner of all its rows
// (on a distributed database the key of the one shard that holds them): a datastore id of another user finds nothing.
struct dav_collection {
    common::tenant_id tenant;
    common::user_id user;
    common::datastore_id datastore;
    std::int64_t modseq = 0;         // the datastore's change counter: ETags, ctag and sync tokens come from it
    std::int64_t purged_modseq = 0;  // tombstones up to this modseq are gone (sync tokens before it are stale)
    std::string suffix;              // ".vcf" or ".ics": the name of an item no DAV client named is GUID + suffix
    // The datastore's name, kind and whether it is its kind's default collection (the lowest of the kind, which
    // SyncML devices sync unless told otherwise; migrations/0037_collections.sql). A default is addressed by its kind's
    // name, any other collection by its own.
    std::string name{};
    item_kind kind = item_kind::contact;
    bool is_default = true;
    // The iCalendar components a calendar takes (VEVENT, VTODO, VJOURNAL); empty: its kind's one.
    std::vector<std::string> components{};
    collection_properties properties{};
};

// A collection to create: a name no collection of the user has, the kind of its items (for a calendar that takes
// several components, the first of VEVENT, VTODO, VJOURNAL it takes), its components and properties.
struct new_collection {
    std::string name;
    item_kind kind = item_kind::event;
    std::vector<std::string> components;
    collection_properties properties;
};

enum class collection_creation { created, name_taken, too_many };

// An item as a DAV resource.
struct dav_resource {
    std::string name;  // within its collection
    std::string guid;
    std::int64_t item_id = 0;
    std::int64_t modseq = 0;
    bool deleted = false;
    std::string content;            // canonical form; empty when not asked for
    std::size_t content_bytes = 0;  // the stored content's size, also when the content is not read: a listing plans
                                    // its batches of contents by it
};

class dav_store {
  public:
    virtual ~dav_store() = default;
    // The user's default collection of `kind`, created when missing.
    virtual dav_collection collection(common::tenant_id tenant, common::user_id user, item_kind kind,
                                      const std::string& suffix) = 0;
    // Every live collection of the user (deleted ones left out, none created), by datastore id; suffixes empty.
    virtual std::vector<dav_collection> collections(common::tenant_id tenant, common::user_id user) = 0;
    // Creates a collection after making sure its kind's default exists (so that it never becomes a default), unless
    // the user has a live collection of that name or `max_collections` live ones already (counted under a lock of
    // the user, so that two creations at once cannot both take the last place).
    virtual collection_creation create_collection(common::tenant_id tenant, common::user_id user,
                                                  const new_collection& created, std::size_t max_collections) = 0;
    // Replaces the collection's properties.
    virtual void set_properties(const dav_collection& c, const collection_properties& properties) = 0;
    // Deletes a collection that is no default: its live items become tombstones one modseq after the other, as DAV
    // deletes of each would make them (devices that sync it receive the deletions), its name is freed and the
    // collection is gone for DAV; the janitor removes the row after the tenant's tombstone retention.
    virtual void delete_collection(const dav_collection& c) = 0;
    // The live resources of these names, with content; locked for update with `for_update`.
    virtual std::vector<dav_resource> named(const dav_collection& c, const std::vector<std::string>& names,
                                            bool for_update) = 0;
    // The same without content (content_bytes set): what a multiget plans its batches of contents by.
    virtual std::vector<dav_resource> named_without_content(const dav_collection& c,
                                                            const std::vector<std::string>& names) = 0;
    // Live resources with an item id above `after_item`, by item id, without content; at most `limit` (0: all). A
    // listing reads the collection in such pages and their contents with named(), a batch at a time.
    virtual std::vector<dav_resource> live_after(const dav_collection& c, std::int64_t after_item,
                                                 std::size_t limit) = 0;
    // Resources written or deleted after modseq `after`, tombstones included, without content, by modseq; at most
    // `limit` (0: all).
    virtual std::vector<dav_resource> changed_since(const dav_collection& c, std::int64_t after, std::size_t limit) = 0;
    // Locks the collection's datastore row until commit, as every item write does when it takes a modseq: checks
    // across items (the item limit, UIDs) made after it see every create that committed before.
    virtual void lock_collection(const dav_collection& c) = 0;
    virtual std::int64_t live_count(const dav_collection& c) = 0;
    // The bytes of the user's live items in all its datastores, as the tenant's quota counts them
    // (persistence/sync/storage_quota.hpp).
    virtual std::int64_t user_stored_bytes(const dav_collection& c) = 0;
    // The live resources whose match keys include `key` ("uid:..."), without content; a few at most.
    virtual std::vector<dav_resource> holding_key(const dav_collection& c, const std::string& key) = 0;
    // A new item named `name` (which no live resource has; a tombstone holding it gives it up). The result has the
    // item's GUID, id and modseq.
    virtual dav_resource create(const dav_collection& c, const std::string& name, const std::string& content,
                                const std::vector<std::string>& match_keys) = 0;
    // New content for a live resource; returns its new modseq.
    virtual std::int64_t replace(const dav_collection& c, const dav_resource& current, const std::string& content,
                                 const std::vector<std::string>& match_keys) = 0;
    // Deletes a live resource (a tombstone stays for the devices); returns the deletion's modseq.
    virtual std::int64_t remove(const dav_collection& c, const dav_resource& current) = 0;
};

// Runs `work` in one transaction (retried on serialization failures and lost connections, so `work` must have no
// effect outside it) and commits. Throws db_error.
void run_dav_transaction(database& db, const std::function<void(dav_store&)>& work);

}  // namespace syncml::persistence
