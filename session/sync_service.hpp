#pragma once
// The protocol engine behind the HTTP front end: decodes a message, finds and locks its session, runs
// the engine in ONE database transaction, stores the new state and the encoded reply (for resends)
// and answers in the request's encoding. Keeps nothing about sessions in memory.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "persistence/auth_throttle.hpp"
#include "session/sync_handler.hpp"

namespace syncml::session {

struct engine_metrics;

struct service_settings {
    std::int64_t max_msg_size = 1024 * 1024;  // what we accept and announce
    std::int64_t max_obj_size = 16 * 1024 * 1024;
    persistence::throttle_settings auth_throttle;
    std::chrono::seconds credential_cache_ttl{60};  // 0: check every basic-auth password with PBKDF2
};

class sync_service final : public sync_handler {
  public:
    explicit sync_service(service_settings settings = {}, engine_metrics* metrics = nullptr);
    ~sync_service() override;
    sync_response handle(const sync_request& request, persistence::database& db) override;

  private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

// "<key>-<signature>": the session token carried in RespURI.
std::string make_session_token(std::int64_t key, const std::string& secret);
// The session key of a valid token; nullopt for anything forged or malformed.
std::optional<std::int64_t> parse_session_token(const std::string& token, const std::string& secret);

}  // namespace syncml::session
