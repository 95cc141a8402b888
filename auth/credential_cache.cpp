#include "auth/credential_cache.hpp"

#include "common/crypto/digest.hpp"
#include "common/crypto/secrets.hpp"

namespace syncml::auth {

credential_cache::credential_cache(std::chrono::seconds ttl, std::size_t capacity)
    : ttl_(ttl), capacity_(capacity), hash_key_(common::random_nonce() + common::random_nonce()) {}

std::string credential_cache::key(std::int64_t tenant, const std::string& user, const std::string& password) const {
    return std::to_string(tenant) + '\n' + user + '\n' + common::hmac_sha256_hex(hash_key_, password);
}

bool credential_cache::verified(std::int64_t tenant, const std::string& user, const std::string& password,
                                const std::string& stored_hash, clock::time_point now) {
    if (ttl_.count() <= 0) return false;
    auto k = key(tenant, user, password);
    std::lock_guard lock(mutex_);
    auto found = entries_.find(k);
    if (found == entries_.end()) return false;
    if (found->second.expires <= now || found->second.stored_hash != stored_hash) {
        entries_.erase(found);
        return false;
    }
    return true;
}

void credential_cache::remember(std::int64_t tenant, const std::string& user, const std::string& password,
                                const std::string& stored_hash, clock::time_point now) {
    if (ttl_.count() <= 0 || capacity_ == 0) return;
    auto k = key(tenant, user, password);
    std::lock_guard lock(mutex_);
    if (entries_.size() >= capacity_) make_room(now);
    entries_[std::move(k)] = entry{stored_hash, now + ttl_};
}

// Drops expired entries; when all are fresh (a burst of distinct users), starts over rather than tracking
// recency: the cost of a miss is one password check.
void credential_cache::make_room(clock::time_point now) {
    std::erase_if(entries_, [now](const auto& item) { return item.second.expires <= now; });
    if (entries_.size() >= capacity_) entries_.clear();
}

}  // namespace syncml::auth
