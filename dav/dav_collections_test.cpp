// The collections a user makes (issue 38): MKCALENDAR and extended MKCOL with initial properties, PROPPATCH, DELETE,
// mixed-component calendars, the cap, privileges.
#include <gtest/gtest.h>

#include "dav/dav_handler.hpp"
#include "dav/dav_handler_test_support.hpp"

namespace syncml::dav {
namespace {

using namespace testing;

const std::string k_work = "/dav/acme/ann/work/";
const std::string k_ns = std::string(k_namespaces) + " xmlns:ical=\"http://apple.com/ns/ical/\"";

std::string mkcalendar_body(const std::string& props) {
    return "<?xml version=\"1.0\"?><cal:mkcalendar" + k_ns + "><d:set><d:prop>" + props +
           "</d:prop></d:set></cal:mkcalendar>";
}

std::string mkcol_body(const std::string& props) {
    return "<?xml version=\"1.0\"?><d:mkcol" + k_ns + "><d:set><d:prop>" + props + "</d:prop></d:set></d:mkcol>";
}

std::string proppatch_body(const std::string& set, const std::string& remove = "") {
    std::string body = "<d:propertyupdate" + k_ns + ">";
    if (!set.empty()) body += "<d:set><d:prop>" + set + "</d:prop></d:set>";
    if (!remove.empty()) body += "<d:remove><d:prop>" + remove + "</d:prop></d:remove>";
    return body + "</d:propertyupdate>";
}

const std::string k_berlin =
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\n"
    "DTSTART:19701025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
    "END:VCALENDAR\r\n";

std::string todo(const std::string& uid) {
    return vcalendar("BEGIN:VTODO\r\nUID:" + uid + "\r\nDTSTAMP:20250101T000000Z\r\nSUMMARY:" + uid +
                     "\r\nEND:VTODO\r\n");
}

std::string journal(const std::string& uid) {
    return vcalendar("BEGIN:VJOURNAL\r\nUID:" + uid + "\r\nDTSTAMP:20250101T000000Z\r\nSUMMARY:" + uid +
                     "\r\nEND:VJOURNAL\r\n");
}

class dav_collections_test : public dav_handler_test {
  protected:
    dav_response mkcalendar(const std::string& path, const std::string& props) {
        return run({.method = "MKCALENDAR", .path = path, .body = props.empty() ? "" : mkcalendar_body(props)});
    }
    dav_response proppatch(const std::string& path, const std::string& set, const std::string& remove = "") {
        return run({.method = "PROPPATCH", .path = path, .body = proppatch_body(set, remove)});
    }
    // A PROPFIND whose body declares Apple's namespace too (prefix ical).
    dav_response propfind(const std::string& path, const std::string& depth, const std::string& props) {
        return run(
            {.method = "PROPFIND",
             .path = path,
             .depth = depth,
             .body = "<?xml version=\"1.0\"?><d:propfind" + k_ns + "><d:prop>" + props + "</d:prop></d:propfind>"});
    }
    answer props_of(const std::string& path, const std::string& props) {
        auto a = parse_multistatus(propfind(path, "0", props));
        EXPECT_EQ(a.responses.size(), 1u);
        return a.responses.empty() ? answer{} : a.responses.front();
    }
    std::vector<std::string> components(const std::string& path) {
        auto a = props_of(path, "<cal:supported-calendar-component-set/>");
        std::vector<std::string> out;
        auto at = a.values.find(clark(ns_caldav, "supported-calendar-component-set"));
        if (at == a.values.end()) return out;
        for (const auto& comp : at->second.children) out.push_back(comp.attribute("name"));
        return out;
    }
};

// ---- MKCALENDAR and MKCOL ----

TEST_F(dav_collections_test, mkcalendar_makes_a_calendar_with_its_initial_properties) {
    auto r = mkcalendar(k_work,
                        "<d:displayname>Work</d:displayname><cal:calendar-description>Office</cal:calendar-description>"
                        "<cal:supported-calendar-component-set><cal:comp name=\"VEVENT\"/><cal:comp name=\"VTODO\"/>"
                        "</cal:supported-calendar-component-set><ical:calendar-color>#FF0000FF</ical:calendar-color>"
                        "<ical:calendar-order>3</ical:calendar-order><cal:calendar-timezone><![CDATA[" +
                            k_berlin + "]]></cal:calendar-timezone>");
    ASSERT_EQ(r.status, 201) << r.body;
    EXPECT_EQ(r.outcome, "write");
    auto home = parse_multistatus(propfind("/dav/acme/ann/", "1",
                                           "<d:resourcetype/><d:displayname/><cal:calendar-description/>"
                                           "<ical:calendar-color/><ical:calendar-order/><cal:calendar-timezone/>"));
    EXPECT_EQ(home.hrefs(),
              (std::vector<std::string>{"/dav/acme/ann/", "/dav/acme/ann/calendar/", "/dav/acme/ann/contacts/",
                                        "/dav/acme/ann/memos/", "/dav/acme/ann/tasks/", k_work}));
    const auto* work = home.find(k_work);
    ASSERT_TRUE(work);
    EXPECT_TRUE(work->has_child(ns_dav, "resourcetype", ns_caldav, "calendar"));
    EXPECT_EQ(work->text(ns_dav, "displayname"), "Work");
    EXPECT_EQ(work->text(ns_caldav, "calendar-description"), "Office");
    EXPECT_EQ(work->text(ns_apple, "calendar-color"), "#FF0000FF");
    EXPECT_EQ(work->text(ns_apple, "calendar-order"), "3");
    const auto zone = work->text(ns_caldav, "calendar-timezone");
    EXPECT_TRUE(zone.starts_with("BEGIN:VCALENDAR")) << zone;
    EXPECT_NE(zone.find("TZID:Europe/Berlin"), std::string::npos) << zone;
    EXPECT_EQ(components(k_work), (std::vector<std::string>{"VEVENT", "VTODO"}));
    const auto* calendar = home.find(k_calendar);
    ASSERT_TRUE(calendar);
    EXPECT_EQ(calendar->prop_status.at(clark(ns_apple, "calendar-color")), 404) << "the defaults have none set";
    EXPECT_EQ(components(k_calendar), std::vector<std::string>{"VEVENT"}) << "the default calendar stays as it was";
}

TEST_F(dav_collections_test, a_calendar_made_without_a_component_set_takes_every_component) {
    ASSERT_EQ(mkcalendar(k_work, "").status, 201);
    EXPECT_EQ(components(k_work), (std::vector<std::string>{"VEVENT", "VTODO", "VJOURNAL"}));
    EXPECT_EQ(props_of(k_work, "<d:displayname/>").text(ns_dav, "displayname"), "work") << "named after its URL";
    EXPECT_EQ(put(k_work + "e.ics", event("e", "20260105T090000Z", "20260105T100000Z")).status, 201);
    EXPECT_EQ(put(k_work + "t.ics", todo("t")).status, 201);
    EXPECT_EQ(put(k_work + "j.ics", journal("j")).status, 201);
}

TEST_F(dav_collections_test, extended_mkcol_makes_address_books_and_calendars) {
    auto book = run({.method = "MKCOL",
                     .path = "/dav/acme/ann/family/",
                     .body = mkcol_body("<d:resourcetype><d:collection/><card:addressbook/></d:resourcetype>"
                                        "<d:displayname>Family</d:displayname>"
                                        "<card:addressbook-description>Kin</card:addressbook-description>")});
    ASSERT_EQ(book.status, 201) << book.body;
    auto family = props_of("/dav/acme/ann/family/", "<d:resourcetype/><d:displayname/><card:addressbook-description/>");
    EXPECT_TRUE(family.has_child(ns_dav, "resourcetype", ns_carddav, "addressbook"));
    EXPECT_EQ(family.text(ns_dav, "displayname"), "Family");
    EXPECT_EQ(family.text(ns_carddav, "addressbook-description"), "Kin");
    EXPECT_EQ(put("/dav/acme/ann/family/a.vcf", card("a", "A")).status, 201);
    EXPECT_EQ(put("/dav/acme/ann/family/e.ics", event("e", "20260105T090000Z", "20260105T100000Z")).status, 400);

    auto calendar = run({.method = "MKCOL",
                         .path = "/dav/acme/ann/chores/",
                         .body = mkcol_body("<d:resourcetype><d:collection/><cal:calendar/></d:resourcetype>"
                                            "<cal:supported-calendar-component-set><cal:comp name=\"VTODO\"/>"
                                            "</cal:supported-calendar-component-set>")});
    ASSERT_EQ(calendar.status, 201) << calendar.body;
    EXPECT_EQ(components("/dav/acme/ann/chores/"), std::vector<std::string>{"VTODO"});
    EXPECT_EQ(put("/dav/acme/ann/chores/t.ics", todo("t")).status, 201);
    EXPECT_EQ(precondition(put("/dav/acme/ann/chores/e.ics", event("e", "20260105T090000Z", "20260105T100000Z"))),
              clark(ns_caldav, "supported-calendar-component"));
    const auto& rows = store_.datastores();
    EXPECT_EQ(rows.back().kind, common::item_kind::task) << "a calendar of tasks only is a task datastore";
}

TEST_F(dav_collections_test, a_plain_mkcol_or_one_of_another_resource_type_is_refused) {
    auto plain = run({.method = "MKCOL", .path = k_work});
    EXPECT_EQ(plain.status, 403);
    EXPECT_EQ(precondition(plain), clark(ns_dav, "valid-resourcetype"));
    auto other = run({.method = "MKCOL",
                      .path = k_work,
                      .body = mkcol_body("<d:resourcetype><d:collection/></d:resourcetype>"
                                         "<d:displayname>W</d:displayname>")});
    EXPECT_EQ(other.status, 403);
    auto parsed = parse_xml(other.body);
    ASSERT_TRUE(parsed.root) << other.body;
    EXPECT_TRUE(parsed.root->is(ns_dav, "mkcol-response"));
    EXPECT_EQ(run({.method = "PROPFIND", .path = k_work, .depth = "0"}).status, 404) << "nothing made";
}

TEST_F(dav_collections_test, an_unknown_or_bad_initial_property_fails_the_whole_creation) {
    auto r = mkcalendar(k_work,
                        "<d:displayname>Work</d:displayname><x:secret xmlns:x=\"urn:x\">1</x:secret>"
                        "<ical:calendar-order>first</ical:calendar-order>");
    EXPECT_EQ(r.status, 403);
    auto parsed = parse_xml(r.body);
    ASSERT_TRUE(parsed.root) << r.body;
    EXPECT_TRUE(parsed.root->is(ns_caldav, "mkcalendar-response"));
    std::map<std::string, int> statuses;
    for (const auto& propstat : parsed.root->children) {
        const int status = status_code(propstat.child(ns_dav, "status")->text);
        for (const auto& p : propstat.child(ns_dav, "prop")->children) statuses[clark(p.ns, p.name)] = status;
    }
    EXPECT_EQ(statuses, (std::map<std::string, int>{{clark(ns_dav, "displayname"), 424},
                                                    {"{urn:x}secret", 403},
                                                    {clark(ns_apple, "calendar-order"), 409}}));
    EXPECT_EQ(run({.method = "PROPFIND", .path = k_work, .depth = "0"}).status, 404);
    EXPECT_EQ(mkcalendar(k_work,
                         "<cal:supported-calendar-component-set><cal:comp name=\"VFREEBUSY\"/>"
                         "</cal:supported-calendar-component-set>")
                  .status,
              403);
}

TEST_F(dav_collections_test, names_are_checked_and_existing_urls_are_not_made_again) {
    ASSERT_EQ(mkcalendar(k_work, "").status, 201);
    EXPECT_EQ(mkcalendar(k_work, "").status, 405);
    EXPECT_EQ(mkcalendar(k_calendar, "").status, 405) << "a default collection exists whatever its state";
    EXPECT_EQ(mkcalendar("/dav/acme/ann/tasks/", "").status, 405);
    EXPECT_EQ(mkcalendar("/dav/acme/ann/", "").status, 405);
    EXPECT_EQ(mkcalendar("/dav/acme/ann/a%20b/", "").status, 403);
    EXPECT_EQ(mkcalendar("/dav/acme/ann/.hidden/", "").status, 403);
    EXPECT_EQ(mkcalendar("/dav/acme/ann/work/sub", "").status, 409) << "collections live in the home";
    EXPECT_EQ(mkcalendar("/dav/acme/ann/../bob/x/", "").status, 404);
    EXPECT_EQ(mkcalendar("/dav/acme/bob/x/", "").status, 403);
    EXPECT_EQ(store_.datastores().size(), 3u) << "work, and the defaults it and the requests named: calendar, tasks";
}

TEST_F(dav_collections_test, collections_per_user_are_capped) {
    account_.max_collections = 6;
    ASSERT_EQ(propfind("/dav/acme/ann/", "1", "<d:resourcetype/>").status, 207) << "the four defaults, as a user has";
    ASSERT_EQ(mkcalendar(k_work, "").status, 201);
    ASSERT_EQ(mkcalendar("/dav/acme/ann/home/", "").status, 201);
    auto over = mkcalendar("/dav/acme/ann/more/", "");
    EXPECT_EQ(over.status, 507);
    EXPECT_EQ(over.refused_by, "collections_per_user");
    ASSERT_EQ(run({.method = "DELETE", .path = k_work}).status, 204);
    EXPECT_EQ(mkcalendar("/dav/acme/ann/more/", "").status, 201) << "a deleted collection frees its place";
}

// ---- PROPPATCH ----

TEST_F(dav_collections_test, proppatch_renames_recolours_and_removes) {
    ASSERT_EQ(mkcalendar(k_work, "<d:displayname>Work</d:displayname>").status, 201);
    auto r = proppatch(k_work,
                       "<d:displayname>Office</d:displayname><ical:calendar-color>#00FF00</ical:calendar-color>"
                       "<ical:calendar-order>-2</ical:calendar-order>"
                       "<cal:calendar-description>9 to 5</cal:calendar-description>");
    auto a = parse_multistatus(r);
    ASSERT_EQ(a.responses.size(), 1u);
    EXPECT_EQ(a.responses[0].href, k_work);
    EXPECT_EQ(a.responses[0].prop_status,
              (std::map<std::string, int>{{clark(ns_dav, "displayname"), 200},
                                          {clark(ns_apple, "calendar-color"), 200},
                                          {clark(ns_apple, "calendar-order"), 200},
                                          {clark(ns_caldav, "calendar-description"), 200}}));
    EXPECT_EQ(r.outcome, "write");
    auto now = props_of(k_work, "<d:displayname/><ical:calendar-color/><ical:calendar-order/>");
    EXPECT_EQ(now.text(ns_dav, "displayname"), "Office");
    EXPECT_EQ(now.text(ns_apple, "calendar-color"), "#00FF00");
    EXPECT_EQ(now.text(ns_apple, "calendar-order"), "-2");

    auto removed = parse_multistatus(proppatch(k_work, "", "<ical:calendar-color/><d:displayname/>"));
    EXPECT_EQ(removed.responses.at(0).prop_status.at(clark(ns_apple, "calendar-color")), 200);
    auto after = props_of(k_work, "<d:displayname/><ical:calendar-color/>");
    EXPECT_EQ(after.prop_status.at(clark(ns_apple, "calendar-color")), 404);
    EXPECT_EQ(after.text(ns_dav, "displayname"), "work");
}

TEST_F(dav_collections_test, a_default_collection_takes_a_name_and_colour_too) {
    auto a = parse_multistatus(proppatch(k_calendar,
                                         "<d:displayname>Mine</d:displayname>"
                                         "<ical:calendar-color>blue</ical:calendar-color>"));
    EXPECT_EQ(a.responses.at(0).prop_status.at(clark(ns_apple, "calendar-color")), 200);
    EXPECT_EQ(props_of(k_calendar, "<d:displayname/>").text(ns_dav, "displayname"), "Mine");
    auto book = parse_multistatus(proppatch(k_contacts, "<ical:calendar-color>blue</ical:calendar-color>"));
    EXPECT_EQ(book.responses.at(0).prop_status.at(clark(ns_apple, "calendar-color")), 403)
        << "an address book has no calendar colour";
}

TEST_F(dav_collections_test, protected_properties_and_bad_values_fail_the_whole_proppatch) {
    ASSERT_EQ(mkcalendar(k_work, "<d:displayname>Work</d:displayname>").status, 201);
    auto r = parse_multistatus(proppatch(k_work,
                                         "<d:displayname>Other</d:displayname><cal:supported-calendar-component-set>"
                                         "<cal:comp name=\"VTODO\"/></cal:supported-calendar-component-set>"));
    EXPECT_EQ(r.responses.at(0).prop_status,
              (std::map<std::string, int>{{clark(ns_dav, "displayname"), 424},
                                          {clark(ns_caldav, "supported-calendar-component-set"), 403}}));
    auto bad = parse_multistatus(proppatch(k_work,
                                           "<cal:calendar-timezone>not a calendar</cal:calendar-timezone>"
                                           "<ical:calendar-color>red</ical:calendar-color>"));
    EXPECT_EQ(bad.responses.at(0).prop_status, (std::map<std::string, int>{{clark(ns_caldav, "calendar-timezone"), 409},
                                                                           {clark(ns_apple, "calendar-color"), 424}}));
    auto now = props_of(k_work, "<d:displayname/><ical:calendar-color/>");
    EXPECT_EQ(now.text(ns_dav, "displayname"), "Work");
    EXPECT_EQ(now.prop_status.at(clark(ns_apple, "calendar-color")), 404);
    auto home = parse_multistatus(proppatch("/dav/acme/ann/", "<d:displayname>Home</d:displayname>"));
    EXPECT_EQ(home.responses.at(0).prop_status.at(clark(ns_dav, "displayname")), 403);
}

// ---- what a calendar takes ----

TEST_F(dav_collections_test, a_mixed_calendar_takes_what_its_component_set_names) {
    ASSERT_EQ(mkcalendar(k_work,
                         "<cal:supported-calendar-component-set><cal:comp name=\"VEVENT\"/>"
                         "<cal:comp name=\"VTODO\"/></cal:supported-calendar-component-set>")
                  .status,
              201);
    const auto recurring = event("r", "20260105T090000Z", "20260105T100000Z",
                                 "RRULE:FREQ=WEEKLY;COUNT=10\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\n"
                                 "DESCRIPTION:r\r\nEND:VALARM\r\n");
    EXPECT_EQ(put(k_work + "r.ics", recurring).status, 201);
    EXPECT_EQ(put(k_work + "t.ics", todo("t")).status, 201);
    auto journal_put = put(k_work + "j.ics", journal("j"));
    EXPECT_EQ(journal_put.status, 403);
    EXPECT_EQ(precondition(journal_put), clark(ns_caldav, "supported-calendar-component"));
    auto task = get(k_work + "t.ics");
    EXPECT_EQ(task.content_type, "text/calendar; charset=utf-8; component=VTODO");
    EXPECT_NE(task.body.find("BEGIN:VTODO"), std::string::npos);
    EXPECT_EQ(get(k_work + "r.ics").content_type, "text/calendar; charset=utf-8; component=VEVENT");
    EXPECT_EQ(precondition(put(k_calendar + "t.ics", todo("t2"))), clark(ns_caldav, "supported-calendar-component"))
        << "the default calendar takes events only";
    auto listed = parse_multistatus(propfind(k_work, "1", "<d:getetag/>"));
    EXPECT_EQ(listed.hrefs(), (std::vector<std::string>{k_work, k_work + "r.ics", k_work + "t.ics"}));
}

// ---- DELETE ----

TEST_F(dav_collections_test, delete_of_a_collection_makes_its_items_tombstones_and_frees_its_name) {
    ASSERT_EQ(mkcalendar(k_work, "").status, 201);
    ASSERT_EQ(put(k_work + "e.ics", event("e", "20260105T090000Z", "20260105T100000Z")).status, 201);
    ASSERT_EQ(put(k_work + "t.ics", todo("t")).status, 201);
    const auto token = sync("", k_work).sync_token;
    EXPECT_EQ(run({.method = "DELETE", .path = k_work, .if_match = "\"1\""}).status, 412) << "the ctag is 2";
    auto r = run({.method = "DELETE", .path = k_work, .if_match = "\"2\""});
    EXPECT_EQ(r.status, 204);
    EXPECT_EQ(r.outcome, "delete");
    EXPECT_EQ(live_items(), 0u);
    EXPECT_EQ(store_.items().size(), 2u) << "tombstones stay for the devices that synced the collection";
    EXPECT_EQ(run({.method = "PROPFIND", .path = k_work, .depth = "0"}).status, 404);
    EXPECT_EQ(get(k_work + "e.ics").status, 404);
    EXPECT_EQ(put(k_work + "e.ics", event("e", "20260105T090000Z", "20260105T100000Z")).status, 409);
    EXPECT_EQ(run({.method = "DELETE", .path = k_work}).status, 404);
    auto home = parse_multistatus(propfind("/dav/acme/ann/", "1", "<d:resourcetype/>"));
    EXPECT_FALSE(home.find(k_work));

    ASSERT_EQ(mkcalendar(k_work, "").status, 201) << "the name is free again";
    EXPECT_EQ(report(k_work, sync_body(token)).status, 403) << "a token of the deleted collection is no longer valid";
    EXPECT_TRUE(sync("", k_work).responses.empty());
    EXPECT_EQ(run({.method = "DELETE", .path = k_calendar}).status, 403) << "a default stays";
}

// ---- who may do what ----

TEST_F(dav_collections_test, privileges_say_what_each_resource_allows) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    const auto privileges = [&](const std::string& path) {
        std::vector<std::string> out;
        auto a = props_of(path, "<d:current-user-privilege-set/>");
        auto at = a.values.find(clark(ns_dav, "current-user-privilege-set"));
        if (at == a.values.end()) return out;
        for (const auto& p : at->second.children) {
            if (!p.children.empty()) out.push_back(p.children.front().name);
        }
        return out;
    };
    EXPECT_EQ(privileges("/dav/acme/ann/"), (std::vector<std::string>{"read", "bind", "unbind"}));
    EXPECT_EQ(privileges(k_contacts),
              (std::vector<std::string>{"read", "write", "write-properties", "write-content", "bind", "unbind"}));
    EXPECT_EQ(privileges(k_contacts + "a.vcf"), (std::vector<std::string>{"read", "write-content"}));
    EXPECT_EQ(privileges("/dav/acme/principals/ann/"), std::vector<std::string>{"read"});
}

}  // namespace
}  // namespace syncml::dav
