#pragma once
// `admin user export` and `user import --in`: a user's items as files a PIM program reads. contacts.vcf (every
// contact, vCard 3.0), calendar.ics and tasks.ics (one iCalendar 2.0 object each, time zones once), memos/NNNN.txt
// (one memo per file). Import reads the same layout (files that are missing count as empty) and imports every
// datastore in one transaction as datastore_transfer.hpp does: items new to the user get new GUIDs, items it holds
// already (same UID, or identical content without UID) are replaced when they differ and kept otherwise, so that
// importing twice adds nothing; the user's devices receive the changes at their next sync.

#include <string>
#include <vector>

#include "src/admin/transfer/datastore_transfer.hpp"

namespace syncml::persistence {
class database;
}

namespace syncml::server {

struct transfer_counts {
    int contacts = 0;  // items found in the files (export: written)
    int events = 0;
    int tasks = 0;
    int memos = 0;
    item_import_counts imported;        // import: summed over the datastores
    std::vector<std::string> rejected;  // import: "contacts.vcf item 3: line 2: ..." for each item refused
};

// Writes into `dir` (created when missing; std::invalid_argument when it holds anything already). Files are 0600.
// Both read and write under the rules of common/files/operator_file.hpp (common::file_refused: a link, a directory
// someone else may write to).
transfer_counts export_user(persistence::database& db, const std::string& tenant, const std::string& user,
                            const std::string& dir);
transfer_counts import_user(persistence::database& db, const std::string& tenant, const std::string& user,
                            const std::string& dir);

}  // namespace syncml::server
