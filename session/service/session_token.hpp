#pragma once
// The RespURI token: names a session and its owner so that a phone's later messages find their session without
// credentials, signed with a secret every server instance shares (read once from the database).

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace syncml::persistence {
class database;
class sync_store;
}  // namespace syncml::persistence

namespace syncml::session {

// What a RespURI token names: the session's row and its owner, whose shard holds the row on a distributed database
// (persistence/DISTRIBUTED.md), so that a message without credentials finds its session on one node.
struct session_token {
    std::int64_t user = 0;
    std::int64_t key = 0;
    bool operator==(const session_token&) const = default;
};
// "<user>.<key>-<signature>": the session token carried in RespURI.
std::string make_session_token(const session_token& token, const std::string& secret);
// The user and session key of a valid token; nullopt for anything forged or malformed.
std::optional<session_token> parse_session_token(const std::string& token, const std::string& secret);
// The token of a request target ("?s=" or "&s="); empty when it has none.
std::string query_token(const std::string& url);

// The signing secret, read once per process: the same for every instance, so never read again.
class token_secret_cache {
  public:
    // Inside a message's transaction.
    const std::string& get(persistence::sync_store& store);
    // Outside one (md5 logins and admission are decided before it): empty when the database failed.
    std::string get(persistence::database& db);

  private:
    std::mutex mutex_;
    std::string secret_;
};

}  // namespace syncml::session
