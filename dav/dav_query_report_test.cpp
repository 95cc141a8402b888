// The query REPORTs end to end through handle_dav: calendar-query with the filters of dav/query, expand and
// limit-recurrence-set, free-busy-query, and the refusals of filters the server does not take.
#include "dav/dav_handler.hpp"

#include <gtest/gtest.h>

#include "dav/dav_handler_test_support.hpp"

namespace syncml::dav {
namespace {

using namespace testing;

std::string calendar_query(const std::string& filter, const std::string& data = "<cal:calendar-data/>") {
    return "<cal:calendar-query" + std::string(k_namespaces) + "><d:prop><d:getetag/>" + data +
           "</d:prop><cal:filter><cal:comp-filter name=\"VCALENDAR\">" + filter +
           "</cal:comp-filter></cal:filter></cal:calendar-query>";
}

std::string time_range(const std::string& start, const std::string& end) {
    return "<cal:time-range start=\"" + start + "\" end=\"" + end + "\"/>";
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

class dav_query_report_test : public dav_handler_test {
  protected:
    void SetUp() override {
        // Tuesdays at 09:00 in Berlin (no VTIMEZONE), the second moved to Thursday; one single event.
        ASSERT_EQ(put(k_calendar + "weekly.ics",
                      vcalendar("BEGIN:VEVENT\r\nUID:weekly\r\nDTSTAMP:20250101T000000Z\r\n"
                                "DTSTART;TZID=Europe/Berlin:20250107T090000\r\nDTEND;TZID=Europe/Berlin:20250107T100000"
                                "\r\nRRULE:FREQ=WEEKLY;COUNT=6\r\nSUMMARY:standup\r\nEND:VEVENT\r\n"
                                "BEGIN:VEVENT\r\nUID:weekly\r\nDTSTAMP:20250101T000000Z\r\n"
                                "RECURRENCE-ID;TZID=Europe/Berlin:20250114T090000\r\n"
                                "DTSTART;TZID=Europe/Berlin:20250116T150000\r\nDTEND;TZID=Europe/Berlin:20250116T160000"
                                "\r\nSUMMARY:moved standup\r\nEND:VEVENT\r\n"))
                      .status,
                  201);
        ASSERT_EQ(put(k_calendar + "single.ics",
                      event("single", "20250115T120000Z", "20250115T130000Z", "CATEGORIES:Work,Lunch\r\n"))
                      .status,
                  201);
    }
    std::vector<std::string> hrefs(const std::string& filter) {
        return parse_multistatus(report(k_calendar, calendar_query(filter))).hrefs();
    }
};

TEST_F(dav_query_report_test, a_wednesday_holds_neither_the_tuesdays_nor_their_moved_instance) {
    const std::vector<std::string> single{k_calendar + "single.ics"}, weekly{k_calendar + "weekly.ics"};
    EXPECT_EQ(hrefs("<cal:comp-filter name=\"VEVENT\">" + time_range("20250115T000000Z", "20250116T000000Z") +
                    "</cal:comp-filter>"),
              single);
    EXPECT_EQ(hrefs("<cal:comp-filter name=\"VEVENT\">" + time_range("20250114T000000Z", "20250115T000000Z") +
                    "</cal:comp-filter>"),
              std::vector<std::string>{})
        << "the Tuesday that moved";
    EXPECT_EQ(hrefs("<cal:comp-filter name=\"VEVENT\">" + time_range("20250116T140000Z", "20250116T140100Z") +
                    "</cal:comp-filter>"),
              weekly)
        << "15:00 in Berlin";
}

TEST_F(dav_query_report_test, comp_and_prop_filters_select_items) {
    const std::vector<std::string> single{k_calendar + "single.ics"}, weekly{k_calendar + "weekly.ics"};
    EXPECT_EQ(hrefs("<cal:comp-filter name=\"VTODO\"/>"), std::vector<std::string>{});
    EXPECT_EQ(hrefs("<cal:comp-filter name=\"VEVENT\"><cal:prop-filter name=\"UID\"><cal:text-match>WEEKLY"
                    "</cal:text-match></cal:prop-filter></cal:comp-filter>"),
              weekly);
    EXPECT_EQ(hrefs("<cal:comp-filter name=\"VEVENT\"><cal:prop-filter name=\"CATEGORIES\"><cal:text-match "
                    "collation=\"i;octet\">Lunch</cal:text-match></cal:prop-filter></cal:comp-filter>"),
              single);
    EXPECT_EQ(hrefs("<cal:comp-filter name=\"VEVENT\"><cal:prop-filter name=\"CATEGORIES\"><cal:is-not-defined/>"
                    "</cal:prop-filter></cal:comp-filter>"),
              weekly);
}

TEST_F(dav_query_report_test, expand_returns_the_instances_in_utc) {
    const auto body = calendar_query(
        "<cal:comp-filter name=\"VEVENT\">" + time_range("20250101T000000Z", "20250122T000000Z") + "</cal:comp-filter>",
        "<cal:calendar-data><cal:expand start=\"20250101T000000Z\" "
        "end=\"20250122T000000Z\"/></cal:calendar-data>");
    const auto result = parse_multistatus(report(k_calendar, body));
    const auto* weekly = result.find(k_calendar + "weekly.ics");
    ASSERT_TRUE(weekly);
    const auto data = weekly->text(ns_caldav, "calendar-data");
    EXPECT_EQ(count(data, "BEGIN:VEVENT"), 3u) << data;
    EXPECT_NE(data.find("RECURRENCE-ID:20250107T080000Z"), std::string::npos) << data;
    EXPECT_NE(data.find("DTSTART:20250116T140000Z"), std::string::npos) << data;
    EXPECT_NE(data.find("RECURRENCE-ID:20250121T080000Z"), std::string::npos) << data;
    EXPECT_EQ(data.find("RRULE"), std::string::npos) << data;
    EXPECT_EQ(data.find("TZID"), std::string::npos) << data;
    auto open = report(k_calendar, calendar_query("",
                                                  "<cal:calendar-data><cal:expand start=\"20250101T000000Z\"/>"
                                                  "</cal:calendar-data>"));
    EXPECT_EQ(open.status, 400) << "expand needs an end";
}

TEST_F(dav_query_report_test, an_unknown_collation_is_refused_with_supported_collation) {
    auto r = report(k_calendar, calendar_query("<cal:comp-filter name=\"VEVENT\"><cal:prop-filter name=\"UID\">"
                                               "<cal:text-match collation=\"i;nonsense\">x</cal:text-match>"
                                               "</cal:prop-filter></cal:comp-filter>"));
    EXPECT_EQ(r.status, 412);
    EXPECT_EQ(precondition(r), clark(ns_caldav, "supported-collation"));
    auto card_query = report(k_contacts, "<card:addressbook-query" + std::string(k_namespaces) +
                                             "><d:prop><d:getetag/></d:prop><card:filter><card:prop-filter "
                                             "name=\"FN\"><card:text-match collation=\"x;y\">a</card:text-match>"
                                             "</card:prop-filter></card:filter></card:addressbook-query>");
    EXPECT_EQ(card_query.status, 412);
    EXPECT_EQ(precondition(card_query), clark(ns_carddav, "supported-collation"));
}

TEST_F(dav_query_report_test, free_busy_query_answers_one_vfreebusy) {
    auto r = report(k_calendar, "<cal:free-busy-query" + std::string(k_namespaces) + ">" +
                                    time_range("20250113T000000Z", "20250120T000000Z") + "</cal:free-busy-query>");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.content_type.rfind("text/calendar", 0), 0u);
    EXPECT_NE(r.body.find("BEGIN:VFREEBUSY"), std::string::npos) << r.body;
    EXPECT_NE(r.body.find("FREEBUSY:20250115T120000Z/20250115T130000Z"), std::string::npos) << r.body;
    EXPECT_NE(r.body.find("FREEBUSY:20250116T140000Z/20250116T150000Z"), std::string::npos) << r.body;
    EXPECT_EQ(r.body.find("20250114T080000Z"), std::string::npos) << "the moved Tuesday is free\n" << r.body;
    EXPECT_EQ(report(k_calendar, "<cal:free-busy-query" + std::string(k_namespaces) + "/>").status, 400);
}

TEST_F(dav_query_report_test, addressbook_query_with_param_filter_and_match_types) {
    ASSERT_EQ(put(k_contacts + "ann.vcf",
                  "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:1\r\nFN:Ann\r\nN:Ann;;;;\r\n"
                  "TEL;TYPE=WORK:+1 555 0100\r\nEND:VCARD\r\n")
                  .status,
              201);
    ASSERT_EQ(put(k_contacts + "bob.vcf", card("2", "Bob")).status, 201);
    const auto query = [&](const std::string& filter) {
        return parse_multistatus(report(k_contacts, "<card:addressbook-query" + std::string(k_namespaces) +
                                                        "><d:prop><d:getetag/></d:prop><card:filter>" + filter +
                                                        "</card:filter></card:addressbook-query>"))
            .hrefs();
    };
    const std::vector<std::string> ann{k_contacts + "ann.vcf"};
    EXPECT_EQ(query("<card:prop-filter name=\"TEL\"><card:param-filter name=\"TYPE\"><card:text-match "
                    "match-type=\"equals\">work</card:text-match></card:param-filter></card:prop-filter>"),
              ann);
    EXPECT_EQ(query("<card:prop-filter name=\"TEL\"><card:text-match match-type=\"ends-with\">0100"
                    "</card:text-match></card:prop-filter>"),
              ann);
    EXPECT_EQ(query("<card:prop-filter name=\"TEL\"><card:is-not-defined/></card:prop-filter>"),
              std::vector<std::string>{k_contacts + "bob.vcf"});
}

}  // namespace
}  // namespace syncml::dav
