#pragma once
// Tenant names resolved to their rows at most once per ttl per process, so a message does not pay a database
// round trip to learn its tenant's id. Tenants are created and deleted by an operator, rarely: an unknown name
// is never remembered (a new tenant works at once), and a message that fails for a remembered tenant drops the
// entry (forget), so a deleted or re-created tenant costs at most one failed message per instance.

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "persistence/accounts/accounts.hpp"

namespace syncml::session {

class tenant_cache {
  public:
    using clock = std::chrono::steady_clock;
    using lookup = std::function<std::optional<persistence::tenant_info>()>;
    // ttl zero disables the cache.
    explicit tenant_cache(std::chrono::seconds ttl) : ttl_(ttl) {}

    // The remembered tenant, else what `load` finds (remembered when found).
    std::optional<persistence::tenant_info> find(const std::string& name, const lookup& load,
                                                 clock::time_point now = clock::now());
    void forget(const std::string& name);
    // At most once a second (a cheap query on one worker), asks `fingerprint` for the tenants' settings version and
    // forgets every remembered tenant when it changed: a change made by an admin anywhere takes effect at once.
    void notice_changes(const std::function<std::string()>& fingerprint, clock::time_point now = clock::now());

  private:
    struct entry {
        persistence::tenant_info tenant;
        clock::time_point expires;
    };
    std::chrono::seconds ttl_;
    std::mutex mutex_;
    clock::time_point next_check_{};
    std::string fingerprint_;
    std::unordered_map<std::string, entry> entries_;
};

}  // namespace syncml::session
