#include "auth/credential_cache.hpp"

#include <gtest/gtest.h>

namespace syncml::auth {
namespace {

using namespace std::chrono_literals;
using clock = credential_cache::clock;

TEST(credential_cache, remembers_a_verified_password_for_its_ttl_only) {
    credential_cache cache(60s);
    auto t0 = clock::now();
    EXPECT_FALSE(cache.verified(1, "alice", "pw", "hash-1", t0));
    cache.remember(1, "alice", "pw", "hash-1", t0);
    EXPECT_TRUE(cache.verified(1, "alice", "pw", "hash-1", t0 + 59s));
    EXPECT_FALSE(cache.verified(1, "alice", "pw", "hash-1", t0 + 61s));
}

TEST(credential_cache, a_changed_password_or_another_password_user_or_tenant_misses) {
    credential_cache cache(60s);
    auto t0 = clock::now();
    cache.remember(1, "alice", "pw", "hash-1", t0);
    EXPECT_FALSE(cache.verified(1, "alice", "wrong", "hash-1", t0));
    EXPECT_FALSE(cache.verified(1, "bob", "pw", "hash-1", t0));
    EXPECT_FALSE(cache.verified(2, "alice", "pw", "hash-1", t0));
    // The stored hash changed (new password): the old verification no longer counts, even back.
    EXPECT_FALSE(cache.verified(1, "alice", "pw", "hash-2", t0));
    EXPECT_FALSE(cache.verified(1, "alice", "pw", "hash-1", t0));
}

TEST(credential_cache, zero_ttl_disables_it_and_a_full_cache_keeps_working) {
    credential_cache off(0s);
    off.remember(1, "alice", "pw", "h");
    EXPECT_FALSE(off.verified(1, "alice", "pw", "h"));

    credential_cache small(60s, 2);
    auto t0 = clock::now();
    small.remember(1, "a", "pw", "h", t0);
    small.remember(1, "b", "pw", "h", t0 + 30s);
    // Full: the expired entry of "a" makes room at t0 + 61 s; "b" stays.
    small.remember(1, "c", "pw", "h", t0 + 61s);
    EXPECT_TRUE(small.verified(1, "b", "pw", "h", t0 + 62s));
    EXPECT_TRUE(small.verified(1, "c", "pw", "h", t0 + 62s));
    EXPECT_FALSE(small.verified(1, "a", "pw", "h", t0 + 62s));
}

}  // namespace
}  // namespace syncml::auth
