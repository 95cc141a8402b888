#include "dav/dav_listing.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <set>

#include "dav/dav_handler_test_support.hpp"

namespace syncml::dav {
namespace {

using namespace testing;

const std::string k_card_data = "<d:getetag/><card:address-data/>";
const std::string k_number_of_matches = clark(ns_dav, "number-of-matches-within-limits");

// Listings with small pages, batches and responses, over items as SyncML writes them (named by GUID).
class dav_listing_test : public dav_handler_test {
  protected:
    // `n` contacts of one size; their hrefs in item id order.
    std::vector<std::string> add_contacts(int n, int from = 0) {
        std::vector<std::string> hrefs;
        for (int i = from; i < from + n; ++i) {
            char name[32];
            std::snprintf(name, sizeof name, "Person %03d", i);
            const std::string content =
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:" + std::string(name) + "\r\nN:" + name + ";;;;\r\nEND:VCARD\r\n";
            hrefs.push_back(k_contacts + synced_item(common::item_kind::contact, content) + ".vcf");
        }
        return hrefs;
    }
    std::vector<std::string> add_events(int n) {
        std::vector<std::string> hrefs;
        for (int i = 0; i < n; ++i) {
            const auto content = event("e" + std::to_string(i), "20250310T090000Z", "20250310T100000Z");
            hrefs.push_back(k_calendar + synced_item(common::item_kind::event, content) + ".ics");
        }
        return hrefs;
    }
    // The largest content stored: batches in these tests hold two and a half of them.
    std::size_t largest_content() const {
        std::size_t largest = 0;
        for (const auto& item : store_.items()) largest = std::max(largest, item.content.size());
        return largest;
    }
    // The contents of these hrefs' items, in bytes.
    std::size_t content_bytes_of(const std::vector<std::string>& hrefs) const {
        std::size_t bytes = 0;
        for (const auto& item : store_.items()) {
            const auto name = item.name.empty() ? item.guid : item.name;
            for (const auto& href : hrefs) {
                if (!item.deleted && href.find(name) != std::string::npos) bytes += item.content.size();
            }
        }
        return bytes;
    }
    void forget_handouts() {
        store_.largest_content_handout = 0;
        store_.content_handed_out = 0;
    }
    dav_response propfind_data(const std::string& collection, const std::string& props) {
        return run({.method = "PROPFIND", .path = collection, .depth = "1", .body = propfind_body(props)});
    }
    dav_response addressbook_query(const std::string& props) {
        return report(k_contacts, "<card:addressbook-query" + std::string(k_namespaces) + "><d:prop>" + props +
                                      "</d:prop><card:filter><card:prop-filter name=\"FN\"><card:text-match>person"
                                      "</card:text-match></card:prop-filter></card:filter></card:addressbook-query>");
    }
    dav_response calendar_query() {
        return report(k_calendar, "<cal:calendar-query" + std::string(k_namespaces) +
                                      "><d:prop><d:getetag/><cal:calendar-data/></d:prop><cal:filter>"
                                      "<cal:comp-filter name=\"VCALENDAR\"><cal:comp-filter name=\"VEVENT\">"
                                      "<cal:time-range start=\"20250301T000000Z\" end=\"20250401T000000Z\"/>"
                                      "</cal:comp-filter></cal:comp-filter></cal:filter></cal:calendar-query>");
    }
    dav_response multiget(const std::vector<std::string>& hrefs) {
        std::string body =
            "<card:addressbook-multiget" + std::string(k_namespaces) + "><d:prop>" + k_card_data + "</d:prop>";
        for (const auto& href : hrefs) body += "<d:href>" + href + "</d:href>";
        return report(k_contacts, body + "</card:addressbook-multiget>");
    }
    std::string collection_token(const std::string& collection = k_contacts) {
        auto a = parse_multistatus(propfind(collection, "0", "<d:sync-token/>"));
        return a.responses.empty() ? "" : a.responses[0].text(ns_dav, "sync-token");
    }
};

// The items a 207 lists, in its order: every response but the collection's own.
std::vector<std::string> items_listed(const answers& a, const std::string& collection) {
    std::vector<std::string> hrefs;
    for (const auto& r : a.responses) {
        if (r.href != collection) hrefs.push_back(r.href);
    }
    return hrefs;
}

// The 507 that ends a listing cut short: the last response, for the collection.
bool cut_short(const answers& a, const std::string& collection) {
    return !a.responses.empty() && a.responses.back().href == collection && a.responses.back().status == 507;
}

std::set<std::string> distinct(const std::vector<std::string>& hrefs) { return {hrefs.begin(), hrefs.end()}; }

TEST_F(dav_listing_test, every_listing_kind_gives_each_item_once_reading_one_batch_of_contents_at_a_time) {
    auto contacts = add_contacts(10);
    const auto events = add_events(7);
    account_.listing = {.page_items = 3, .content_batch_bytes = largest_content() * 5 / 2};
    const auto check = [&](const dav_response& r, const std::vector<std::string>& expected,
                           const std::string& collection, const std::string& what) {
        auto a = parse_multistatus(r);
        EXPECT_EQ(items_listed(a, collection), expected) << what << ": each item once, in order";
        EXPECT_FALSE(cut_short(a, collection)) << what;
        for (const auto& response : a.responses) {
            if (response.href == collection) continue;
            const auto data = collection == k_contacts ? response.text(ns_carddav, "address-data")
                                                       : response.text(ns_caldav, "calendar-data");
            EXPECT_NE(data.find("BEGIN:V"), std::string::npos) << what << " " << response.href;
        }
        EXPECT_LE(store_.largest_content_handout, account_.listing.content_batch_bytes) << what;
        EXPECT_GT(store_.content_handed_out, store_.largest_content_handout) << what << ": in several batches";
        EXPECT_EQ(store_.content_handed_out, content_bytes_of(expected)) << what << ": each content read once";
        forget_handouts();
    };
    forget_handouts();
    check(propfind_data(k_contacts, k_card_data), contacts, k_contacts, "PROPFIND Depth 1");
    check(addressbook_query(k_card_data), contacts, k_contacts, "addressbook-query");
    check(calendar_query(), events, k_calendar, "calendar-query");
    check(report(k_contacts, sync_body("", k_card_data)), contacts, k_contacts, "first sync-collection");
    EXPECT_EQ(items_listed(parse_multistatus(propfind_data(k_contacts, "<d:getetag/>")), k_contacts), contacts);
    EXPECT_EQ(store_.content_handed_out, 0u) << "a listing without contents reads none";

    const auto token = sync("").sync_token;
    for (auto href = contacts.rbegin(); href != contacts.rend(); ++href)
        ASSERT_EQ(put(*href, card(*href, "Edited " + *href)).status, 204);
    account_.listing.content_batch_bytes = largest_content() * 5 / 2;
    forget_handouts();
    check(report(k_contacts, sync_body(token, k_card_data)), {contacts.rbegin(), contacts.rend()}, k_contacts,
          "sync-collection of changes, in the order they were made");
}

TEST_F(dav_listing_test, an_item_larger_than_a_batch_is_a_batch_of_its_own) {
    auto contacts = add_contacts(2);
    account_.listing = {.page_items = 10, .content_batch_bytes = largest_content() * 5 / 2};
    const std::string large =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Large\r\nNOTE:" + std::string(account_.listing.content_batch_bytes * 3, 'n') +
        "\r\nEND:VCARD\r\n";
    contacts.push_back(k_contacts + synced_item(common::item_kind::contact, large) + ".vcf");
    for (const auto& href : add_contacts(2, 2)) contacts.push_back(href);
    forget_handouts();
    auto a = parse_multistatus(propfind_data(k_contacts, k_card_data));
    EXPECT_EQ(items_listed(a, k_contacts), contacts);
    ASSERT_NE(a.find(contacts[2]), nullptr);
    EXPECT_NE(a.find(contacts[2])->text(ns_carddav, "address-data").find("FN:Large"), std::string::npos);
    EXPECT_EQ(store_.largest_content_handout, large.size());
    EXPECT_EQ(store_.content_handed_out, content_bytes_of(contacts));
}

TEST_F(dav_listing_test, a_listing_past_the_response_cap_stops_with_a_507_in_a_well_formed_body) {
    const auto contacts = add_contacts(10);
    const auto events = add_events(10);
    account_.listing.page_items = 3;
    const std::string end_tag = "</d:multistatus>\n";
    const auto check = [&](const std::function<dav_response()>& listing, const std::vector<std::string>& all,
                           const std::string& collection, const std::string& what) {
        account_.listing.response_bytes = listing_limits{}.response_bytes;
        const auto whole = listing().body.size();
        account_.listing.response_bytes = whole - end_tag.size();
        auto exact = parse_multistatus(listing());
        EXPECT_FALSE(cut_short(exact, collection)) << what << ": a body exactly at the cap is whole";
        EXPECT_EQ(items_listed(exact, collection), all) << what;

        account_.listing.response_bytes = whole / 2;
        const auto r = listing();
        auto a = parse_multistatus(r);  // fails on a body that is not well-formed
        ASSERT_TRUE(cut_short(a, collection)) << what << "\n" << r.body;
        EXPECT_EQ(a.responses.back().error, k_number_of_matches) << what;
        const auto listed = items_listed(a, collection);
        ASSERT_GE(listed.size(), 1u) << what;
        EXPECT_LT(listed.size(), all.size()) << what;
        EXPECT_EQ(listed, std::vector<std::string>(all.begin(), all.begin() + listed.size())) << what;
        EXPECT_LE(r.body.size(), account_.listing.response_bytes + 400) << what << ": the cap and the 507";
    };
    check([&] { return propfind_data(k_contacts, k_card_data); }, contacts, k_contacts, "PROPFIND Depth 1");
    check([&] { return propfind_data(k_contacts, "<d:getetag/>"); }, contacts, k_contacts, "PROPFIND of ETags");
    check([&] { return addressbook_query(k_card_data); }, contacts, k_contacts, "addressbook-query");
    check([&] { return calendar_query(); }, events, k_calendar, "calendar-query");
}

// RFC 6578 3.6: a server may truncate a sync report the client did not limit, or limited to more than the server
// gives; the token of each part continues where it stopped.
TEST_F(dav_listing_test, a_sync_report_past_the_response_cap_continues_in_parts_that_miss_nothing) {
    const auto contacts = add_contacts(10);
    account_.listing = {.response_bytes = 2000, .page_items = 3, .content_batch_bytes = 1 << 20};
    for (const auto& limit : {std::string(), std::string("1000")}) {
        std::vector<std::string> all;
        std::string token;
        int parts = 0;
        for (; parts < 20; ++parts) {
            const auto body =
                limit.empty() ? sync_body(token, k_card_data) : limited_sync_body(token, limit, k_card_data);
            auto a = parse_multistatus(report(k_contacts, body));
            const auto listed = items_listed(a, k_contacts);
            all.insert(all.end(), listed.begin(), listed.end());
            token = a.sync_token;
            if (!cut_short(a, k_contacts)) break;
            EXPECT_EQ(a.responses.back().error, k_number_of_matches);
            EXPECT_FALSE(listed.empty()) << "each part moves on";
        }
        EXPECT_GE(parts, 2) << limit;
        EXPECT_EQ(all, contacts) << "limit " << limit;
        EXPECT_EQ(token, collection_token()) << "the last part ends where a whole report would";
        EXPECT_TRUE(sync(token).responses.empty());
    }
}

// Every (href, status) of a sync from `token` in parts of at most `limit` (0: none), in order; `parts` how many.
std::vector<std::string> sync_in_parts(dav_handler_test& t, std::string token, std::size_t limit,
                                       std::string& final_token, int& parts) {
    std::vector<std::string> seen;
    for (parts = 1; parts < 50; ++parts) {
        const auto body = limit ? limited_sync_body(token, std::to_string(limit)) : sync_body(token);
        auto a = parse_multistatus(t.report_on(k_contacts, body));
        std::size_t listed = 0;
        for (const auto& r : a.responses) {
            if (r.href == k_contacts) continue;
            seen.push_back(r.href + " " + std::to_string(r.status));
            ++listed;
        }
        if (limit) {
            EXPECT_LE(listed, limit);
        }
        token = a.sync_token;
        if (!cut_short(a, k_contacts)) break;
    }
    final_token = token;
    return seen;
}

TEST_F(dav_listing_test, a_sync_in_limited_parts_over_creates_edits_and_deletes_equals_the_whole_answer) {
    const auto synced = add_contacts(8);
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    ASSERT_EQ(put(k_contacts + "b.vcf", card("b", "B")).status, 201);
    const auto start = sync("").sync_token;
    for (const char* name : {"n1", "n2", "n3", "n4"})
        ASSERT_EQ(put(k_contacts + name + ".vcf", card(name, name)).status, 201);
    for (const auto& href : {synced[1], synced[5], k_contacts + "a.vcf"})
        ASSERT_EQ(put(href, card(href, "Edited")).status, 204);
    for (const auto& href : {synced[2], k_contacts + "n2.vcf", k_contacts + "b.vcf"})
        ASSERT_EQ(run({.method = "DELETE", .path = href}).status, 204);
    ASSERT_EQ(put(k_contacts + "b.vcf", card("b2", "B again")).status, 201);

    for (const auto& from : {start, std::string()}) {
        std::string whole_token;
        int parts = 0;
        const auto whole = sync_in_parts(*this, from, 0, whole_token, parts);
        ASSERT_EQ(parts, 1);
        ASSERT_EQ(whole_token, collection_token());
        EXPECT_EQ(distinct(whole).size(), whole.size());
        for (std::size_t limit : {1u, 2u, 3u, 5u}) {
            account_.listing.page_items = 2;
            std::string token;
            EXPECT_EQ(sync_in_parts(*this, from, limit, token, parts), whole)
                << "from '" << from << "' in parts of " << limit;
            EXPECT_GE(parts, static_cast<int>(whole.size() / limit)) << "from '" << from << "' in parts of " << limit;
            EXPECT_EQ(token, whole_token);
            EXPECT_TRUE(sync(token).responses.empty());
        }
        account_.listing.response_bytes = 900;
        std::string token;
        EXPECT_EQ(sync_in_parts(*this, from, 0, token, parts), whole) << "from '" << from << "' in parts the cap makes";
        EXPECT_GE(parts, 3) << "from '" << from << "'";
        EXPECT_EQ(token, whole_token);
        account_.listing = {};
    }
    std::string token;
    int parts = 0;
    const auto changes = sync_in_parts(*this, start, 0, token, parts);
    for (const auto& gone : {synced[2], k_contacts + "n2.vcf"})
        EXPECT_NE(std::find(changes.begin(), changes.end(), gone + " 404"), changes.end()) << gone;
}

// No write shares a modseq (each takes its own), but the limit never splits one: the token of the last change
// reported would skip the others of its modseq.
TEST_F(dav_listing_test, changes_of_one_modseq_stay_together_and_a_limit_below_them_is_refused) {
    add_contacts(2);
    const auto before = sync("").sync_token;
    const auto shared = add_contacts(4, 2);
    auto& ds = store_.datastore(account_.tenant_id.value(), account_.user_id.value(), common::item_kind::contact);
    for (auto& item : store_.items()) {
        if (item.modseq > 2) item.modseq = ds.modseq;
    }
    account_.listing.page_items = 3;

    auto refused = report(k_contacts, limited_sync_body(before, "3"));
    EXPECT_EQ(refused.status, 507) << "RFC 6578 3.7: the limit cannot be honoured";
    EXPECT_EQ(precondition(refused), k_number_of_matches);

    auto whole = parse_multistatus(report(k_contacts, sync_body(before)));
    EXPECT_EQ(items_listed(whole, k_contacts), shared) << "a page wider than one modseq's changes";
    EXPECT_FALSE(cut_short(whole, k_contacts));
    auto fits = parse_multistatus(report(k_contacts, limited_sync_body(before, "4")));
    EXPECT_EQ(items_listed(fits, k_contacts), shared);
    EXPECT_FALSE(cut_short(fits, k_contacts));

    const auto zero = before.substr(0, before.rfind(':') + 1) + "0";
    auto first = parse_multistatus(report(k_contacts, limited_sync_body(zero, "3")));
    EXPECT_EQ(items_listed(first, k_contacts).size(), 2u) << "cut before the modseq that does not fit";
    EXPECT_TRUE(cut_short(first, k_contacts));
    EXPECT_EQ(first.sync_token, before);
}

TEST_F(dav_listing_test, an_item_deleted_between_its_page_and_its_content_is_left_out_and_reported_gone_later) {
    const auto contacts = add_contacts(6);
    account_.listing = {.page_items = 3, .content_batch_bytes = largest_content() * 5 / 2};
    const auto before = sync("").sync_token;
    std::string deleted;
    store_.before_named = [&](const std::vector<std::string>& names) {
        if (!deleted.empty() || names.size() < 2) return;
        deleted = k_contacts + names.back();
        const auto c = store_.collection(account_.tenant_id, account_.user_id, common::item_kind::contact, ".vcf");
        persistence::dav_resource gone;
        for (const auto& item : store_.items()) {
            if (item.guid + ".vcf" == names.back()) gone.item_id = item.item_id;
        }
        store_.remove(c, gone);
    };
    auto a = parse_multistatus(propfind_data(k_contacts, k_card_data));
    store_.before_named = nullptr;
    ASSERT_EQ(deleted, contacts[1]);
    auto expected = contacts;
    expected.erase(expected.begin() + 1);
    EXPECT_EQ(items_listed(a, k_contacts), expected);
    EXPECT_FALSE(cut_short(a, k_contacts));
    auto changes = sync(before);
    ASSERT_NE(changes.find(deleted), nullptr);
    EXPECT_EQ(changes.find(deleted)->status, 404);
}

// A multiget reads its resources as a listing does (issue 35): contents a batch at a time, never all at once, and a
// response within the cap; the resources past the cap are named with 507, so the client asks for them again.
TEST_F(dav_listing_test, a_multiget_reads_contents_in_batches_and_names_what_the_cap_left_out) {
    const auto contacts = add_contacts(10);
    const std::string missing = k_contacts + "no-such-item.vcf";
    auto asked = contacts;
    asked.push_back(missing);
    account_.listing = {.page_items = 4, .content_batch_bytes = largest_content() * 5 / 2};
    forget_handouts();
    auto whole = parse_multistatus(multiget(asked));
    std::set<std::string> described;
    for (const auto& r : whole.responses) {
        if (r.href == missing) {
            EXPECT_EQ(r.status, 404);
            continue;
        }
        EXPECT_NE(r.text(ns_carddav, "address-data").find("BEGIN:VCARD"), std::string::npos) << r.href;
        described.insert(r.href);
    }
    EXPECT_EQ(described, distinct(contacts));
    EXPECT_LE(store_.largest_content_handout, account_.listing.content_batch_bytes) << "one batch at a time";
    EXPECT_EQ(store_.content_handed_out, content_bytes_of(contacts)) << "each content read once";

    account_.listing.response_bytes = multiget(asked).body.size() / 2;
    const auto r = multiget(asked);
    auto cut = parse_multistatus(r);
    std::set<std::string> sent, refused;
    for (const auto& response : cut.responses) {
        if (response.status == 507) {
            refused.insert(response.href);
        } else if (response.href != missing) {
            EXPECT_NE(response.text(ns_carddav, "address-data").find("BEGIN:VCARD"), std::string::npos);
            sent.insert(response.href);
        }
    }
    ASSERT_FALSE(sent.empty());
    ASSERT_FALSE(refused.empty()) << r.body;
    EXPECT_EQ(sent.size() + refused.size(), contacts.size() + 1) << "every href answered once: " << r.body;
    for (const auto& href : contacts) EXPECT_TRUE(sent.count(href) + refused.count(href) == 1) << href;
    EXPECT_LE(r.body.size(), account_.listing.response_bytes + refused.size() * 200) << "the cap and short 507s";
}

}  // namespace
}  // namespace syncml::dav
