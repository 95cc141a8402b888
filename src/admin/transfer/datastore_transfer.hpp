#pragma once
// One datastore of a user as the text PIM programs exchange, and back: contacts as vCard 3.0, calendar and tasks as
// iCalendar 2.0, memos as plain texts. `user export`/`user import` (user_transfer.hpp) put these into files; the
// admin API's export and import routes into HTTP bodies.
//
// Import is idempotent: an item whose UID a live item of the datastore has replaces that item when it differs
// (keeps it otherwise), an item without UID that a live item equals is kept, everything else is added with a new
// GUID (import_match.hpp). Adds and replacements are written as a device's Add and Replace are, each with the
// datastore's next modseq, so the user's devices receive them at their next sync.

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/vocabulary/datastore_kind.hpp"
#include "persistence/accounts/user_items.hpp"

namespace syncml::server {

using common::item_kind;

// The user's live items of the datastore, oldest first, each as its file holds it (vCard 3.0, an iCalendar 2.0
// object, plain text).
std::vector<std::string> export_items(persistence::database& db, const persistence::user_ids& ids, item_kind kind);
// The one text of contacts (a .vcf) or calendar and tasks (an .ics: one VCALENDAR, time zones once). Not for memos.
std::string datastore_text(item_kind kind, const std::vector<std::string>& items);
// The items of such a text: vCards, or the components of one UID with their time zones. Not for memos.
std::vector<std::string> split_datastore_text(item_kind kind, const std::string& text);

struct rejected_item {
    int position = 0;  // 1-based, among the items of the text
    std::string reason;
};

// An import's items of one datastore, in stored form, and those refused.
struct datastore_items {
    item_kind kind = item_kind::contact;
    std::vector<std::string> contents;
    std::vector<std::vector<std::string>>
        keys;  // matching::index_keys of each content, computed before any transaction
    std::vector<rejected_item> rejected;
};

// Converts items as export_items gives them to the stored form. An item the codecs cannot read, or a calendar
// item that is not an event (a task that is not a to-do), is rejected with the reason.
datastore_items read_items(item_kind kind, const std::vector<std::string>& items);

struct item_import_counts {
    int added = 0;
    int updated = 0;    // replaced an item of the same UID
    int unchanged = 0;  // equal to a stored item
};

// An import would take a datastore beyond the tenant's max_items_per_datastore, or the user beyond its max_user_bytes.
class import_quota_exceeded : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

// Imports every datastore of `stores` into the user `ids` of `tenant` in one transaction, all or nothing; counts by
// kind. Throws import_quota_exceeded (nothing written) and std::runtime_error when the database fails.
std::map<item_kind, item_import_counts> import_items(persistence::database& db, const std::string& tenant,
                                                     const persistence::user_ids& ids,
                                                     const std::vector<datastore_items>& stores);

}  // namespace syncml::server
