#include "dav/dav_multistatus.hpp"

#include <gtest/gtest.h>

#include "dav/dav_xml.hpp"

namespace syncml::dav {
namespace {

std::vector<std::string> hrefs_of(const std::string& body) {
    auto parsed = parse_xml(body);
    EXPECT_TRUE(parsed.root) << parsed.error << "\n" << body;
    std::vector<std::string> hrefs;
    if (!parsed.root) return hrefs;
    for (const auto& response : parsed.root->children) {
        if (const auto* href = response.child(ns_dav, "href")) hrefs.push_back(href->text);
    }
    return hrefs;
}

const std::vector<prop_value> k_etag{{{std::string(ns_dav), "getetag"}, "&quot;1&quot;"}};

TEST(multistatus, refuses_a_response_that_would_take_the_body_past_its_cap_and_stays_as_it_was) {
    multistatus sizing;
    const auto empty = multistatus().finish().size();
    ASSERT_TRUE(sizing.add("/a", k_etag, {}));
    const auto one = sizing.finish().size() - empty;
    const auto header = empty - std::string("</d:multistatus>\n").size();

    multistatus out(header + 2 * one);
    EXPECT_TRUE(out.add("/a", k_etag, {}));
    EXPECT_TRUE(out.add("/b", k_etag, {})) << "a body exactly at its cap";
    EXPECT_FALSE(out.add("/c", k_etag, {}));
    EXPECT_FALSE(out.add_status("/d", 404));
    out.add_error("/", 507, ns_dav, "number-of-matches-within-limits");
    out.sync_token("urn:x:1");
    EXPECT_EQ(hrefs_of(out.finish()), (std::vector<std::string>{"/a", "/b", "/"}))
        << "what closes a listing cut short comes on top of the cap";
}

TEST(multistatus, always_takes_the_first_response_however_large) {
    multistatus out(10);
    const std::vector<prop_value> large{{{std::string(ns_dav), "displayname"}, std::string(1000, 'x')}};
    EXPECT_TRUE(out.add("/a", large, {})) << "a listing cut before its first resource would never move on";
    EXPECT_FALSE(out.add("/b", k_etag, {}));
    EXPECT_EQ(hrefs_of(out.finish()), std::vector<std::string>{"/a"});
}

TEST(multistatus, without_a_cap_takes_every_response) {
    multistatus out;
    for (int i = 0; i < 1000; ++i) ASSERT_TRUE(out.add("/" + std::to_string(i), k_etag, {}));
    EXPECT_EQ(hrefs_of(out.finish()).size(), 1000u);
}

}  // namespace
}  // namespace syncml::dav
