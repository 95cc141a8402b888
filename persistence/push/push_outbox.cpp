#include "persistence/push/push_outbox.hpp"

#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/pg_arrays.hpp"

#include <algorithm>
#include <limits>

namespace syncml::persistence {
namespace {

constexpr const char* k_due =
    "SELECT tenant_id, user_id, device_id FROM push_outbox WHERE pending_since IS NOT NULL AND due_at <= now() "
    "AND (lease_until IS NULL OR lease_until < now()) AND (last_change_at <= now() - make_interval(secs => $1) "
    "OR pending_since <= now() - make_interval(secs => $2)) ORDER BY due_at LIMIT $3";

// SKIP LOCKED: a row another sender is claiming, or a change is updating, is for the next pass. Citus allows only
// immutable expressions in RETURNING (a timestamptz cast to text is not): the times come back as they are.
constexpr const char* k_claim =
    "WITH c AS (SELECT device_id FROM push_outbox WHERE tenant_id = $1 AND user_id = $2 AND device_id = $3 "
    "AND pending_since IS NOT NULL AND due_at <= now() AND (lease_until IS NULL OR lease_until < now()) "
    "FOR UPDATE SKIP LOCKED) "
    "UPDATE push_outbox o SET lease_until = now() + make_interval(secs => $4) FROM c "
    "WHERE o.tenant_id = $1 AND o.user_id = $2 AND o.device_id = $3 AND o.device_id = c.device_id "
    "RETURNING o.changes, o.last_change_at, o.attempts, o.notified_at";

// How long ago the last notification went, when the device has not synced since: a statement of its own, because
// Citus allows no now() in an UPDATE's RETURNING.
constexpr const char* k_unanswered =
    "SELECT floor(extract(epoch FROM now() - $4::timestamptz))::bigint WHERE NOT EXISTS (SELECT 1 FROM device_stores "
    "s WHERE s.tenant_id = $1 AND s.user_id = $2 AND s.device_id = $3 AND s.last_sync_at >= $4::timestamptz)";

// The device, its user and tenant, and its settings; quiet hours in the device's time zone (they may span midnight).
constexpr const char* k_context =
    "SELECT t.name AS tenant_name, t.push_enabled, t.push_daily_budget, u.name AS user_name, "
    "u.disabled_at IS NULL AS user_enabled, d.device_uri, d.devinf, p.phone_number, p.server_password, "
    "p.server_nonce, p.datastores::text AS datastores, p.time_zone, "
    "CASE WHEN p.quiet_start IS NULL OR p.quiet_end IS NULL THEN NULL "
    "WHEN CASE WHEN p.quiet_start <= p.quiet_end THEN l.at::time >= p.quiet_start AND l.at::time < p.quiet_end "
    "ELSE l.at::time >= p.quiet_start OR l.at::time < p.quiet_end END "
    "THEN ceil(extract(epoch FROM (date_trunc('day', l.at) + p.quiet_end + CASE WHEN l.at::time >= p.quiet_end "
    "THEN interval '1 day' ELSE interval '0' END) - l.at))::bigint END AS quiet_for "
    "FROM push_devices p JOIN devices d ON d.tenant_id = p.tenant_id AND d.user_id = p.user_id "
    "AND d.device_id = p.device_id JOIN users u ON u.tenant_id = p.tenant_id AND u.user_id = p.user_id "
    "JOIN tenants t ON t.tenant_id = p.tenant_id CROSS JOIN LATERAL (SELECT now() AT TIME ZONE p.time_zone AS at) l "
    "WHERE p.tenant_id = $1 AND p.user_id = $2 AND p.device_id = $3";

// The device's datastores with a change it has neither seen nor made: the rule of the changes a sync sends it
// (persistence/sync/sync_store_sql.hpp, change_page), so that the device's own changes never wake it.
constexpr const char* k_stores =
    "SELECT DISTINCT ON (d.kind) d.kind, ds.remote_uri FROM device_stores ds JOIN datastores d "
    "ON d.tenant_id = ds.tenant_id AND d.user_id = ds.user_id AND d.datastore_id = ds.datastore_id "
    "WHERE ds.tenant_id = $1 AND ds.user_id = $2 AND ds.device_id = $3 AND d.modseq > ds.last_modseq_seen "
    "AND (cardinality($4::text[]) = 0 OR d.kind = ANY ($4::text[])) "
    "AND EXISTS (SELECT 1 FROM items i LEFT JOIN mappings m ON m.tenant_id = i.tenant_id AND m.user_id = i.user_id "
    "AND m.device_store_id = ds.device_store_id AND m.item_id = i.item_id "
    "WHERE i.tenant_id = $1 AND i.user_id = $2 AND i.datastore_id = d.datastore_id "
    "AND i.modseq > ds.last_modseq_seen "
    "AND (m.item_id IS NULL OR GREATEST(m.last_modseq_sent, m.last_modseq_received) < i.modseq) "
    "AND (NOT i.deleted OR GREATEST(m.last_modseq_sent, m.last_modseq_received) >= 0)) "
    "ORDER BY d.kind, ds.device_store_id";

// The changes the claim saw are announced (or forgotten); later ones stay pending.
#define SYNCML_SETTLED                                                                                  \
    "pending_since = CASE WHEN last_change_at <= $4::timestamptz THEN NULL ELSE pending_since END, "    \
    "changes = CASE WHEN last_change_at <= $4::timestamptz THEN 0 ELSE GREATEST(changes - $5, 0) END, " \
    "attempts = 0, lease_until = NULL, due_at = now(), last_result = $6 "
constexpr const char* k_sent = "UPDATE push_outbox SET " SYNCML_SETTLED
                               ", notified_at = now() WHERE tenant_id = $1 AND user_id = $2 AND device_id = $3";
constexpr const char* k_dropped =
    "UPDATE push_outbox SET " SYNCML_SETTLED " WHERE tenant_id = $1 AND user_id = $2 AND device_id = $3";
#undef SYNCML_SETTLED
constexpr const char* k_postponed =
    "UPDATE push_outbox SET due_at = now() + make_interval(secs => $4), lease_until = NULL, last_result = $5 "
    "WHERE tenant_id = $1 AND user_id = $2 AND device_id = $3";
constexpr const char* k_failed =
    "UPDATE push_outbox SET due_at = now() + make_interval(secs => $4), lease_until = NULL, last_result = $5, "
    "attempts = attempts + 1 WHERE tenant_id = $1 AND user_id = $2 AND device_id = $3";

constexpr const char* k_budget =
    "INSERT INTO push_budget AS b (tenant_id, day, sent) VALUES ($1, (now() AT TIME ZONE 'UTC')::date, 1) "
    "ON CONFLICT (tenant_id, day) DO UPDATE SET sent = b.sent + 1 WHERE b.sent < $2 RETURNING b.sent";

std::optional<std::string> optional_text(const pqxx::field& field) {
    if (field.is_null()) return std::nullopt;
    return field.as<std::string>();
}

std::optional<std::int64_t> optional_number(const pqxx::field& field) {
    if (field.is_null()) return std::nullopt;
    return field.as<std::int64_t>();
}

// "{contacts,calendar}" as PostgreSQL writes a text[] of plain words.
std::vector<std::string> words_of(std::string text) {
    std::vector<std::string> out;
    if (text.size() < 2) return out;
    text = text.substr(1, text.size() - 2);
    for (std::size_t at = 0; !text.empty() && at <= text.size();) {
        const auto comma = std::min(text.find(',', at), text.size());
        out.push_back(text.substr(at, comma - at));
        at = comma + 1;
    }
    return out;
}

void read_context(pqxx::work& tx, claimed_push& c) {
    const auto rows = tx.exec_params(k_context, c.key.tenant, c.key.user, c.key.device);
    if (rows.empty()) return;
    const auto& row = rows[0];
    c.tenant_name = row["tenant_name"].as<std::string>();
    c.tenant_push = row["push_enabled"].as<bool>();
    c.daily_budget = row["push_daily_budget"].as<int>();
    c.user_name = row["user_name"].as<std::string>();
    c.user_enabled = row["user_enabled"].as<bool>();
    c.device_uri = row["device_uri"].as<std::string>();
    if (!row["devinf"].is_null()) c.devinf = pqxx::binarystring(row["devinf"]).str();
    c.settings.phone_number = optional_text(row["phone_number"]);
    c.settings.server_password = row["server_password"].as<std::string>();
    c.settings.server_nonce = row["server_nonce"].as<std::string>();
    c.settings.datastores = words_of(row["datastores"].as<std::string>());
    c.settings.time_zone = row["time_zone"].as<std::string>();
    c.quiet_for_seconds = optional_number(row["quiet_for"]);
    for (const auto& store :
         tx.exec_params(k_stores, c.key.tenant, c.key.user, c.key.device, text_array(c.settings.datastores))) {
        c.stores.push_back({store["kind"].as<std::string>(), store["remote_uri"].as<std::string>()});
    }
}

void settle(database& db, const char* sql, const claimed_push& c, const std::string& result) {
    in_transaction(db, [&](pqxx::work& tx) {
        tx.exec_params0(sql, c.key.tenant, c.key.user, c.key.device, c.last_change_at, c.changes, result);
    });
}

void reschedule(database& db, const char* sql, const claimed_push& c, std::chrono::seconds delay,
                const std::string& result) {
    in_transaction(db, [&](pqxx::work& tx) {
        tx.exec_params0(sql, c.key.tenant, c.key.user, c.key.device, static_cast<double>(delay.count()), result);
    });
}

}  // namespace

std::vector<push_key> due_pushes(database& db, std::chrono::milliseconds settle, std::chrono::milliseconds max_wait,
                                 int limit) {
    return in_transaction(db, [&](pqxx::work& tx) {
        std::vector<push_key> keys;
        for (const auto& row : tx.exec_params(k_due, settle.count() / 1000.0, max_wait.count() / 1000.0, limit)) {
            keys.push_back({row[0].as<std::int64_t>(), row[1].as<std::int64_t>(), row[2].as<std::int64_t>()});
        }
        return keys;
    });
}

std::optional<claimed_push> claim_push(database& db, const push_key& key, std::chrono::seconds lease) {
    return in_transaction(db, [&](pqxx::work& tx) -> std::optional<claimed_push> {
        const auto rows = tx.exec_params(k_claim, key.tenant, key.user, key.device, static_cast<double>(lease.count()));
        if (rows.empty()) return std::nullopt;
        claimed_push c;
        c.key = key;
        c.changes = rows[0]["changes"].as<std::int64_t>();
        c.last_change_at = rows[0]["last_change_at"].as<std::string>();
        c.attempts = rows[0]["attempts"].as<int>();
        if (const auto notified = optional_text(rows[0]["notified_at"])) {
            const auto ago = tx.exec_params(k_unanswered, key.tenant, key.user, key.device, *notified);
            if (!ago.empty()) c.unanswered_for_seconds = ago[0][0].as<std::int64_t>();
        }
        read_context(tx, c);
        return c;
    });
}

void push_sent(database& db, const claimed_push& claimed, const std::string& result) {
    settle(db, k_sent, claimed, result);
}

void push_dropped(database& db, const claimed_push& claimed, const std::string& reason) {
    settle(db, k_dropped, claimed, reason);
}

void push_postponed(database& db, const claimed_push& claimed, std::chrono::seconds delay, const std::string& reason) {
    reschedule(db, k_postponed, claimed, delay, reason);
}

void push_failed(database& db, const claimed_push& claimed, std::chrono::seconds retry_in, const std::string& error) {
    reschedule(db, k_failed, claimed, retry_in, error);
}

bool take_push_budget(database& db, std::int64_t tenant, int daily_budget) {
    // 0: no budget; counted all the same, for the operator's view of the day.
    const int limit = daily_budget > 0 ? daily_budget : std::numeric_limits<int>::max();
    return in_transaction(db, [&](pqxx::work& tx) { return !tx.exec_params(k_budget, tenant, limit).empty(); });
}

std::int64_t pending_pushes(database& db) {
    return in_transaction(db, [](pqxx::work& tx) {
        return tx.exec1("SELECT count(*) FROM push_outbox WHERE pending_since IS NOT NULL")[0].as<std::int64_t>();
    });
}

}  // namespace syncml::persistence
