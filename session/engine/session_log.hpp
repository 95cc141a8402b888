#pragma once
// The one log line per finished session: who, which modes, how much, how long.

#include <cstdint>
#include <string>

#include "session/engine/state.hpp"

namespace syncml::session {

void log_session_end(const std::string& tenant, const session_state& state, const std::string& device,
                     std::int64_t now_ms);

}  // namespace syncml::session
