#pragma once
// gzip content coding for large text answers (DAV listings): a client that says it accepts gzip gets a
// multistatus of a thousand contacts in a sixth of the bytes. Compression runs where the answer is built (a
// worker thread), never on the I/O threads.

#include <string>
#include <string_view>

#include "src/http/routing.hpp"

namespace syncml::server {

// Whether an Accept-Encoding header value allows gzip (RFC 9110 12.5.3): "gzip" or "x-gzip" or "*" with a
// non-zero q-value, unless gzip itself is listed with q=0.
bool accepts_gzip(std::string_view accept_encoding);

// The gzip member (RFC 1952) of the bytes, of any size. Throws only when memory runs out (std::bad_alloc, or
// std::runtime_error from zlib).
std::string gzip_compress(std::string_view data);

// Compresses the reply's body in place when the client accepts gzip, the body is text worth compressing
// (k_min_compressed_body and up) and the reply has no ETag (an ETag names the identity representation: If-Match
// must keep comparing the stored bytes). Adds Content-Encoding and Vary.
constexpr std::size_t k_min_compressed_body = 1024;
void compress_if_accepted(http_reply& reply, std::string_view accept_encoding);

}  // namespace syncml::server
