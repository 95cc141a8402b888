#pragma once
// Remembers successful basic-auth password checks for a short time, so a client starting sessions in a row
// does not pay for PBKDF2 (25k rounds) every time. Keyed by tenant, user and a keyed hash of the presented
// password (the password itself is never kept); an entry only counts while the user's stored password hash is
// the one it was verified against, so a changed password takes effect at once. An optimization only: a miss
// means "verify the password", never "reject".

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace syncml::auth {

class credential_cache {
  public:
    using clock = std::chrono::steady_clock;
    // ttl zero disables the cache.
    explicit credential_cache(std::chrono::seconds ttl, std::size_t capacity = 10000);

    bool verified(std::int64_t tenant, const std::string& user, const std::string& password,
                  const std::string& stored_hash, clock::time_point now = clock::now());
    void remember(std::int64_t tenant, const std::string& user, const std::string& password,
                  const std::string& stored_hash, clock::time_point now = clock::now());

  private:
    struct entry {
        std::string stored_hash;
        clock::time_point expires;
    };
    std::string key(std::int64_t tenant, const std::string& user, const std::string& password) const;
    void make_room(clock::time_point now);

    std::chrono::seconds ttl_;
    std::size_t capacity_;
    std::string hash_key_;  // random per process: entries are useless outside it
    std::mutex mutex_;
    std::unordered_map<std::string, entry> entries_;
};

}  // namespace syncml::auth
