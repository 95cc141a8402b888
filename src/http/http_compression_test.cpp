#include "src/http/http_compression.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <string>

namespace syncml::server {
namespace {

std::string gunzip(const std::string& data) {
    z_stream z{};
    EXPECT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
    std::string out;
    char buffer[4096];
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - z.avail_out);
    }
    inflateEnd(&z);
    EXPECT_EQ(rc, Z_STREAM_END);
    return out;
}

std::string listing(std::size_t responses) {
    std::string body = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:multistatus xmlns:d=\"DAV:\">";
    for (std::size_t i = 0; i < responses; ++i)
        body += "<d:response><d:href>/dav/default/alice/contacts/default/" + std::to_string(i) +
                ".vcf</d:href><d:propstat><d:prop><d:getetag>\"" + std::to_string(i * 7) +
                "\"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>";
    return body + "</d:multistatus>";
}

const std::string* header(const http_reply& reply, const std::string& name) {
    for (const auto& [n, v] : reply.headers)
        if (n == name) return &v;
    return nullptr;
}

TEST(accepts_gzip, reads_the_codings_a_client_lists) {
    EXPECT_TRUE(accepts_gzip("gzip"));
    EXPECT_TRUE(accepts_gzip("gzip, deflate"));
    EXPECT_TRUE(accepts_gzip("deflate, GZIP;q=0.5"));
    EXPECT_TRUE(accepts_gzip("x-gzip"));
    EXPECT_TRUE(accepts_gzip("br;q=1.0, *;q=0.1"));
    EXPECT_FALSE(accepts_gzip(""));
    EXPECT_FALSE(accepts_gzip("identity"));
    EXPECT_FALSE(accepts_gzip("deflate, br"));
    EXPECT_FALSE(accepts_gzip("gzip;q=0"));
    EXPECT_FALSE(accepts_gzip("*, gzip;q=0"));
    EXPECT_FALSE(accepts_gzip("*;q=0"));
    EXPECT_FALSE(accepts_gzip("gzipx"));
    EXPECT_FALSE(accepts_gzip("gzip;q=2"));
    EXPECT_FALSE(accepts_gzip("gzip;q=banana"));
}

TEST(gzip_compress, gives_a_gzip_member_that_inflates_to_the_same_bytes) {
    for (const std::string& data : {std::string{}, std::string("x"), listing(1000), std::string(100000, '\0')}) {
        const auto packed = gzip_compress(data);
        ASSERT_GE(packed.size(), 2u);
        EXPECT_EQ(static_cast<unsigned char>(packed[0]), 0x1f);
        EXPECT_EQ(static_cast<unsigned char>(packed[1]), 0x8b);
        EXPECT_EQ(gunzip(packed), data);
    }
}

TEST(compress_if_accepted, compresses_a_large_listing_for_a_client_that_accepts_gzip) {
    http_reply reply{
        .status = 207, .content_type = "application/xml; charset=utf-8", .body = listing(1000), .headers = {}};
    const auto original = reply.body;
    compress_if_accepted(reply, "gzip, deflate");
    ASSERT_NE(header(reply, "Content-Encoding"), nullptr);
    EXPECT_EQ(*header(reply, "Content-Encoding"), "gzip");
    EXPECT_EQ(*header(reply, "Vary"), "Accept-Encoding");
    EXPECT_LT(reply.body.size() * 5, original.size());
    EXPECT_EQ(gunzip(reply.body), original);
}

TEST(compress_if_accepted, leaves_the_body_alone_when_gzip_is_not_accepted_or_not_worth_it) {
    http_reply refused{.status = 207, .content_type = "application/xml", .body = listing(1000), .headers = {}};
    const auto original = refused.body;
    compress_if_accepted(refused, "identity");
    EXPECT_EQ(refused.body, original);
    EXPECT_EQ(header(refused, "Content-Encoding"), nullptr);
    EXPECT_NE(header(refused, "Vary"), nullptr);  // the bytes still depend on the request's Accept-Encoding

    http_reply small{.status = 207, .content_type = "application/xml", .body = listing(1), .headers = {}};
    const auto small_body = small.body;
    ASSERT_LT(small_body.size(), k_min_compressed_body);
    compress_if_accepted(small, "gzip");
    EXPECT_EQ(small.body, small_body);
    EXPECT_EQ(header(small, "Content-Encoding"), nullptr);
}

TEST(compress_if_accepted, never_compresses_a_representation_named_by_an_etag_or_binary_content) {
    http_reply item{
        .status = 200, .content_type = "text/vcard; charset=utf-8", .body = std::string(5000, 'a'), .headers = {}};
    item.headers.emplace_back("ETag", "\"42\"");
    compress_if_accepted(item, "gzip");
    EXPECT_EQ(item.body, std::string(5000, 'a'));
    EXPECT_EQ(header(item, "Content-Encoding"), nullptr);

    http_reply binary{
        .status = 200, .content_type = "application/vnd.syncml+wbxml", .body = std::string(5000, 'b'), .headers = {}};
    compress_if_accepted(binary, "gzip");
    EXPECT_EQ(binary.body, std::string(5000, 'b'));
    EXPECT_EQ(header(binary, "Content-Encoding"), nullptr);
}

}  // namespace
}  // namespace syncml::server
