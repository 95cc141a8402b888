#include "src/http/routing.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

route_decision route(std::string method, std::string target, std::string type = {},
                     listener_kind listener = listener_kind::sync) {
    return route_request(request_head{std::move(method), std::move(target), std::move(type)}, listener);
}

int status_of(const route_decision& decision) { return decision.reply ? decision.reply->status : 0; }

std::string header(const http_reply& reply, const std::string& name) {
    for (const auto& [key, value] : reply.headers) {
        if (key == name) return value;
    }
    return {};
}

TEST(content_type, accepts_syncml_xml_and_wbxml_with_parameters_in_any_case) {
    EXPECT_EQ(classify_content_type("application/vnd.syncml+xml"), session::wire_encoding::xml);
    EXPECT_EQ(classify_content_type("application/vnd.syncml+xml; charset=UTF-8"), session::wire_encoding::xml);
    EXPECT_EQ(classify_content_type("Application/VND.SyncML+XML;charset=utf-8"), session::wire_encoding::xml);
    EXPECT_EQ(classify_content_type("  application/vnd.syncml+wbxml "), session::wire_encoding::wbxml);
    EXPECT_EQ(classify_content_type("application/vnd.syncml+wbxml; charset=\"x\""), session::wire_encoding::wbxml);
}

TEST(content_type, rejects_other_media_types) {
    EXPECT_FALSE(classify_content_type(""));
    EXPECT_FALSE(classify_content_type("text/xml"));
    EXPECT_FALSE(classify_content_type("application/vnd.syncml+xmlx"));
    EXPECT_FALSE(classify_content_type("application/vnd.syncml.dm+xml"));
}

TEST(routing, sync_post_with_syncml_content_goes_to_the_engine) {
    auto plain = route("POST", "/sync", "application/vnd.syncml+xml");
    EXPECT_FALSE(plain.reply);
    EXPECT_EQ(plain.endpoint, endpoint_kind::sync);
    EXPECT_EQ(plain.tenant, "");
    auto tenant = route("POST", "/sync/acme-corp.eu?sessionid=42", "application/vnd.syncml+wbxml");
    EXPECT_FALSE(tenant.reply);
    EXPECT_EQ(tenant.tenant, "acme-corp.eu");
    EXPECT_EQ(tenant.encoding, session::wire_encoding::wbxml);
}

TEST(routing, unknown_paths_and_malformed_tenants_are_404) {
    EXPECT_EQ(status_of(route("POST", "/", "application/vnd.syncml+xml")), 404);
    EXPECT_EQ(status_of(route("POST", "/sync/", "application/vnd.syncml+xml")), 404);
    EXPECT_EQ(status_of(route("POST", "/sync/a/b", "application/vnd.syncml+xml")), 404);
    EXPECT_EQ(status_of(route("POST", "/sync/..", "application/vnd.syncml+xml")), 404);
    EXPECT_EQ(status_of(route("POST", "/syncx", "application/vnd.syncml+xml")), 404);
    EXPECT_EQ(status_of(route("GET", "/metrics")), 404);
}

TEST(routing, wrong_method_on_sync_is_405_with_allow) {
    auto decision = route("GET", "/sync/acme");
    ASSERT_EQ(status_of(decision), 405);
    EXPECT_EQ(header(*decision.reply, "Allow"), "POST");
}

TEST(routing, wrong_content_type_is_415) {
    EXPECT_EQ(status_of(route("POST", "/sync", "text/plain")), 415);
    EXPECT_EQ(status_of(route("POST", "/sync")), 415);
}

TEST(routing, probes_answer_on_both_listeners_and_metrics_only_on_its_own) {
    for (auto listener : {listener_kind::sync, listener_kind::metrics}) {
        EXPECT_EQ(route("GET", "/healthz", {}, listener).endpoint, endpoint_kind::healthz);
        EXPECT_EQ(route("GET", "/readyz?verbose", {}, listener).endpoint, endpoint_kind::readyz);
    }
    auto metrics = route("GET", "/metrics", {}, listener_kind::metrics);
    EXPECT_EQ(metrics.endpoint, endpoint_kind::metrics);
    EXPECT_FALSE(metrics.reply);
    EXPECT_EQ(status_of(route("POST", "/sync", "application/vnd.syncml+xml", listener_kind::metrics)), 404);
}

TEST(routing, probes_accept_head_and_reject_post) {
    auto head = route("HEAD", "/healthz");
    EXPECT_FALSE(head.reply);
    EXPECT_TRUE(head.head_only);
    auto post = route("POST", "/readyz");
    ASSERT_EQ(status_of(post), 405);
    EXPECT_EQ(header(*post.reply, "Allow"), "GET, HEAD");
}

TEST(routing, dav_paths_go_to_the_dav_front_end_with_their_tenant) {
    auto propfind = route("PROPFIND", "/dav/acme/ann/contacts/?x=1");
    EXPECT_FALSE(propfind.reply);
    EXPECT_EQ(propfind.endpoint, endpoint_kind::dav);
    EXPECT_EQ(propfind.tenant, "acme");
    EXPECT_TRUE(route("HEAD", "/dav/acme/ann/contacts/a.vcf").head_only);
    EXPECT_EQ(status_of(route("PROPFIND", "/dav/a%2Fb/")), 404) << "no such tenant name can exist";
    EXPECT_EQ(status_of(route("PROPFIND", "/dav/acme/", {}, listener_kind::metrics)), 404);
    auto odd = route("TRACE", "/dav/acme/");
    EXPECT_EQ(status_of(odd), 405);
    EXPECT_NE(header(*odd.reply, "Allow").find("PROPFIND"), std::string::npos);
}

TEST(routing, well_known_dav_paths_lead_to_the_default_tenant) {
    for (const char* path : {"/.well-known/carddav", "/.well-known/caldav"}) {
        auto r = route("PROPFIND", path);
        ASSERT_EQ(status_of(r), 301) << path;
        EXPECT_EQ(header(*r.reply, "Location"), "/dav/default/");
    }
}

TEST(routing, labels_are_bounded) {
    EXPECT_STREQ(route_label(route("GET", "/anything/at/all").endpoint), "unmatched");
    EXPECT_STREQ(route_label(endpoint_kind::sync), "sync");
}

TEST(routing, the_admin_listener_serves_its_page_at_the_root_and_under_ui_and_nothing_else_there) {
    for (const char* target : {"/", "/ui/app.js", "/ui/nothing", "/admin/v1/tenants"}) {
        EXPECT_EQ(route("GET", target, {}, listener_kind::admin).endpoint, endpoint_kind::admin) << target;
    }
    EXPECT_EQ(status_of(route("GET", "/index.html", {}, listener_kind::admin)), 404);
    EXPECT_EQ(status_of(route("GET", "/uix", {}, listener_kind::admin)), 404);
    EXPECT_EQ(status_of(route("GET", "/ui/app.js", {}, listener_kind::metrics)), 404);
    EXPECT_EQ(status_of(route("GET", "/ui/app.js", {}, listener_kind::sync)), 404);
}

}  // namespace
}  // namespace syncml::server
