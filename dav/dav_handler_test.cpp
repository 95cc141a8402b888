#include "dav/dav_handler.hpp"

#include <gtest/gtest.h>

#include "dav/dav_handler_test_support.hpp"

namespace syncml::dav {
namespace {

using namespace testing;

// ---- discovery ----

TEST_F(dav_handler_test, root_names_the_current_user_principal) {
    auto r = propfind("/dav/acme/", "0", "<d:current-user-principal/><d:resourcetype/>");
    auto a = parse_multistatus(r);
    ASSERT_EQ(a.hrefs(), std::vector<std::string>{"/dav/acme/"});
    EXPECT_EQ(a.responses[0].href_in(ns_dav, "current-user-principal"), "/dav/acme/principals/ann/");
    EXPECT_TRUE(a.responses[0].has_child(ns_dav, "resourcetype", ns_dav, "collection"));
}

TEST_F(dav_handler_test, principal_names_the_address_book_and_calendar_homes) {
    auto r = propfind("/dav/acme/principals/ann/", "0",
                      "<card:addressbook-home-set/><cal:calendar-home-set/><d:resourcetype/>"
                      "<d:displayname/><x:unknown xmlns:x=\"urn:x\"/>");
    auto a = parse_multistatus(r);
    const auto* principal = a.find("/dav/acme/principals/ann/");
    ASSERT_TRUE(principal) << r.body;
    EXPECT_EQ(principal->href_in(ns_carddav, "addressbook-home-set"), "/dav/acme/ann/");
    EXPECT_EQ(principal->href_in(ns_caldav, "calendar-home-set"), "/dav/acme/ann/");
    EXPECT_TRUE(principal->has_child(ns_dav, "resourcetype", ns_dav, "principal"));
    EXPECT_EQ(principal->text(ns_dav, "displayname"), "ann");
    EXPECT_EQ(principal->prop_status.at("{urn:x}unknown"), 404);
}

TEST_F(dav_handler_test, home_at_depth_1_lists_the_four_collections) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    auto r = propfind("/dav/acme/ann/", "1",
                      "<d:resourcetype/><cs:getctag/><d:sync-token/><cal:supported-calendar-component-set/>");
    auto a = parse_multistatus(r);
    EXPECT_EQ(a.hrefs(),
              (std::vector<std::string>{"/dav/acme/ann/", "/dav/acme/ann/calendar/", "/dav/acme/ann/contacts/",
                                        "/dav/acme/ann/memos/", "/dav/acme/ann/tasks/"}));
    const auto* contacts = a.find(k_contacts);
    ASSERT_TRUE(contacts);
    EXPECT_TRUE(contacts->has_child(ns_dav, "resourcetype", ns_dav, "collection"));
    EXPECT_TRUE(contacts->has_child(ns_dav, "resourcetype", ns_carddav, "addressbook"));
    EXPECT_FALSE(contacts->has_child(ns_dav, "resourcetype", ns_caldav, "calendar"));
    EXPECT_EQ(contacts->prop_status.at(clark(ns_caldav, "supported-calendar-component-set")), 404);
    EXPECT_NE(contacts->text(ns_calendarserver, "getctag"), "<absent>");
    EXPECT_NE(contacts->text(ns_dav, "sync-token"), "<absent>");
    for (const char* kind : {"calendar", "tasks", "memos"}) {
        const auto* c = a.find("/dav/acme/ann/" + std::string(kind) + "/");
        ASSERT_TRUE(c) << kind;
        EXPECT_TRUE(c->has_child(ns_dav, "resourcetype", ns_caldav, "calendar")) << kind;
        EXPECT_NE(c->text(ns_calendarserver, "getctag"), "<absent>") << kind;
        EXPECT_NE(c->text(ns_dav, "sync-token"), "<absent>") << kind;
    }
    const auto components = [&](const char* kind) {
        const auto* c = a.find("/dav/acme/ann/" + std::string(kind) + "/");
        const auto& set = c->values.at(clark(ns_caldav, "supported-calendar-component-set"));
        return set.children.size() == 1 ? set.children[0].attribute("name") : "<not one>";
    };
    EXPECT_EQ(components("calendar"), "VEVENT");
    EXPECT_EQ(components("tasks"), "VTODO");
    EXPECT_EQ(components("memos"), "VJOURNAL");
}

TEST_F(dav_handler_test, ctag_and_sync_token_change_with_the_collections_items_only) {
    const std::string props = "<cs:getctag/><d:sync-token/>";
    auto before = parse_multistatus(propfind("/dav/acme/ann/", "1", props));
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    auto after = parse_multistatus(propfind("/dav/acme/ann/", "1", props));
    for (const auto* kind : {&k_contacts, &k_calendar}) {
        const auto *was = before.find(*kind), *is = after.find(*kind);
        ASSERT_TRUE(was && is) << *kind;
        const bool changed = kind == &k_contacts;
        EXPECT_EQ(was->text(ns_calendarserver, "getctag") != is->text(ns_calendarserver, "getctag"), changed);
        EXPECT_EQ(was->text(ns_dav, "sync-token") != is->text(ns_dav, "sync-token"), changed);
    }
}

TEST_F(dav_handler_test, collection_at_depth_1_lists_its_items_with_etags) {
    auto created = put(k_contacts + "a.vcf", card("a", "A"));
    const auto guid =
        synced_item(common::item_kind::contact, "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Phone\r\nEND:VCARD\r\n");
    auto a = parse_multistatus(propfind(k_contacts, "1", "<d:getetag/><d:getcontenttype/>"));
    EXPECT_EQ(a.hrefs(), (std::vector<std::string>{k_contacts, k_contacts + guid + ".vcf", k_contacts + "a.vcf"}));
    const auto* item = a.find(k_contacts + "a.vcf");
    ASSERT_TRUE(item);
    EXPECT_EQ(item->text(ns_dav, "getetag"), header(created, "ETag"));
    EXPECT_EQ(item->text(ns_dav, "getcontenttype").rfind("text/vcard", 0), 0u);
    EXPECT_EQ(item->prop_status.count(clark(ns_carddav, "address-data")), 0u);

    auto with_data = parse_multistatus(propfind(k_contacts, "1", "<card:address-data/>"));
    const auto* phone = with_data.find(k_contacts + guid + ".vcf");
    ASSERT_TRUE(phone);
    EXPECT_NE(phone->text(ns_carddav, "address-data").find("UID:" + guid), std::string::npos);
    EXPECT_EQ(with_data.find(k_contacts)->prop_status.at(clark(ns_carddav, "address-data")), 404);
}

TEST_F(dav_handler_test, refuses_depth_infinity_on_collections) {
    for (const auto& path : {k_contacts, std::string("/dav/acme/ann/")}) {
        for (const char* depth : {"infinity", ""}) {
            auto r = propfind(path, depth, "<d:getetag/>");
            EXPECT_EQ(r.status, 403) << path << " depth " << depth;
            EXPECT_EQ(precondition(r), clark(ns_dav, "propfind-finite-depth")) << r.body;
        }
    }
}

TEST_F(dav_handler_test, refuses_malformed_xml_bodies_with_400) {
    const std::string broken = "<d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/></d:propfind>";
    EXPECT_EQ(run({.method = "PROPFIND", .path = k_contacts, .depth = "1", .body = broken}).status, 400);
    EXPECT_EQ(report(k_contacts, broken).status, 400);
    EXPECT_EQ(run({.method = "PROPPATCH", .path = k_contacts, .body = broken}).status, 400);
    EXPECT_EQ(report(k_contacts, "").status, 400) << "a REPORT needs a body";
}

TEST_F(dav_handler_test, refuses_entity_declarations_with_400) {
    const std::string laughs =
        "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">"
        "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY e \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">]>" +
        sync_body("&e;");
    auto r = report(k_contacts, laughs);
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("DOCTYPE"), std::string::npos) << r.body;
    EXPECT_EQ(run({.method = "PROPFIND", .path = k_contacts, .depth = "0", .body = laughs}).status, 400);
}

TEST_F(dav_handler_test, refuses_too_deeply_nested_bodies_with_400) {
    std::string deep;
    for (int i = 0; i < 40; ++i) deep += "<x:a xmlns:x=\"urn:x\">";
    for (int i = 0; i < 40; ++i) deep += "</x:a>";
    auto r = propfind(k_contacts, "0", deep);
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("nested too deeply"), std::string::npos) << r.body;
}

// ---- PUT, GET, DELETE ----

TEST_F(dav_handler_test, put_creates_an_item_that_get_returns_with_the_same_etag) {
    const auto body = card("ann-uid", "Ann Example");
    auto created = put(k_contacts + "ann.vcf", body);
    ASSERT_EQ(created.status, 201) << created.body;
    const auto etag = header(created, "ETag");
    EXPECT_EQ(etag.size() > 2 && etag.front() == '"' && etag.back() == '"', true) << etag;
    auto fetched = get(k_contacts + "ann.vcf");
    ASSERT_EQ(fetched.status, 200);
    EXPECT_EQ(fetched.body, body);
    EXPECT_EQ(header(fetched, "ETag"), etag);
    EXPECT_EQ(fetched.content_type.rfind("text/vcard", 0), 0u) << fetched.content_type;
    auto head = run({.method = "HEAD", .path = k_contacts + "ann.vcf"});
    EXPECT_EQ(head.status, 200);
    EXPECT_EQ(header(head, "ETag"), etag);
}

TEST_F(dav_handler_test, put_gives_no_etag_when_the_stored_item_differs_from_the_body) {
    const std::string without_uid = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:No Uid\r\nEND:VCARD\r\n";
    auto created = put(k_contacts + "a.vcf", without_uid);
    ASSERT_EQ(created.status, 201) << created.body;
    EXPECT_EQ(header(created, "ETag"), "") << "a GET returns the body with a UID";
    auto fetched = get(k_contacts + "a.vcf");
    EXPECT_NE(fetched.body, without_uid);
    EXPECT_NE(header(fetched, "ETag"), "");
    auto replaced = put(k_contacts + "a.vcf", fetched.body, header(fetched, "ETag"));
    ASSERT_EQ(replaced.status, 204);
    EXPECT_NE(header(replaced, "ETag"), "") << "the body the server gave, sent back unchanged";

    auto converted = put(k_contacts + "v4.vcf", "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:v4\r\nFN:Four\r\nEND:VCARD\r\n");
    ASSERT_EQ(converted.status, 201) << converted.body;
    EXPECT_EQ(header(converted, "ETag"), "") << "stored as vCard 3.0";
}

TEST_F(dav_handler_test, put_with_a_matching_if_match_replaces_the_item) {
    auto created = put(k_contacts + "a.vcf", card("a", "Old Name"));
    const auto old_etag = header(created, "ETag");
    auto replaced = put(k_contacts + "a.vcf", card("a", "New Name"), old_etag);
    ASSERT_EQ(replaced.status, 204) << replaced.body;
    const auto new_etag = header(replaced, "ETag");
    EXPECT_NE(new_etag, "");
    EXPECT_NE(new_etag, old_etag);
    auto fetched = get(k_contacts + "a.vcf");
    EXPECT_NE(fetched.body.find("FN:New Name"), std::string::npos) << fetched.body;
    EXPECT_EQ(header(fetched, "ETag"), new_etag);
    EXPECT_EQ(put(k_contacts + "a.vcf", card("a", "Weak"), "W/" + new_etag).status, 204) << "weak comparison";
    EXPECT_EQ(live_items(), 1u);
}

TEST_F(dav_handler_test, put_with_a_stale_if_match_changes_nothing) {
    auto created = put(k_contacts + "a.vcf", card("a", "Old Name"));
    auto stale = header(created, "ETag");
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "Second"), stale).status, 204);
    auto refused = put(k_contacts + "a.vcf", card("a", "Lost Update"), stale);
    EXPECT_EQ(refused.status, 412);
    EXPECT_NE(get(k_contacts + "a.vcf").body.find("FN:Second"), std::string::npos);
    EXPECT_EQ(put(k_contacts + "new.vcf", card("n", "N"), "\"1\"").status, 412) << "If-Match on nothing";
    EXPECT_EQ(get(k_contacts + "new.vcf").status, 404);
}

TEST_F(dav_handler_test, put_with_if_none_match_star_creates_but_never_overwrites) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "First"), "", "*").status, 201);
    EXPECT_EQ(put(k_contacts + "a.vcf", card("a", "Second"), "", "*").status, 412);
    EXPECT_NE(get(k_contacts + "a.vcf").body.find("FN:First"), std::string::npos);
}

TEST_F(dav_handler_test, put_of_a_uid_another_resource_holds_is_refused_with_no_uid_conflict) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("same-uid", "First")).status, 201);
    auto twin = put(k_contacts + "b.vcf", card("same-uid", "Second"));
    EXPECT_EQ(twin.status, 403);
    EXPECT_EQ(precondition(twin), clark(ns_carddav, "no-uid-conflict"));
    EXPECT_NE(twin.body.find("<d:href>" + k_contacts + "a.vcf</d:href>"), std::string::npos) << twin.body;
    EXPECT_EQ(live_items(), 1u);
    EXPECT_EQ(get(k_contacts + "b.vcf").status, 404);

    ASSERT_EQ(put(k_contacts + "c.vcf", card("other-uid", "Third")).status, 201);
    auto c = get(k_contacts + "c.vcf");
    EXPECT_EQ(put(k_contacts + "c.vcf", card("same-uid", "Third"), header(c, "ETag")).status, 403)
        << "a replace may not take another resource's UID either";
    EXPECT_EQ(put(k_contacts + "a.vcf", card("same-uid", "First again")).status, 204) << "its own UID is fine";

    const auto one = event("ev-uid", "20250101T100000Z", "20250101T110000Z");
    ASSERT_EQ(put(k_calendar + "x.ics", one).status, 201);
    auto event_twin = put(k_calendar + "y.ics", one);
    EXPECT_EQ(event_twin.status, 403);
    EXPECT_EQ(precondition(event_twin), clark(ns_caldav, "no-uid-conflict"));
    ASSERT_EQ(run({.method = "DELETE", .path = k_calendar + "x.ics"}).status, 204);
    EXPECT_EQ(put(k_calendar + "y.ics", one).status, 201) << "a deleted item holds no UID";
}

// Phones may leave two items with one UID (SyncML does not forbid it): each stays editable over DAV as long as the
// edit keeps its UID.
TEST_F(dav_handler_test, put_that_keeps_a_uid_two_items_share_already_is_accepted) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("dup", "First")).status, 201);
    const auto ds =
        store_.datastore(account_.tenant_id.value(), account_.user_id.value(), common::item_kind::contact).id;
    auto& twin = store_.add_item(account_.tenant_id.value(), ds, card("dup", "From a phone"));
    twin.keys = store_.items().front().keys;
    auto a = get(k_contacts + "a.vcf");
    EXPECT_EQ(put(k_contacts + "a.vcf", card("dup", "First edited"), header(a, "ETag")).status, 204);
    EXPECT_EQ(put(k_contacts + twin.guid + ".vcf", card("dup", "Phone edited")).status, 204);
    EXPECT_EQ(put(k_contacts + "c.vcf", card("dup", "Third")).status, 403) << "a new resource may not join them";
}

TEST_F(dav_handler_test, put_locks_the_collection_before_its_checks) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    EXPECT_GE(store_.collection_locks, 1u);
}

TEST_F(dav_handler_test, put_of_an_invalid_vcard_is_refused_and_stores_nothing) {
    for (const std::string body :
         {"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:No End\r\n",
          "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nnot a content line\r\nEND:VCARD\r\n", "just text"}) {
        auto r = put(k_contacts + "bad.vcf", body);
        EXPECT_EQ(r.status, 400) << body;
    }
    EXPECT_TRUE(store_.items().empty());
    EXPECT_EQ(get(k_contacts + "bad.vcf").status, 404);
}

TEST_F(dav_handler_test, put_of_calendar_data_into_the_address_book_is_refused) {
    auto r = put(k_contacts + "e.vcf", event("e", "20250310T090000Z", "20250310T100000Z"));
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(put(k_calendar + "c.ics", card("c", "C")).status, 400);
    EXPECT_TRUE(store_.items().empty());
}

TEST_F(dav_handler_test, put_of_a_todo_into_the_event_calendar_is_forbidden) {
    const auto todo = vcalendar("BEGIN:VTODO\r\nUID:t\r\nDTSTAMP:20250101T000000Z\r\nSUMMARY:t\r\nEND:VTODO\r\n");
    auto r = put(k_calendar + "t.ics", todo);
    EXPECT_EQ(r.status, 403);
    EXPECT_EQ(precondition(r), clark(ns_caldav, "supported-calendar-component"));
    EXPECT_TRUE(store_.items().empty());
    EXPECT_EQ(put("/dav/acme/ann/tasks/t.ics", todo).status, 201);
}

TEST_F(dav_handler_test, put_over_the_object_size_limit_is_refused_with_413) {
    const auto body = card("a", "A");
    account_.max_object_bytes = body.size();
    EXPECT_EQ(put(k_contacts + "a.vcf", body).status, 201);
    EXPECT_EQ(put(k_contacts + "b.vcf", card("b", "BB")).status, 413);
    EXPECT_EQ(live_items(), 1u);
}

TEST_F(dav_handler_test, put_beyond_max_items_is_refused_with_507_but_replacing_works) {
    account_.max_items = 2;
    auto first = put(k_contacts + "a.vcf", card("a", "A"));
    ASSERT_EQ(put(k_contacts + "b.vcf", card("b", "B")).status, 201);
    EXPECT_EQ(put(k_contacts + "c.vcf", card("c", "C")).status, 507);
    EXPECT_EQ(live_items(), 2u);
    EXPECT_EQ(put(k_contacts + "a.vcf", card("a", "A2")).status, 204);
    EXPECT_EQ(put(k_calendar + "e.ics", event("e", "20250310T090000Z", "20250310T100000Z")).status, 201)
        << "the limit is per collection";
    ASSERT_EQ(run({.method = "DELETE", .path = k_contacts + "b.vcf"}).status, 204);
    EXPECT_EQ(put(k_contacts + "c.vcf", card("c", "C")).status, 201);
}

TEST_F(dav_handler_test, get_gives_an_item_without_uid_its_guid) {
    const auto guid =
        synced_item(common::item_kind::contact, "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:From A Phone\r\nEND:VCARD\r\n");
    auto r = get(k_contacts + guid + ".vcf");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_NE(r.body.find("\r\nUID:" + guid + "\r\nEND:VCARD"), std::string::npos) << r.body;
    EXPECT_NE(r.body.find("FN:From A Phone"), std::string::npos);
    EXPECT_EQ(header(r, "ETag"), etag_of(store_.items().front().modseq));
    EXPECT_EQ(get(k_contacts + guid).status, 404) << "the GUID alone is no name";
}

TEST_F(dav_handler_test, memos_serve_plain_text_as_a_vjournal) {
    const auto guid = synced_item(common::item_kind::memo, "Buy milk\nand eggs");
    auto r = get("/dav/acme/ann/memos/" + guid + ".ics");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_NE(r.content_type.find("VJOURNAL"), std::string::npos) << r.content_type;
    EXPECT_EQ(r.body.rfind("BEGIN:VCALENDAR", 0), 0u) << r.body;
    EXPECT_NE(r.body.find("BEGIN:VJOURNAL"), std::string::npos) << r.body;
    EXPECT_NE(r.body.find("UID:" + guid), std::string::npos) << r.body;
    EXPECT_NE(r.body.find("Buy milk"), std::string::npos) << r.body;
}

TEST_F(dav_handler_test, get_of_a_collection_is_not_allowed) {
    auto r = get(k_contacts);
    EXPECT_EQ(r.status, 405);
    EXPECT_NE(header(r, "Allow"), "");
}

TEST_F(dav_handler_test, delete_removes_the_item_and_sync_collection_reports_it_gone) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    ASSERT_EQ(put(k_contacts + "b.vcf", card("b", "B")).status, 201);
    const auto token = sync("").sync_token;
    EXPECT_EQ(run({.method = "DELETE", .path = k_contacts + "a.vcf", .if_match = "\"999\""}).status, 412);
    EXPECT_EQ(get(k_contacts + "a.vcf").status, 200);
    auto deleted = run({.method = "DELETE", .path = k_contacts + "a.vcf"});
    EXPECT_EQ(deleted.status, 204);
    EXPECT_EQ(deleted.outcome, "delete");
    EXPECT_EQ(get(k_contacts + "a.vcf").status, 404);
    EXPECT_EQ(run({.method = "DELETE", .path = k_contacts + "a.vcf"}).status, 404);
    auto changes = sync(token);
    ASSERT_EQ(changes.responses.size(), 1u);
    EXPECT_EQ(changes.responses[0].href, k_contacts + "a.vcf");
    EXPECT_EQ(changes.responses[0].status, 404);
    EXPECT_NE(changes.sync_token, token);
    EXPECT_EQ(run({.method = "DELETE", .path = k_contacts}).status, 403) << "a default collection stays";
}

TEST_F(dav_handler_test, a_deleted_name_can_be_used_again) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    const auto token = sync("").sync_token;
    ASSERT_EQ(run({.method = "DELETE", .path = k_contacts + "a.vcf"}).status, 204);
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "Again"), "", "*").status, 201);
    EXPECT_NE(get(k_contacts + "a.vcf").body.find("FN:Again"), std::string::npos);
    auto changes = sync(token);
    const auto* again = changes.find(k_contacts + "a.vcf");
    ASSERT_TRUE(again);
    EXPECT_EQ(again->status, 0) << "reported with its properties, not as gone";
    EXPECT_NE(again->text(ns_dav, "getetag"), "<absent>");
}

// ---- who may see what, and which paths exist ----

TEST_F(dav_handler_test, another_users_data_is_forbidden) {
    EXPECT_EQ(get("/dav/acme/bob/contacts/a.vcf").status, 403);
    EXPECT_EQ(propfind("/dav/acme/bob/", "1", "<d:resourcetype/>").status, 403);
    EXPECT_EQ(propfind("/dav/acme/principals/bob/", "0", "<d:resourcetype/>").status, 403);
    EXPECT_EQ(put("/dav/acme/bob/contacts/a.vcf", card("a", "A")).status, 403);
    EXPECT_EQ(report("/dav/acme/bob/contacts/", sync_body("")).status, 403);
    EXPECT_TRUE(store_.items().empty());
}

TEST_F(dav_handler_test, another_tenant_does_not_exist) {
    EXPECT_EQ(get("/dav/other/ann/contacts/a.vcf").status, 404);
    EXPECT_EQ(propfind("/dav/other/", "0", "<d:current-user-principal/>").status, 404);
    EXPECT_EQ(put("/dav/other/ann/contacts/a.vcf", card("a", "A")).status, 404);
    EXPECT_TRUE(store_.items().empty());
}

TEST_F(dav_handler_test, names_with_percent_escapes_are_decoded_and_dot_segments_refused) {
    ASSERT_EQ(put(k_contacts + "caf%C3%A9%20%2B%201.vcf", card("c", "Cafe")).status, 201);
    EXPECT_EQ(get(k_contacts + "caf%c3%a9 +%201.vcf").status, 200) << "the same name, escaped differently";
    auto listed = parse_multistatus(propfind(k_contacts, "1", "<d:getetag/>"));
    EXPECT_TRUE(listed.find(k_contacts + "caf%C3%A9%20%2B%201.vcf")) << ::testing::PrintToString(listed.hrefs());
    for (const std::string path :
         {"/dav/acme/ann/contacts/../contacts/x.vcf", "/dav/acme/ann/../bob/contacts/x.vcf",
          "/dav/acme/ann/contacts/%2e%2e", "/dav/acme/ann/contacts/a%2Fb.vcf", "/dav/acme/ann/contacts/a%zz.vcf"}) {
        EXPECT_EQ(put(path, card("x", "X")).status, 404) << path;
        EXPECT_EQ(get(path).status, 404) << path;
    }
    EXPECT_EQ(live_items(), 1u);
}

// ---- what cannot be changed ----

TEST_F(dav_handler_test, proppatch_is_all_or_nothing_with_a_status_for_each_property) {
    const std::string body = "<d:propertyupdate" + std::string(k_namespaces) +
                             "><d:set><d:prop><d:displayname>Renamed</d:displayname></d:prop></d:set>"
                             "<d:remove><d:prop><cs:getctag/></d:prop></d:remove></d:propertyupdate>";
    auto r = run({.method = "PROPPATCH", .path = k_contacts, .body = body});
    auto a = parse_multistatus(r);
    ASSERT_EQ(a.responses.size(), 1u);
    EXPECT_EQ(a.responses[0].href, k_contacts);
    EXPECT_EQ(a.responses[0].prop_status, (std::map<std::string, int>{{clark(ns_dav, "displayname"), 424},
                                                                      {clark(ns_calendarserver, "getctag"), 403}}))
        << "the ctag is protected, so the name is not set either";
    auto after = parse_multistatus(propfind(k_contacts, "0", "<d:displayname/>"));
    ASSERT_EQ(after.responses.size(), 1u);
    EXPECT_EQ(after.responses[0].text(ns_dav, "displayname"), "Contacts");
}

TEST_F(dav_handler_test, items_cannot_be_moved_or_copied) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    EXPECT_EQ(run({.method = "MOVE", .path = k_contacts + "a.vcf"}).status, 405);
    EXPECT_EQ(run({.method = "COPY", .path = k_contacts + "a.vcf"}).status, 405);
    EXPECT_FALSE(known_method("MOVE"));
    EXPECT_FALSE(known_method("COPY"));
    EXPECT_EQ(live_items(), 1u);
}

TEST_F(dav_handler_test, options_and_allow_list_what_works_on_each_resource) {
    auto options = run({.method = "OPTIONS", .path = k_contacts});
    EXPECT_EQ(options.status, 200);
    EXPECT_NE(header(options, "DAV").find("addressbook"), std::string::npos);
    EXPECT_NE(header(options, "DAV").find("calendar-access"), std::string::npos);
    EXPECT_NE(header(options, "DAV").find("extended-mkcol"), std::string::npos);
    EXPECT_EQ(header(options, "Allow"), "OPTIONS, PROPFIND, PROPPATCH, REPORT")
        << "a default is neither made nor deleted";
    EXPECT_EQ(header(options_response("/dav/acme/ann/work/"), "Allow"),
              "OPTIONS, PROPFIND, PROPPATCH, REPORT, DELETE, MKCOL, MKCALENDAR");
    EXPECT_EQ(header(options_response("/dav/acme/ann/"), "Allow"), "OPTIONS, PROPFIND");
    EXPECT_EQ(header(options_response("/elsewhere"), "Allow"), k_allowed_methods);
    auto patch = run({.method = "PATCH", .path = k_contacts + "a.vcf"});
    EXPECT_EQ(patch.status, 405);
    EXPECT_EQ(header(patch, "Allow"), "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, REPORT");
    EXPECT_EQ(header(get(k_contacts), "Allow"), "OPTIONS, PROPFIND, PROPPATCH, REPORT");
    EXPECT_TRUE(known_method("REPORT"));
    EXPECT_TRUE(known_method("MKCALENDAR"));
    EXPECT_FALSE(known_method("PATCH"));
    EXPECT_FALSE(known_method("propfind"));
    EXPECT_EQ(std::string(k_allowed_methods).find("MOVE"), std::string::npos);
}

}  // namespace
}  // namespace syncml::dav
