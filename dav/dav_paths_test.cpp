#include "dav/dav_paths.hpp"

#include <gtest/gtest.h>

namespace syncml::dav {
namespace {

TEST(dav_paths, reads_each_level_of_the_url_space) {
    auto root = parse_dav_path("/dav/acme/");
    ASSERT_TRUE(root);
    EXPECT_EQ(root->kind, resource_kind::root);
    EXPECT_EQ(root->tenant, "acme");

    auto principal = parse_dav_path("/dav/acme/principals/ann/");
    ASSERT_TRUE(principal);
    EXPECT_EQ(principal->kind, resource_kind::principal);
    EXPECT_EQ(principal->user, "ann");

    auto home = parse_dav_path("/dav/acme/ann");
    ASSERT_TRUE(home);
    EXPECT_EQ(home->kind, resource_kind::home);
    EXPECT_EQ(home->user, "ann");

    auto collection = parse_dav_path("/dav/acme/ann/calendar/");
    ASSERT_TRUE(collection);
    EXPECT_EQ(collection->kind, resource_kind::collection);
    EXPECT_EQ(collection->collection, "calendar");

    auto item = parse_dav_path("/dav/acme/ann/contacts/x.vcf");
    ASSERT_TRUE(item);
    EXPECT_EQ(item->kind, resource_kind::item);
    EXPECT_EQ(item->tenant, "acme");
    EXPECT_EQ(item->user, "ann");
    EXPECT_EQ(item->collection, "contacts");
    EXPECT_EQ(item->name, "x.vcf");
}

TEST(dav_paths, decodes_percent_escapes_in_every_segment) {
    auto item = parse_dav_path("/dav/a%20b/ann%40example.org/memos/n%C3%A4me%2B1.ics");
    ASSERT_TRUE(item);
    EXPECT_EQ(item->tenant, "a b");
    EXPECT_EQ(item->user, "ann@example.org");
    EXPECT_EQ(item->name, "n\xC3\xA4me+1.ics");
}

TEST(dav_paths, rejects_dot_segments_encoded_or_not) {
    for (const char* path : {"/dav/acme/ann/../bob/contacts/", "/dav/acme/ann/contacts/..", "/dav/acme/./ann/",
                             "/dav/acme/ann/contacts/%2e%2e", "/dav/acme/ann/contacts/%2E", "/dav/../acme/"}) {
        EXPECT_FALSE(parse_dav_path(path)) << path;
    }
}

TEST(dav_paths, rejects_malformed_escapes_encoded_slashes_and_nul) {
    for (const char* path : {"/dav/acme/ann/contacts/a%2", "/dav/acme/ann/contacts/a%", "/dav/acme/ann/contacts/%zz",
                             "/dav/acme/ann/contacts/a%2Fb", "/dav/acme/ann/contacts/a%00b"}) {
        EXPECT_FALSE(parse_dav_path(path)) << path;
    }
    auto last = parse_dav_path("/dav/acme/ann/contacts/a%41");
    ASSERT_TRUE(last) << "an escape at the very end";
    EXPECT_EQ(last->name, "aA");
}

TEST(dav_paths, rejects_paths_outside_the_space) {
    for (const char* path :
         {"/", "/dav", "/dav/", "/dav//", "/dav/acme//contacts/", "/other/acme/", "/dav/acme/principals/",
          "/dav/acme/principals/ann/x", "/dav/acme/ann/contacts/x.vcf/", "/dav/acme/ann/contacts/a/b"}) {
        EXPECT_FALSE(parse_dav_path(path)) << path;
    }
}

TEST(dav_paths, takes_the_path_of_absolute_urls_and_drops_queries) {
    EXPECT_EQ(href_path("https://dav.example.org:8443/dav/acme/ann/?x=1"), "/dav/acme/ann/");
    EXPECT_EQ(href_path("http://host"), "/");
    EXPECT_EQ(href_path("/dav/acme/ann/contacts/a.vcf#frag"), "/dav/acme/ann/contacts/a.vcf");
    EXPECT_EQ(href_path("/dav/acme/ann/contacts/http://x"), "/dav/acme/ann/contacts/http://x");
}

TEST(dav_paths, hrefs_encode_names_so_that_they_parse_back) {
    const std::string name = "a b/c?d%e\xC3\xA4@f.vcf";
    auto href = item_href("acme corp", "ann@example.org", "contacts", name);
    EXPECT_EQ(href, "/dav/acme%20corp/ann@example.org/contacts/a%20b%2Fc%3Fd%25e%C3%A4@f.vcf");
    auto parsed = parse_dav_path(href);
    ASSERT_FALSE(parsed) << "an encoded slash in a name is refused on the way in";
    auto plain = parse_dav_path(item_href("acme corp", "ann@example.org", "contacts", "a b?%\xC3\xA4.vcf"));
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->tenant, "acme corp");
    EXPECT_EQ(plain->user, "ann@example.org");
    EXPECT_EQ(plain->name, "a b?%\xC3\xA4.vcf");
    EXPECT_EQ(collection_href("t", "u", "tasks"), "/dav/t/u/tasks/");
    EXPECT_EQ(principal_href("t", "u"), "/dav/t/principals/u/");
}

TEST(dav_paths, any_name_in_the_home_is_a_collection_path_whose_existence_the_store_decides) {
    auto work = parse_dav_path("/dav/acme/ann/work/");
    ASSERT_TRUE(work);
    EXPECT_EQ(work->kind, resource_kind::collection);
    EXPECT_EQ(work->collection, "work");
    auto item = parse_dav_path("/dav/acme/ann/work/e.ics");
    ASSERT_TRUE(item);
    EXPECT_EQ(item->kind, resource_kind::item);
    EXPECT_EQ(item->collection, "work");
}

TEST(dav_paths, new_collection_names_are_plain_and_none_of_the_defaults) {
    for (const char* name : {"work", "Work-2", "a.b_c~d@e", "4F1C0A9E-6A1B-4C3D-9E8F-0123456789AB"}) {
        EXPECT_TRUE(valid_collection_name(name)) << name;
    }
    for (const std::string& name :
         {std::string(), std::string("."), std::string(".."), std::string(".hidden"), std::string("a b"),
          std::string("a/b"), std::string("a%2Fb"), std::string("caf\xC3\xA9"), std::string("contacts"),
          std::string("calendar"), std::string("tasks"), std::string("memos"), std::string(129, 'n')}) {
        EXPECT_FALSE(valid_collection_name(name)) << name;
    }
    EXPECT_TRUE(valid_collection_name(std::string(128, 'n')));
}

TEST(dav_paths, the_component_of_a_body_is_its_first_event_task_or_journal) {
    EXPECT_EQ(component_of("BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nEND:VTIMEZONE\r\nBEGIN:VTODO\r\nEND:VTODO\r\n"
                           "END:VCALENDAR\r\n"),
              "VTODO");
    EXPECT_EQ(component_of("begin:vevent\nend:vevent\n"), "VEVENT");
    EXPECT_EQ(component_of("a memo as text"), "");
}

TEST(dav_paths, knows_the_four_collections) {
    ASSERT_EQ(collections_end() - collections_begin(), 4);
    const auto* contacts = find_collection("contacts");
    ASSERT_TRUE(contacts);
    EXPECT_TRUE(contacts->address_book);
    EXPECT_EQ(contacts->suffix, ".vcf");
    const auto* tasks = find_collection("tasks");
    ASSERT_TRUE(tasks);
    EXPECT_FALSE(tasks->address_book);
    EXPECT_EQ(tasks->component, "VTODO");
    EXPECT_EQ(find_collection("memos")->component, "VJOURNAL");
    EXPECT_FALSE(find_collection("Contacts"));
}

}  // namespace
}  // namespace syncml::dav
