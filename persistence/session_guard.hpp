#pragma once
// One device runs one SyncML session at a time. A new session of a device (another SessionID) takes over:
// a client that was killed or gave up restarts at once, never blocked by its abandoned session. The older
// session is superseded once the new one authenticated: its further messages are refused (busy) instead of
// interleaving with the new session's changes. The state is the sessions table itself (shared by every
// server instance); a PostgreSQL advisory lock per device, held by the worker's connection across the check
// and the message's transaction, orders the messages of all sessions of the device.

#include <cstdint>
#include <string>

namespace syncml::persistence {

class database;

class session_guard {
  public:
    virtual ~session_guard() = default;
    // Waits for and takes the device's lock; it is held until unlock_device (or the connection ends,
    // so a killed server instance never leaves a device locked).
    virtual void lock_device(std::int64_t tenant, const std::string& device_uri) = 0;
    virtual void unlock_device(std::int64_t tenant, const std::string& device_uri) = 0;
    // True when an authenticated session of the device started after session `session_id` (which may not
    // exist yet: a new session is never superseded).
    virtual bool superseded(std::int64_t tenant, const std::string& device_uri, const std::string& session_id) = 0;
    // The session completed (kept for operators: finished_at tells completed from abandoned sessions).
    virtual void mark_finished(std::int64_t tenant, std::int64_t session_key) = 0;
};

// The PostgreSQL guard on db's connection. Throws db_error.
class pg_session_guard final : public session_guard {
  public:
    explicit pg_session_guard(database& db) : db_(db) {}
    void lock_device(std::int64_t tenant, const std::string& device_uri) override;
    void unlock_device(std::int64_t tenant, const std::string& device_uri) override;
    bool superseded(std::int64_t tenant, const std::string& device_uri, const std::string& session_id) override;
    void mark_finished(std::int64_t tenant, std::int64_t session_key) override;

  private:
    database& db_;
};

}  // namespace syncml::persistence
