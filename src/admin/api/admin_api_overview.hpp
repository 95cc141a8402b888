#pragma once
// The routes the admin web page needs besides the CLI's operations (admin_api_handlers.hpp): the instance's status,
// its SyncML activity of the last hour, recent failed logins, a tenant's devices and users a page at a time, and
// the admin tokens. Failures are thrown as admin_api_handlers.hpp says.

#include "src/admin/api/admin_api_handlers.hpp"

namespace syncml::server {

// GET /status, /activity, /failed-logins, /tenants/{t}/devices, /tenants/{t}/users?limit=&after=.
admin_result run_overview_op(persistence::database& db, const admin_call& call);
// The users route: a page when limit or after is given, else every user as before.
admin_result list_users_of(persistence::database& db, const admin_call& call);
// GET, POST /tokens and DELETE /tokens/{token}: a tenant token sees, creates and deletes its tenant's tokens only.
admin_result run_token_op(persistence::database& db, const admin_call& call);

// "YYYY-MM-DDTHH:MM:SSZ" of seconds since the epoch.
std::string iso_utc(std::int64_t seconds);

}  // namespace syncml::server
