#include "persistence/sync/detail/sync_store_session.hpp"

#include <stdexcept>

#include "persistence/pg/database.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/sync/sync_store_session_sql.hpp"

namespace syncml::persistence {
namespace {

using std::int64_t;

std::string bytes_of(const pqxx::field& field) {
    if (field.is_null()) return {};
    pqxx::binarystring b(field);
    return b.str();
}

// The columns of sql::lock_session and friends.
session_record session_of(const pqxx::row& row) {
    session_record s;
    s.id = row[0].as<int64_t>();
    s.session_id = row[1].as<std::string>();
    s.device_uri = row[2].as<std::string>();
    s.user_id = row[3].as<int64_t>();
    s.state = bytes_of(row[4]);
    s.last_msg_id = row[5].as<std::string>();
    s.last_reply = bytes_of(row[6]);
    s.last_reply_type = row[7].as<std::string>();
    s.device.id = row[8].as<int64_t>();
    s.device_user_id = row[9].as<int64_t>();
    s.device.nonce = bytes_of(row[10]);
    s.device.devinf = bytes_of(row[11]);
    s.superseded = row[12].as<bool>();
    s.last_request_digest = bytes_of(row["r_last_request_digest"]);
    return s;
}

// The columns of sql::open_collection_store.
device_store_record device_store_of(const pqxx::row& row) {
    device_store_record ds{
        row[0].as<int64_t>(), row[1].as<int64_t>(), row[2].as<std::string>(), row[3].as<std::string>(),
        row[4].as<int64_t>(), row[5].as<bool>(),    row[6].as<std::string>(), {}};
    ds.previous_client_anchor = row[7].as<std::string>();
    ds.previous_seen_modseq = row[8].as<int64_t>();
    ds.window = {row[9].as<int>(), row[10].as<int>(), row[11].as<int>(), row[12].as<int>()};
    ds.other_kinds = row["r_other_kinds"].as<bool>();
    return ds;
}

std::optional<session_record> first_session(const pqxx::result& rows) {
    if (rows.empty()) return std::nullopt;
    return session_of(rows[0]);
}

}  // namespace

void pg_session_store::bind_owner(int64_t user) {
    if (user == 0 || user == owner_) return;
    if (owner_ != 0) throw std::logic_error("a message's transaction touched the rows of a second user");
    owner_ = user;
}

device_record pg_session_store::device(int64_t tenant, int64_t user, const std::string& device_uri) {
    bind_owner(user);
    auto row = exec_sql1(tx_, sql::upsert_device, tenant, user, device_uri);
    return {row[0].as<int64_t>(), bytes_of(row[1]), bytes_of(row[2])};
}

void pg_session_store::set_device_nonce(int64_t tenant, int64_t device, const std::string& nonce) {
    exec_sql0(tx_, sql::set_nonce, tenant, device, pqxx::binarystring(nonce), owner_);
}

void pg_session_store::set_device_devinf(int64_t tenant, int64_t device, const std::string& devinf) {
    exec_sql0(tx_, sql::set_devinf, tenant, device, pqxx::binarystring(devinf), owner_);
}

std::optional<session_record> pg_session_store::lock_session(int64_t tenant, const std::string& device_uri,
                                                             const std::string& session_id) {
    return first_session(exec_sql(tx_, sql::lock_session, tenant, device_uri, session_id, owner_));
}

std::optional<session_record> pg_session_store::lock_session_by_key(int64_t tenant, int64_t key) {
    return first_session(exec_sql(tx_, sql::lock_session_key, tenant, key, owner_));
}

int64_t pg_session_store::create_session(int64_t tenant, const std::string& device_uri, const std::string& session_id) {
    return exec_sql1(tx_, sql::create_session, tenant, device_uri, session_id, owner_)[0].as<int64_t>();
}

void pg_session_store::save_session(int64_t tenant, const session_record& s) {
    bind_owner(s.user_id);
    exec_sql1(tx_, sql::save_session, owner_, tenant, s.id, pqxx::binarystring(s.state), s.last_msg_id,
              pqxx::binarystring(s.last_reply), s.last_reply_type, s.device.id, s.finished, s.credentials_verified,
              s.client_address, pqxx::binarystring(s.last_request_digest));
}

std::optional<session_record> pg_session_store::open_message_session(int64_t tenant, const message_session& m) {
    // Valid credentials name the owner; a token names the user of its session (a token of another user with them
    // finds no session); else route_user: the user of credentials that did not verify, or on a distributed schema
    // the one the session starts name.
    const int64_t owner = m.user != 0 ? m.user : m.key_user != 0 ? m.key_user : m.route_user;
    // Distributed, a statement must not span the shards of the tenant's users: neither the search by address
    // across the device's users nor the tenant's session count (persistence/DISTRIBUTED.md).
    const bool distributed = profile_of(tx_).distributed_schema();
    if (distributed && owner == 0) return std::nullopt;
    auto rows =
        exec_sql(tx_, sql::open_message_session, tenant, m.device_uri, m.session_id, m.key.value_or(0), m.msg_id,
                 m.user, m.address, static_cast<double>(m.address_idle.count()), static_cast<double>(m.max_age.count()),
                 m.max_devices, distributed ? 0 : m.max_sessions, owner);
    if (rows.empty()) return std::nullopt;
    if (rows[0]["r_sessions_refused"].as<bool>()) {
        session_record refused;
        refused.sessions_refused = true;
        return refused;
    }
    auto s = session_of(rows[0]);
    bind_owner(s.user_id);
    s.device_touched = rows[0]["r_device_touched"].as<bool>();
    s.device_refused = rows[0]["r_device_refused"].as<bool>();
    s.continued_by_address = rows[0]["r_by_address"].as<bool>();
    return s;
}

void pg_session_store::set_resume_pointer(int64_t tenant, const std::string& device_uri, const std::string& pointer,
                                          const std::string& session_id) {
    exec_sql0(tx_, sql::set_resume_pointer, tenant, device_uri, pointer, session_id, owner_);
}

std::optional<session_record> pg_session_store::lock_pointed_session(int64_t tenant, const std::string& device_uri,
                                                                     const std::string& pointer) {
    return first_session(exec_sql(tx_, sql::lock_pointed_session, tenant, device_uri, pointer, owner_));
}

std::optional<device_store_record> pg_session_store::open_in_one_call(int64_t tenant, const store_opening& o) {
    bind_owner(o.user);
    auto rows =
        exec_sql(tx_, sql::open_collection_store, tenant, o.user, o.device, std::string(common::datastore_name(o.kind)),
                 o.remote_uri, o.device_uri, o.resume_prefix, o.session_id, o.collection);
    if (rows.empty()) return std::nullopt;
    return device_store_of(rows[0]);
}

device_store_record pg_session_store::device_store_of_kind(int64_t tenant, int64_t user, int64_t device, item_kind kind,
                                                           const std::string& remote_uri) {
    if (auto ds = open_in_one_call(tenant, store_opening{user, device, kind, remote_uri, {}, {}, {}})) return *ds;
    return sync_store::device_store_of_kind(tenant, user, device, kind, remote_uri);
}

device_store_record pg_session_store::open_device_store(int64_t tenant, const store_opening& o) {
    if (auto ds = open_in_one_call(tenant, o)) return *ds;
    return sync_store::open_device_store(tenant, o);
}

void pg_session_store::lock_device(int64_t tenant, const std::string& device_uri) {
    exec_sql1(tx_, sql::lock_device, tenant, device_uri);
}

std::string pg_session_store::token_secret() { return exec_sql1(tx_, sql::token_secret)[0].as<std::string>(); }

}  // namespace syncml::persistence
