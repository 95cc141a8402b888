#include "src/frontends/dav_landing.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

bool only_acme(std::string_view name) { return name == "acme"; }

TEST(DavLanding, AtTheDefaultRootANamedTenantTakesOver) {
    for (std::string_view path : {"/dav/default/", "/dav/default"}) {
        const auto landing = land_dav_login("default", path, "ann@acme", only_acme);
        EXPECT_EQ(landing.tenant, "acme");
        EXPECT_EQ(landing.user, "ann");
        EXPECT_EQ(landing.path, "/dav/acme/");
    }
}

TEST(DavLanding, AtATenantsOwnUrlsItsSuffixIsDropped) {
    const auto landing = land_dav_login("acme", "/dav/acme/principals/ann/", "ann@ACME", only_acme);
    EXPECT_EQ(landing.tenant, "acme");
    EXPECT_EQ(landing.user, "ann");
    EXPECT_EQ(landing.path, "/dav/acme/principals/ann/");
}

TEST(DavLanding, OtherNamesStayAsSent) {
    int asked = 0;
    auto counting = [&](std::string_view name) {
        ++asked;
        return only_acme(name);
    };
    // an e-mail address as a user name: its domain is no tenant
    auto landing = land_dav_login("default", "/dav/default/", "ann@example.com", counting);
    EXPECT_EQ(landing.tenant, "default");
    EXPECT_EQ(landing.user, "ann@example.com");
    EXPECT_EQ(landing.path, "/dav/default/");
    EXPECT_EQ(asked, 1);
    // below the context path, and at another tenant's URLs, no tenant is switched (nor looked up)
    landing = land_dav_login("default", "/dav/default/ann/contacts/", "ann@acme", counting);
    EXPECT_EQ(landing.tenant, "default");
    EXPECT_EQ(landing.user, "ann@acme");
    landing = land_dav_login("beta", "/dav/beta/", "ann@acme", counting);
    EXPECT_EQ(landing.tenant, "beta");
    EXPECT_EQ(landing.user, "ann@acme");
    EXPECT_EQ(asked, 1);
    for (std::string_view login : {"ann", "@acme", "ann@"}) {
        landing = land_dav_login("default", "/dav/default/", login, counting);
        EXPECT_EQ(landing.user, login);
        EXPECT_EQ(landing.tenant, "default");
    }
    EXPECT_EQ(asked, 1);
}

}  // namespace
}  // namespace syncml::server
