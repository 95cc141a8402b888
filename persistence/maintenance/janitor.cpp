#include "persistence/maintenance/janitor.hpp"

#include <cstdint>
#include <vector>

#include "persistence/maintenance/janitor_sql.hpp"
#include "persistence/pg/detail/connection_access.hpp"

namespace syncml::persistence {

namespace {

std::vector<std::int64_t> tenant_ids(database& db) {
    return in_transaction(db, [](pqxx::work& tx) {
        std::vector<std::int64_t> ids;
        for (const auto& row : tx.exec("SELECT tenant_id FROM tenants")) ids.push_back(row[0].as<std::int64_t>());
        return ids;
    });
}

// Runs `statement` for the tenant in transactions of at most `batch` rows until fewer come back; returns the sum.
template <class... Args>
std::size_t in_batches(database& db, const char* statement, std::int64_t tenant, std::size_t batch, Args... args) {
    std::size_t total = 0;
    for (;;) {
        const auto count = in_transaction(db, [&](pqxx::work& tx) {
            return tx.exec_params(statement, tenant, static_cast<std::int64_t>(batch), args...).affected_rows();
        });
        total += count;
        if (count < batch) return total;
    }
}

bool take_lease(database& db, const std::string& holder, std::chrono::seconds lease) {
    return in_transaction(db, [&](pqxx::work& tx) {
        return !tx.exec_params(sql::take_janitor_lease, holder, static_cast<double>(lease.count())).empty();
    });
}

void purge_tombstones(database& db, std::int64_t tenant, std::size_t batch, janitor_report& report) {
    for (;;) {
        const auto [purged, reset] = in_transaction(db, [&](pqxx::work& tx) {
            const auto row = tx.exec_params1(sql::purge_tombstones, tenant, static_cast<std::int64_t>(batch));
            return std::pair{row[0].as<std::size_t>(), row[1].as<std::size_t>()};
        });
        report.tombstones += purged;
        report.slow_syncs_forced += reset;
        if (purged < batch) return;
    }
}

std::size_t delete_old_audit_entries(database& db, std::size_t batch, std::chrono::seconds age) {
    std::size_t total = 0;
    for (;;) {
        const auto count = in_transaction(db, [&](pqxx::work& tx) {
            return tx
                .exec_params(sql::delete_old_audit_entries, static_cast<std::int64_t>(batch),
                             static_cast<double>(age.count()))
                .affected_rows();
        });
        total += count;
        if (count < batch) return total;
    }
}

const char* expired_sessions_statement(const database& db) {
    return db.distributed_schema_in_use() ? sql::delete_expired_sessions_distributed : sql::delete_expired_sessions;
}

}  // namespace

std::size_t delete_expired_sessions(database& db, std::size_t batch) {
    if (batch == 0) batch = 1;
    std::size_t deleted = 0;
    for (const auto tenant : tenant_ids(db)) {
        deleted += in_batches(db, expired_sessions_statement(db), tenant, batch);
        deleted += in_batches(db, sql::delete_expired_resume_pointers, tenant, batch);
    }
    return deleted;
}

janitor_report run_janitor(database& db, const std::string& holder, const janitor_settings& settings) {
    janitor_report report;
    if (!take_lease(db, holder, settings.lease)) return report;
    report.ran = true;
    const auto batch = settings.batch == 0 ? std::size_t{1} : settings.batch;
    for (const auto tenant : tenant_ids(db)) {
        report.sessions += in_batches(db, expired_sessions_statement(db), tenant, batch);
        report.resume_pointers += in_batches(db, sql::delete_expired_resume_pointers, tenant, batch);
        report.auth_failures += in_batches(db, sql::delete_old_auth_failures, tenant, batch,
                                           static_cast<double>(settings.auth_failure_age.count()));
        report.known_clients += in_batches(db, sql::delete_old_known_clients, tenant, batch);
        report.session_routes += in_batches(db, sql::delete_old_session_routes, tenant, batch);
        report.session_routes += in_batches(db, sql::delete_old_session_starts, tenant, batch);
        report.chunks += in_batches(db, sql::delete_abandoned_chunks, tenant, batch,
                                    static_cast<double>(settings.chunk_age.count()));
        purge_tombstones(db, tenant, batch, report);
        report.collections += in_batches(db, sql::purge_deleted_collections, tenant, batch);
    }
    report.audit_entries = delete_old_audit_entries(db, batch, settings.audit_age);
    in_transaction(db, [&](pqxx::work& tx) { tx.exec_params0(sql::release_janitor_lease, holder); });
    return report;
}

}  // namespace syncml::persistence
