#pragma once
// The sync store's role for session rows: which session a message continues, its saved state, the per-device lock
// that orders sessions, resume pointers and the RespURI token secret (see sync_store.hpp).

#include <cstdint>
#include <optional>
#include <string>

#include "persistence/sync/sync_records.hpp"

namespace syncml::persistence {

class session_rows {
  public:
    virtual ~session_rows() = default;

    // Locks the session row for the rest of the transaction; nullopt when there is none.
    virtual std::optional<session_record> lock_session(std::int64_t tenant, const std::string& device_uri,
                                                       const std::string& session_id) = 0;
    virtual std::optional<session_record> lock_session_by_key(std::int64_t tenant, std::int64_t key) = 0;
    // Creates and locks a session; returns its key.
    virtual std::int64_t create_session(std::int64_t tenant, const std::string& device_uri,
                                        const std::string& session_id) = 0;
    virtual void save_session(std::int64_t tenant, const session_record& session) = 0;
    // Finds the live session (device, SessionID), or creates it (also over an expired one), and locks it.
    // The default composes the calls above; the PostgreSQL store does it in one statement.
    virtual session_record open_session(std::int64_t tenant, const std::string& device_uri,
                                        const std::string& session_id);
    // Orders the messages of all sessions of a device (see sync_service.hpp): waits for and takes the device's
    // lock, held until the transaction ends. Call it first, before anything the lock should order is read.
    // Without concurrent callers (the in-memory fake) there is nothing to order.
    virtual void lock_device(std::int64_t, const std::string&) {}
    // The start of a message: lock_device, then the session this message may continue (session/service/admission.hpp
    // says which ways it may take, the database's syncml_open_session, migrations/0027, decides row by row: the one
    // copy of that rule), created for valid credentials; nullopt when the message may touch no session. One round
    // trip, which also upserts the device row of `m.user` when a new message starts the session or the session has no
    // device row of that user yet (device_touched).
    virtual std::optional<session_record> open_message_session(std::int64_t tenant, const message_session& m) = 0;
    // The per-device row named `pointer` (no user, so no running session) now names `session_id`: created, or
    // restarted when it expired. The default composes lock_session, create_session and save_session.
    virtual void set_resume_pointer(std::int64_t tenant, const std::string& device_uri, const std::string& pointer,
                                    const std::string& session_id);
    // The live session the live row `pointer` names (see set_resume_pointer), both locked; nullopt when either
    // is gone. The default makes two lock_session calls; PostgreSQL needs one query.
    virtual std::optional<session_record> lock_pointed_session(std::int64_t tenant, const std::string& device_uri,
                                                               const std::string& pointer);
    // Secret for signing RespURI tokens, the same for every server instance of the database.
    virtual std::string token_secret() = 0;
};

}  // namespace syncml::persistence
