#pragma once
// Where the sync service tells what became of each message of a known tenant, for the admin page's view of this
// instance (src/frontends/sync_activity.hpp): completed sessions, errors, failed logins and each device's last error.

#include <string_view>

#include "session/engine/engine_metrics.hpp"

namespace syncml::session {

struct answered_message {
    std::string_view tenant;
    std::string_view user;     // as the credentials name it; empty without credentials
    std::string_view device;   // the SyncML device id (LocURI of the source)
    std::string_view address;  // the client's address
    engine_metrics::message_result result = engine_metrics::message_result::ok;
    bool session_done = false;  // the message completed its session
};

class activity_sink {
  public:
    virtual ~activity_sink() = default;
    // Called on the worker that served the message: must be cheap and must not throw.
    virtual void message_answered(const answered_message& message) noexcept = 0;
};

}  // namespace syncml::session
