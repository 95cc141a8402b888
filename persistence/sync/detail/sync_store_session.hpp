#pragma once
// For persistence/ .cpp files only (it includes pqxx): the per-session statements of the PostgreSQL sync
// store (device row, nonce, DevInf, session row, device lock, token secret), kept apart from the per-item statements so
// that each part can change without touching the other. pg_sync_store derives from it.

#include <pqxx/pqxx>

#include "persistence/sync/sync_store.hpp"

namespace syncml::persistence {

class pg_session_store : public sync_store {
  public:
    explicit pg_session_store(pqxx::work& tx) : tx_(tx) {}

    device_record device(std::int64_t tenant, std::int64_t user, const std::string& device_uri) override;
    void set_device_nonce(std::int64_t tenant, std::int64_t device, const std::string& nonce) override;
    void set_device_devinf(std::int64_t tenant, std::int64_t device, const std::string& devinf) override;

    std::optional<session_record> lock_session(std::int64_t tenant, const std::string& device_uri,
                                               const std::string& session_id) override;
    std::optional<session_record> lock_session_by_key(std::int64_t tenant, std::int64_t key) override;
    std::int64_t create_session(std::int64_t tenant, const std::string& device_uri,
                                const std::string& session_id) override;
    void save_session(std::int64_t tenant, const session_record& session) override;
    void lock_device(std::int64_t tenant, const std::string& device_uri) override;
    std::optional<session_record> open_message_session(std::int64_t tenant, const message_session& m) override;
    void set_resume_pointer(std::int64_t tenant, const std::string& device_uri, const std::string& pointer,
                            const std::string& session_id) override;
    std::optional<session_record> lock_pointed_session(std::int64_t tenant, const std::string& device_uri,
                                                       const std::string& pointer) override;
    device_store_record device_store_of_kind(std::int64_t tenant, std::int64_t user, std::int64_t device,
                                             item_kind kind, const std::string& remote_uri) override;
    device_store_record open_device_store(std::int64_t tenant, const store_opening& o) override;
    std::string token_secret() override;

  protected:
    // Every statement names the user whose rows it touches (persistence/DISTRIBUTED.md): the first call that names a
    // user binds the transaction to it, and a call naming another user is a defect (std::logic_error), never a
    // read or write of another user's rows. 0 until bound.
    void bind_owner(std::int64_t user);
    std::int64_t owner() const { return owner_; }

    pqxx::work& tx_;

  private:
    // sql::open_device_store; nothing when the datastore's name is taken by another kind.
    std::optional<device_store_record> open_in_one_call(std::int64_t tenant, const store_opening& o);

    std::int64_t owner_ = 0;
};

}  // namespace syncml::persistence
