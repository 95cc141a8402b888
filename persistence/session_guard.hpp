#pragma once
// Busy detection: one device runs one SyncML session at a time. A second session of the same device
// (another SessionID) while the first is still running is refused; a session whose client went silent
// for longer than the idle limit no longer counts, so a dead client never blocks its device for good.
// The state is the sessions table itself (shared by every server instance); a PostgreSQL advisory lock
// per device, held by the worker's connection across the check and the message's transaction, makes the
// check and the session start atomic with respect to the other sessions of the device.

#include <chrono>
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
    // True when a session of the device other than `session_id` is authenticated, not finished and had
    // a message within `idle`.
    virtual bool other_session_running(std::int64_t tenant, const std::string& device_uri,
                                       const std::string& session_id, std::chrono::seconds idle) = 0;
    // The session completed: it no longer keeps other sessions of its device out.
    virtual void mark_finished(std::int64_t tenant, std::int64_t session_key) = 0;
};

// The PostgreSQL guard on db's connection. Throws db_error.
class pg_session_guard final : public session_guard {
  public:
    explicit pg_session_guard(database& db) : db_(db) {}
    void lock_device(std::int64_t tenant, const std::string& device_uri) override;
    void unlock_device(std::int64_t tenant, const std::string& device_uri) override;
    bool other_session_running(std::int64_t tenant, const std::string& device_uri, const std::string& session_id,
                               std::chrono::seconds idle) override;
    void mark_finished(std::int64_t tenant, std::int64_t session_key) override;

  private:
    database& db_;
};

}  // namespace syncml::persistence
