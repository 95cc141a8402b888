// The user's byte quota (tenants.max_user_bytes, persistence/sync/storage_quota.hpp) on DAV writes: a PUT that would
// take the user's items beyond it gets 507 Insufficient Storage with RFC 4331's DAV:quota-not-exceeded and stores
// nothing; a DELETE or a PUT that does not grow its item passes.

#include <gtest/gtest.h>

#include "dav/dav_handler.hpp"
#include "dav/dav_handler_test_support.hpp"

namespace syncml::dav {
namespace {

using namespace testing;

class dav_storage_quota_test : public dav_handler_test {
  protected:
    std::int64_t stored() {
        return store_.user_stored_bytes(
            store_.collection(account_.tenant_id, account_.user_id, common::item_kind::contact, ".vcf"));
    }
};

TEST_F(dav_storage_quota_test, a_put_beyond_the_quota_is_refused_with_507_and_stores_nothing) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    ASSERT_EQ(put(k_calendar + "e.ics", event("e", "20250310T090000Z", "20250310T100000Z")).status, 201);
    account_.max_user_bytes = stored();  // full, counting both collections
    const auto r = put(k_contacts + "b.vcf", card("b", "B"));
    EXPECT_EQ(r.status, 507);
    EXPECT_EQ(precondition(r), clark(ns_dav, "quota-not-exceeded"));
    EXPECT_EQ(r.refused_by, "user_bytes") << "for the front end's log line";
    EXPECT_EQ(r.outcome, "refused");
    EXPECT_EQ(live_items(), 2u);
    EXPECT_EQ(put(k_contacts + "a.vcf", card("a", "A with a longer name")).status, 507) << "a growing replace";
    EXPECT_EQ(get(k_contacts + "a.vcf").body.find("longer"), std::string::npos) << "the stored copy stays";
}

TEST_F(dav_storage_quota_test, a_delete_or_a_shrinking_put_passes_over_the_quota) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A" + std::string(400, 'x'))).status, 201);
    ASSERT_EQ(put(k_contacts + "b.vcf", card("b", "B")).status, 201);
    account_.max_user_bytes = stored() / 2;  // an operator lowered the quota below what the user holds
    EXPECT_EQ(put(k_contacts + "c.vcf", card("c", "C")).status, 507);
    EXPECT_EQ(run({.method = "DELETE", .path = k_contacts + "b.vcf"}).status, 204);
    EXPECT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 204) << "a shrinking replace";
    EXPECT_LT(stored(), account_.max_user_bytes);

    account_.max_user_bytes = 0;
    EXPECT_EQ(put(k_contacts + "c.vcf", card("c", "C")).status, 201) << "0: no quota";
    account_.max_user_bytes = stored();
    EXPECT_EQ(put(k_contacts + "d.vcf", card("d", "D")).status, 507) << "full";
    EXPECT_EQ(run({.method = "DELETE", .path = k_contacts + "c.vcf"}).status, 204);
    EXPECT_EQ(put(k_contacts + "d.vcf", card("d", "D")).status, 201) << "the delete made room for a card as large";
}

// RFC 4331: a client shows how much room is left before a PUT fails, on every collection of the user.
TEST_F(dav_storage_quota_test, collections_report_the_bytes_used_and_left_of_the_users_quota) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    ASSERT_EQ(put(k_calendar + "e.ics", event("e", "20250310T090000Z", "20250310T100000Z")).status, 201);
    const auto used = stored();
    account_.max_user_bytes = used + 1000;
    const std::string props = "<d:quota-used-bytes/><d:quota-available-bytes/>";
    for (const auto& collection : {k_contacts, k_calendar}) {
        auto a = parse_multistatus(propfind(collection, "0", props));
        ASSERT_EQ(a.responses.size(), 1u) << collection;
        EXPECT_EQ(a.responses[0].text(ns_dav, "quota-used-bytes"), std::to_string(used)) << "all the user's items";
        EXPECT_EQ(a.responses[0].text(ns_dav, "quota-available-bytes"), "1000") << collection;
    }
    account_.max_user_bytes = used / 2;  // lowered below what the user holds
    auto over = parse_multistatus(propfind(k_contacts, "0", props));
    EXPECT_EQ(over.responses[0].text(ns_dav, "quota-available-bytes"), "0");

    account_.max_user_bytes = 0;  // no quota: nothing to report
    const auto r = propfind(k_contacts, "0", props);
    EXPECT_EQ(r.body.find("<d:quota-used-bytes>"), std::string::npos) << r.body;
    EXPECT_NE(r.body.find("404 Not Found"), std::string::npos) << r.body;
}

}  // namespace
}  // namespace syncml::dav
