#include "src/admin/web/admin_page.hpp"

#include <gtest/gtest.h>

#include <set>

namespace syncml::server {
namespace {

std::string header(const http_reply& reply, const std::string& name) {
    for (const auto& [key, value] : reply.headers) {
        if (key == name) return value;
    }
    return {};
}

void expect_page_headers(const http_reply& reply) {
    EXPECT_EQ(header(reply, "Content-Security-Policy"), k_admin_page_csp);
    EXPECT_EQ(header(reply, "X-Content-Type-Options"), "nosniff");
    EXPECT_EQ(header(reply, "Referrer-Policy"), "no-referrer");
    EXPECT_EQ(header(reply, "Cache-Control"), "no-store");
}

TEST(admin_page, the_root_is_the_html_page_with_the_strict_headers) {
    const auto reply = admin_page_reply("GET", "/?x=1");
    EXPECT_EQ(reply.status, 200);
    EXPECT_EQ(reply.content_type, "text/html; charset=utf-8");
    EXPECT_NE(reply.body.find("<!doctype html>"), std::string::npos);
    expect_page_headers(reply);
    EXPECT_EQ(admin_page_reply("HEAD", "/").status, 200);
}

TEST(admin_page, every_asset_is_served_under_ui_with_its_media_type) {
    std::set<std::string> kinds;
    for (const auto& asset : embedded_web_assets()) {
        const auto reply = admin_page_reply("GET", "/ui/" + std::string(asset.name));
        EXPECT_EQ(reply.status, 200) << asset.name;
        EXPECT_EQ(reply.body, asset.body);
        ASSERT_TRUE(asset_media_type(asset.name)) << asset.name;
        EXPECT_EQ(reply.content_type, *asset_media_type(asset.name));
        kinds.insert(reply.content_type);
        expect_page_headers(reply);
    }
    EXPECT_TRUE(kinds.count("text/css; charset=utf-8"));
    EXPECT_TRUE(kinds.count("text/javascript; charset=utf-8"));
}

constexpr std::string_view k_svg_namespace = "http://www.w3.org/2000/svg";

// The CSP forbids inline code: the page must not need any (no <script> bodies, no style attributes, no handlers).
TEST(admin_page, the_page_has_no_inline_script_or_style_and_no_external_address) {
    for (const auto& asset : embedded_web_assets()) {
        std::string body(asset.body);
        // The SVG namespace is a name, not an address the page loads.
        for (auto at = body.find(k_svg_namespace); at != std::string::npos; at = body.find(k_svg_namespace)) {
            body.erase(at, k_svg_namespace.size());
        }
        EXPECT_EQ(body.find("<style"), std::string::npos) << asset.name;
        EXPECT_EQ(body.find(" style="), std::string::npos) << asset.name;
        EXPECT_EQ(body.find(" onclick="), std::string::npos) << asset.name;
        EXPECT_EQ(body.find("http://"), std::string::npos) << asset.name;
        EXPECT_EQ(body.find("https://"), std::string::npos) << asset.name;
        EXPECT_EQ(body.find("innerHTML"), std::string::npos) << asset.name;
        if (asset.name.ends_with(".html")) {
            for (std::size_t at = body.find("<script"); at != std::string::npos; at = body.find("<script", at + 1)) {
                const auto end = body.find('>', at);
                EXPECT_NE(body.substr(at, end - at).find(" src="), std::string::npos)
                    << "inline script in " << asset.name;
            }
        }
    }
}

TEST(admin_page, unknown_names_paths_out_of_the_folder_and_other_methods_are_refused) {
    for (const char* target :
         {"/ui/", "/ui/nothing.js", "/ui/../admin_page.cpp", "/ui/a/index.html", "/ui/.hidden.js", "/ui/index.html/"}) {
        const auto reply = admin_page_reply("GET", target);
        EXPECT_EQ(reply.status, 404) << target;
        expect_page_headers(reply);
    }
    const auto post = admin_page_reply("POST", "/");
    EXPECT_EQ(post.status, 405);
    EXPECT_EQ(header(post, "Allow"), "GET, HEAD");
    EXPECT_FALSE(asset_media_type("notes.txt"));
    EXPECT_FALSE(asset_media_type(".js"));
    EXPECT_EQ(asset_media_type("a.svg"), "image/svg+xml");
}

}  // namespace
}  // namespace syncml::server
