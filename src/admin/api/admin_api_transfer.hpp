#pragma once
// The admin API's export and import of one datastore of a user (datastore_transfer.hpp):
//   GET  .../users/{user}/export/{datastore}  contacts: text/vcard (vCard 3.0), calendar and tasks: text/calendar
//                                             (one iCalendar 2.0 object), memos: application/json, an array of
//                                             strings, one memo's plain text each
//   POST .../users/{user}/import/{datastore}  the same body formats; answers the counts as JSON
// Memos travel as JSON because plain texts have no separator that a memo could not contain. They are UTF-8 text: a
// byte that is not UTF-8 (from a device that sent another charset) is exported as the text "\xNN".

#include "src/admin/api/admin_api_handlers.hpp"

namespace syncml::server {

// Bodies of the import routes may be this large (a realistic address book with photos); every other admin request's
// body is limited to k_admin_body_limit.
inline constexpr std::size_t k_admin_import_body_limit = 32 * 1024 * 1024;

admin_result export_datastore(persistence::database& db, const admin_call& call);
admin_result import_datastore(persistence::database& db, const admin_call& call);

}  // namespace syncml::server
