#include "dav/dav_handler.hpp"

#include <gtest/gtest.h>

#include "dav/dav_handler_test_support.hpp"

namespace syncml::dav {
namespace {

using namespace testing;

// ---- sync-collection ----

TEST_F(dav_handler_test, sync_collection_without_token_lists_every_live_item) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    ASSERT_EQ(put(k_contacts + "b.vcf", card("b", "B")).status, 201);
    const auto guid = synced_item(common::item_kind::contact, "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:C\r\nEND:VCARD\r\n");
    ASSERT_EQ(run({.method = "DELETE", .path = k_contacts + "b.vcf"}).status, 204);
    auto all = sync("");
    EXPECT_EQ(all.hrefs(), (std::vector<std::string>{k_contacts + guid + ".vcf", k_contacts + "a.vcf"}));
    for (const auto& r : all.responses) EXPECT_NE(r.text(ns_dav, "getetag"), "<absent>") << r.href;
    EXPECT_NE(all.sync_token, "");
    EXPECT_TRUE(sync("", k_calendar).responses.empty());
}

TEST_F(dav_handler_test, sync_collection_with_a_token_lists_only_what_changed_since) {
    auto a = put(k_contacts + "a.vcf", card("a", "A"));
    ASSERT_EQ(put(k_contacts + "b.vcf", card("b", "B")).status, 201);
    const auto token = sync("").sync_token;
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A2"), header(a, "ETag")).status, 204);
    ASSERT_EQ(put(k_contacts + "d.vcf", card("d", "D")).status, 201);
    auto changes = parse_multistatus(report(k_contacts, sync_body(token, "<d:getetag/><card:address-data/>")));
    EXPECT_EQ(changes.hrefs(), (std::vector<std::string>{k_contacts + "a.vcf", k_contacts + "d.vcf"}));
    const auto* changed = changes.find(k_contacts + "a.vcf");
    ASSERT_TRUE(changed);
    EXPECT_NE(changed->text(ns_carddav, "address-data").find("FN:A2"), std::string::npos);
    EXPECT_EQ(changed->text(ns_dav, "getetag"), header(get(k_contacts + "a.vcf"), "ETag"));
    auto nothing = sync(changes.sync_token);
    EXPECT_TRUE(nothing.responses.empty());
    EXPECT_EQ(nothing.sync_token, changes.sync_token);
}

TEST_F(dav_handler_test, sync_collection_refuses_tokens_it_did_not_give_for_this_collection) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    const auto token = sync("").sync_token;
    const auto calendar_token = sync("", k_calendar).sync_token;
    const auto stem = token.substr(0, token.rfind(':') + 1);
    const auto modseq = std::stoll(token.substr(stem.size()));
    for (const auto& bad : {std::string("garbage"), calendar_token, stem + std::to_string(modseq + 1), stem + "-1",
                            stem, token + "x", "x" + token, stem + "+1"}) {
        auto r = report(k_contacts, sync_body(bad));
        EXPECT_EQ(r.status, 403) << bad;
        EXPECT_EQ(precondition(r), clark(ns_dav, "valid-sync-token")) << bad;
    }
    EXPECT_EQ(report(k_contacts, sync_body(stem + "0")).status, 207);
}

TEST_F(dav_handler_test, sync_collection_refuses_tokens_from_before_purged_tombstones) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    ASSERT_EQ(put(k_contacts + "b.vcf", card("b", "B")).status, 201);
    const auto before_delete = sync("").sync_token;
    ASSERT_EQ(run({.method = "DELETE", .path = k_contacts + "a.vcf"}).status, 204);
    const auto after_delete = sync("").sync_token;
    ASSERT_EQ(put(k_contacts + "c.vcf", card("c", "C")).status, 201);
    // The janitor purges the tombstone of a.vcf and records its modseq.
    auto& items = store_.items();
    const auto tombstone = std::find_if(items.begin(), items.end(), [](const auto& i) { return i.deleted; });
    ASSERT_NE(tombstone, items.end());
    store_.datastore(account_.tenant_id.value(), account_.user_id.value(), common::item_kind::contact).purged_modseq =
        tombstone->modseq;
    items.erase(tombstone);

    auto stale = report(k_contacts, sync_body(before_delete));
    EXPECT_EQ(stale.status, 403) << "the client would never learn that a.vcf is gone";
    EXPECT_EQ(precondition(stale), clark(ns_dav, "valid-sync-token"));
    EXPECT_EQ(sync(after_delete).hrefs(), std::vector<std::string>{k_contacts + "c.vcf"});
}

TEST_F(dav_handler_test, sync_collection_refuses_levels_other_than_1) {
    auto body = sync_body("");
    body.replace(body.find("<d:sync-level>1"), 15, "<d:sync-level>infinite");
    auto r = report(k_contacts, body);
    EXPECT_EQ(r.status, 403);
    EXPECT_EQ(precondition(r), clark(ns_dav, "supported-sync-level"));
}

// ---- multiget and queries ----

// Follows a sync in pages of `limit` until a page is not truncated: the hrefs of each page.
std::vector<std::vector<std::string>> pages(dav_handler_test& t, std::string token, std::size_t limit,
                                            std::string& final_token) {
    std::vector<std::vector<std::string>> out;
    for (int guard = 0; guard < 20; ++guard) {
        auto page = parse_multistatus(t.report_on(k_contacts, limited_sync_body(token, std::to_string(limit))));
        std::vector<std::string> hrefs;
        bool truncated = false;
        for (const auto& r : page.responses) {
            if (r.href == k_contacts) {
                EXPECT_EQ(r.status, 507);
                truncated = true;
            } else {
                hrefs.push_back(r.href);
            }
        }
        EXPECT_LE(hrefs.size(), limit);
        out.push_back(hrefs);
        token = page.sync_token;
        if (!truncated) break;
    }
    final_token = token;
    return out;
}

TEST_F(dav_handler_test, sync_collection_honours_dav_limit_in_pages_that_miss_nothing) {
    for (const char* name : {"a", "b", "c", "d", "e"})
        ASSERT_EQ(put(k_contacts + name + ".vcf", card(name, name)).status, 201);
    std::string token;
    auto first = pages(*this, "", 2, token);
    EXPECT_EQ(first, (std::vector<std::vector<std::string>>{{k_contacts + "a.vcf", k_contacts + "b.vcf"},
                                                            {k_contacts + "c.vcf", k_contacts + "d.vcf"},
                                                            {k_contacts + "e.vcf"}}));
    EXPECT_EQ(token, sync("").sync_token) << "the last page ends where an unlimited report would";

    auto b = get(k_contacts + "b.vcf");
    ASSERT_EQ(put(k_contacts + "b.vcf", card("b", "B2"), header(b, "ETag")).status, 204);
    ASSERT_EQ(run({.method = "DELETE", .path = k_contacts + "c.vcf"}).status, 204);
    ASSERT_EQ(put(k_contacts + "f.vcf", card("f", "f")).status, 201);
    auto later = pages(*this, token, 1, token);
    EXPECT_EQ(later, (std::vector<std::vector<std::string>>{
                         {k_contacts + "b.vcf"}, {k_contacts + "c.vcf"}, {k_contacts + "f.vcf"}}));
    EXPECT_TRUE(sync(token).responses.empty());
}

// A first sync in pages lists the items by id under the token it started at: tombstones the janitor purged before it
// and changes made while it runs cannot break it, and the changes come again after the listing.
TEST_F(dav_handler_test, a_first_sync_in_pages_survives_purged_tombstones_and_changes_while_it_runs) {
    for (const char* name : {"a", "b", "c", "d", "z"})
        ASSERT_EQ(put(k_contacts + name + ".vcf", card(name, name)).status, 201);
    ASSERT_EQ(run({.method = "DELETE", .path = k_contacts + "z.vcf"}).status, 204);
    auto& items = store_.items();
    const auto tombstone = std::find_if(items.begin(), items.end(), [](const auto& i) { return i.deleted; });
    ASSERT_NE(tombstone, items.end());
    store_.datastore(account_.tenant_id.value(), account_.user_id.value(), common::item_kind::contact).purged_modseq =
        tombstone->modseq;
    items.erase(tombstone);

    auto first = parse_multistatus(report(k_contacts, limited_sync_body("", "2")));
    EXPECT_EQ(first.hrefs(), (std::vector<std::string>{k_contacts, k_contacts + "a.vcf", k_contacts + "b.vcf"}));
    // While the client pages: an edit of a listed item, a deletion of a listed one, a new item.
    auto a = get(k_contacts + "a.vcf");
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A2"), header(a, "ETag")).status, 204);
    ASSERT_EQ(run({.method = "DELETE", .path = k_contacts + "b.vcf"}).status, 204);
    ASSERT_EQ(put(k_contacts + "e.vcf", card("e", "e")).status, 201);
    std::string token;
    auto rest = pages(*this, first.sync_token, 2, token);
    EXPECT_EQ(rest, (std::vector<std::vector<std::string>>{{k_contacts + "c.vcf", k_contacts + "d.vcf"},
                                                           {k_contacts + "e.vcf"}}));
    auto after = sync(token);
    EXPECT_EQ(after.hrefs(),
              (std::vector<std::string>{k_contacts + "a.vcf", k_contacts + "b.vcf", k_contacts + "e.vcf"}))
        << "what changed after the listing began";
    ASSERT_NE(after.find(k_contacts + "b.vcf"), nullptr);
    EXPECT_EQ(after.find(k_contacts + "b.vcf")->status, 404);
    EXPECT_TRUE(sync(after.sync_token).responses.empty());
}

TEST_F(dav_handler_test, sync_collection_refuses_malformed_page_tokens) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    const auto token = sync("").sync_token;
    for (const auto& bad : {token + ":", token + ":-1", token + ":x", token + ":1:2", token + ";1", token + ":1x"}) {
        auto r = report(k_contacts, limited_sync_body(bad, "5"));
        EXPECT_EQ(r.status, 403) << bad;
    }
    EXPECT_EQ(report(k_contacts, limited_sync_body(token + ":0", "5")).status, 207);
}

TEST_F(dav_handler_test, sync_collection_refuses_a_limit_without_a_positive_count) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    for (const char* bad : {"0", "-1", "x", "", "1x", "99999999999999999999999"})
        EXPECT_EQ(report(k_contacts, limited_sync_body("", bad)).status, 400) << bad;
    const std::string no_count = "<d:sync-collection" + std::string(k_namespaces) +
                                 "><d:sync-token/><d:sync-level>1</d:sync-level><d:limit/><d:prop><d:getetag/>"
                                 "</d:prop></d:sync-collection>";
    EXPECT_EQ(report(k_contacts, no_count).status, 400);
}

TEST_F(dav_handler_test, multiget_answers_every_href_found_or_not) {
    ASSERT_EQ(put(k_contacts + "a%20b%40c.vcf", card("ab", "A B")).status, 201);
    ASSERT_EQ(put(k_contacts + "d.vcf", card("d", "D")).status, 201);
    const std::string body = "<card:addressbook-multiget" + std::string(k_namespaces) +
                             "><d:prop><d:getetag/><card:address-data/></d:prop>"
                             "<d:href>https://dav.example.org:8443/dav/acme/ann/contacts/a%20b@c.vcf</d:href>"
                             "<d:href>/dav/acme/ann/contacts/d.vcf</d:href>"
                             "<d:href>/dav/acme/ann/contacts/missing.vcf</d:href>"
                             "<d:href>/dav/acme/ann/calendar/d.vcf</d:href>"
                             "<d:href>/dav/acme/bob/contacts/d.vcf</d:href></card:addressbook-multiget>";
    auto a = parse_multistatus(report(k_contacts, body));
    EXPECT_EQ(a.responses.size(), 5u);
    const auto* ab = a.find(k_contacts + "a%20b@c.vcf");
    ASSERT_TRUE(ab) << "hrefs: " << ::testing::PrintToString(a.hrefs());
    EXPECT_NE(ab->text(ns_carddav, "address-data").find("FN:A B"), std::string::npos);
    const auto* d = a.find(k_contacts + "d.vcf");
    ASSERT_TRUE(d);
    EXPECT_NE(d->text(ns_carddav, "address-data").find("FN:D"), std::string::npos);
    for (const auto& href : {k_contacts + "missing.vcf", std::string("/dav/acme/ann/calendar/d.vcf"),
                             std::string("/dav/acme/bob/contacts/d.vcf")}) {
        const auto* missing = a.find(href);
        ASSERT_TRUE(missing) << href;
        EXPECT_EQ(missing->status, 404) << href;
        EXPECT_TRUE(missing->values.empty()) << href;
    }
}

TEST_F(dav_handler_test, calendar_multiget_finds_events_by_guid_name) {
    const auto guid = synced_item(common::item_kind::event, event("synced", "20250310T090000Z", "20250310T100000Z"));
    const std::string body = "<cal:calendar-multiget" + std::string(k_namespaces) +
                             "><d:prop><cal:calendar-data/></d:prop><d:href>" + k_calendar + guid +
                             ".ics</d:href></cal:calendar-multiget>";
    auto a = parse_multistatus(report(k_calendar, body));
    ASSERT_EQ(a.responses.size(), 1u);
    EXPECT_NE(a.responses[0].text(ns_caldav, "calendar-data").find("UID:synced"), std::string::npos);
}

TEST_F(dav_handler_test, addressbook_query_matches_text) {
    ASSERT_EQ(put(k_contacts + "ann.vcf", card("1", "Ann Example", "ann@example.org")).status, 201);
    ASSERT_EQ(put(k_contacts + "bob.vcf", card("2", "Bob Other", "bob@example.org")).status, 201);
    const auto query = [&](const std::string& filter) {
        const std::string body = "<card:addressbook-query" + std::string(k_namespaces) +
                                 "><d:prop><d:getetag/></d:prop>" + filter + "</card:addressbook-query>";
        return parse_multistatus(report(k_contacts, body)).hrefs();
    };
    const std::vector<std::string> ann{k_contacts + "ann.vcf"}, bob{k_contacts + "bob.vcf"};
    EXPECT_EQ(query("<card:filter><card:prop-filter name=\"FN\"><card:text-match match-type=\"contains\">EXAMPLE"
                    "</card:text-match></card:prop-filter></card:filter>"),
              ann);
    EXPECT_EQ(query("<card:filter><card:prop-filter name=\"EMAIL\"><card:text-match match-type=\"equals\">"
                    "bob@example.org</card:text-match></card:prop-filter></card:filter>"),
              bob);
    EXPECT_EQ(query("<card:filter><card:prop-filter name=\"FN\"><card:text-match negate-condition=\"yes\">ann"
                    "</card:text-match></card:prop-filter></card:filter>"),
              bob);
    EXPECT_EQ(query("<card:filter test=\"allof\"><card:prop-filter name=\"FN\"><card:text-match>ann</card:text-match>"
                    "</card:prop-filter><card:prop-filter name=\"EMAIL\"><card:text-match>bob</card:text-match>"
                    "</card:prop-filter></card:filter>"),
              std::vector<std::string>{});
    EXPECT_EQ(query("<card:filter><card:prop-filter name=\"FN\"><card:text-match>ann</card:text-match>"
                    "</card:prop-filter><card:prop-filter name=\"EMAIL\"><card:text-match>bob</card:text-match>"
                    "</card:prop-filter></card:filter>")
                  .size(),
              2u);
}

// RFC 6352 8.6.1: at most CARDDAV:nresults matches; when more match, a 507 with
// DAV:number-of-matches-within-limits for the request-URI. DAV:limit is sync-collection's, not this report's.
TEST_F(dav_handler_test, addressbook_query_honours_carddav_limit) {
    for (const char* name : {"a", "b", "c", "d", "e"})
        ASSERT_EQ(put(k_contacts + name + ".vcf", card(name, std::string("Ann ") + name)).status, 201);
    ASSERT_EQ(put(k_contacts + "z.vcf", card("z", "Zed")).status, 201);
    const auto query = [&](const std::string& limit) {
        return report(k_contacts, "<card:addressbook-query" + std::string(k_namespaces) +
                                      "><d:prop><d:getetag/></d:prop><card:filter><card:prop-filter name=\"FN\">"
                                      "<card:text-match>ann</card:text-match></card:prop-filter></card:filter>" +
                                      limit + "</card:addressbook-query>");
    };
    const auto nresults = [](const std::string& n) {
        return "<card:limit><card:nresults>" + n + "</card:nresults></card:limit>";
    };
    auto cut = parse_multistatus(query(nresults("2")));
    ASSERT_EQ(cut.responses.size(), 3u);
    EXPECT_EQ(cut.responses[0].href, k_contacts + "a.vcf");
    EXPECT_EQ(cut.responses[1].href, k_contacts + "b.vcf");
    EXPECT_EQ(cut.responses[2].href, k_contacts);
    EXPECT_EQ(cut.responses[2].status, 507);
    EXPECT_EQ(cut.responses[2].error, clark(ns_dav, "number-of-matches-within-limits"));
    for (const char* enough : {"5", "6"}) {
        auto whole = parse_multistatus(query(nresults(enough)));
        EXPECT_EQ(whole.responses.size(), 5u) << enough << ": every match, and no 507";
        EXPECT_EQ(whole.find(k_contacts), nullptr) << enough;
    }
    EXPECT_EQ(parse_multistatus(query("<d:limit><d:nresults>1</d:nresults></d:limit>")).responses.size(), 5u);
    for (const char* bad : {"0", "x", ""}) EXPECT_EQ(query(nresults(bad)).status, 400) << bad;
}

TEST_F(dav_handler_test, calendar_query_time_range_holds_overlapping_events_and_recurrences) {
    // Mondays from 6 January, ten times: the last on 10 March.
    ASSERT_EQ(put(k_calendar + "weekly.ics",
                  event("weekly", "20250106T090000Z", "20250106T100000Z", "RRULE:FREQ=WEEKLY;COUNT=10\r\n"))
                  .status,
              201);
    ASSERT_EQ(put(k_calendar + "inside.ics", event("inside", "20250310T120000Z", "20250310T130000Z")).status, 201);
    ASSERT_EQ(put(k_calendar + "outside.ics", event("outside", "20240601T120000Z", "20240601T130000Z")).status, 201);
    const auto query = [&](const std::string& start, const std::string& end) {
        const std::string body = "<cal:calendar-query" + std::string(k_namespaces) +
                                 "><d:prop><d:getetag/><cal:calendar-data/></d:prop><cal:filter>"
                                 "<cal:comp-filter name=\"VCALENDAR\"><cal:comp-filter name=\"VEVENT\">"
                                 "<cal:time-range start=\"" +
                                 start + "\" end=\"" + end +
                                 "\"/></cal:comp-filter></cal:comp-filter></cal:filter></cal:calendar-query>";
        return parse_multistatus(report(k_calendar, body));
    };
    auto march = query("20250310T000000Z", "20250311T000000Z");
    EXPECT_EQ(march.hrefs(), (std::vector<std::string>{k_calendar + "inside.ics", k_calendar + "weekly.ics"}));
    const auto* weekly = march.find(k_calendar + "weekly.ics");
    ASSERT_TRUE(weekly);
    EXPECT_NE(weekly->text(ns_caldav, "calendar-data").find("RRULE:FREQ=WEEKLY"), std::string::npos);
    EXPECT_EQ(query("20250401T000000Z", "20250501T000000Z").responses.size(), 0u);
    EXPECT_EQ(query("20240101T000000Z", "20241231T000000Z").hrefs(),
              std::vector<std::string>{k_calendar + "outside.ics"});
    auto bad = report(k_calendar, "<cal:calendar-query" + std::string(k_namespaces) +
                                      "><cal:filter><cal:comp-filter name=\"VCALENDAR\"><cal:time-range "
                                      "start=\"2025-03-10\"/></cal:comp-filter></cal:filter></cal:calendar-query>");
    EXPECT_EQ(bad.status, 403);
    EXPECT_EQ(precondition(bad), clark(ns_caldav, "valid-filter"));
}

TEST_F(dav_handler_test, reports_elsewhere_or_unknown_are_refused) {
    EXPECT_EQ(precondition(report("/dav/acme/ann/", sync_body(""))), clark(ns_dav, "supported-report"));
    EXPECT_EQ(precondition(report(k_contacts, "<x:what xmlns:x=\"urn:x\"/>")), clark(ns_dav, "supported-report"));
    EXPECT_EQ(precondition(report(k_calendar, "<card:addressbook-multiget" + std::string(k_namespaces) + "/>")),
              clark(ns_dav, "supported-report"));
}

}  // namespace
}  // namespace syncml::dav
