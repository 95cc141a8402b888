#include "session/service/tenant_cache.hpp"

#include <gtest/gtest.h>

namespace syncml::session {
namespace {

using namespace std::chrono_literals;
using clock = tenant_cache::clock;

struct counting_lookup {
    std::optional<persistence::tenant_info> result;
    int calls = 0;
    tenant_cache::lookup fn() {
        return [this] {
            ++calls;
            return result;
        };
    }
};

persistence::tenant_info tenant(std::int64_t id, const std::string& name) {
    persistence::tenant_info t;
    t.id = id;
    t.name = name;
    return t;
}

TEST(tenant_cache, looks_a_tenant_up_once_per_ttl) {
    tenant_cache cache(60s);
    counting_lookup db{tenant(7, "acme")};
    auto t0 = clock::now();
    EXPECT_EQ(cache.find("acme", db.fn(), t0)->id, 7);
    EXPECT_EQ(cache.find("acme", db.fn(), t0 + 59s)->id, 7);
    EXPECT_EQ(db.calls, 1);
    db.result = tenant(8, "acme");
    EXPECT_EQ(cache.find("acme", db.fn(), t0 + 61s)->id, 8);
    EXPECT_EQ(db.calls, 2);
}

// Issue 35: a change made through the CLI, the API or another instance takes effect within a second, not a TTL.
TEST(tenant_cache, forgets_every_tenant_when_the_settings_fingerprint_changes) {
    tenant_cache cache(60s);
    counting_lookup db{tenant(7, "acme")};
    std::string fingerprint = "3/2";
    int asked = 0;
    const auto ask = [&] {
        ++asked;
        return fingerprint;
    };
    const auto t0 = clock::now();
    cache.notice_changes(ask, t0);
    cache.find("acme", db.fn(), t0);
    cache.notice_changes(ask, t0 + 500ms);
    EXPECT_EQ(asked, 1) << "at most once a second";
    cache.notice_changes(ask, t0 + 1s);
    cache.find("acme", db.fn(), t0 + 1s);
    EXPECT_EQ(db.calls, 1) << "nothing changed: still remembered";
    fingerprint = "4/2";
    cache.notice_changes(ask, t0 + 2s);
    cache.find("acme", db.fn(), t0 + 2s);
    EXPECT_EQ(db.calls, 2);
}

TEST(tenant_cache, never_remembers_an_unknown_name_and_forgets_on_request) {
    tenant_cache cache(60s);
    counting_lookup db{std::nullopt};
    auto t0 = clock::now();
    EXPECT_FALSE(cache.find("new", db.fn(), t0));
    // Created a moment later: found at once.
    db.result = tenant(9, "new");
    EXPECT_EQ(cache.find("new", db.fn(), t0 + 1s)->id, 9);
    EXPECT_EQ(db.calls, 2);
    // Deleted and re-created under the same name: a failed message drops the entry.
    db.result = tenant(10, "new");
    EXPECT_EQ(cache.find("new", db.fn(), t0 + 2s)->id, 9);
    cache.forget("new");
    EXPECT_EQ(cache.find("new", db.fn(), t0 + 3s)->id, 10);
    // Deleted for good: the lookup finds nothing and the stale entry is gone.
    cache.forget("new");
    db.result = std::nullopt;
    EXPECT_FALSE(cache.find("new", db.fn(), t0 + 4s));
    EXPECT_EQ(db.calls, 4);
}

TEST(tenant_cache, zero_ttl_looks_up_every_time) {
    tenant_cache cache(0s);
    counting_lookup db{tenant(1, "default")};
    cache.find("default", db.fn());
    cache.find("default", db.fn());
    EXPECT_EQ(db.calls, 2);
}

}  // namespace
}  // namespace syncml::session
