#include "src/http/http_compression.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include <zlib.h>

#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"

namespace syncml::server {
namespace {

// The q-value of one list element's parameters ("q=0.5"); 1 when absent, 0 when malformed (refuse to guess).
double q_value(std::string_view params) {
    while (!params.empty()) {
        const auto semi = params.find(';');
        const auto param = common::trim(params.substr(0, semi), common::k_blanks);
        params = semi == std::string_view::npos ? std::string_view{} : params.substr(semi + 1);
        if (param.size() < 2 || std::tolower(static_cast<unsigned char>(param[0])) != 'q' || param[1] != '=') continue;
        const std::string value(common::trim(param.substr(2), common::k_blanks));
        if (value.empty() || value.size() > 5) return 0;
        char* end = nullptr;
        const double q = std::strtod(value.c_str(), &end);
        if (end != value.c_str() + value.size() || q < 0 || q > 1) return 0;
        return q;
    }
    return 1;
}

bool compressible_type(std::string_view content_type) {
    const auto semi = content_type.find(';');
    const auto type = common::trim(content_type.substr(0, semi), common::k_blanks);
    return type.starts_with("text/") || type.ends_with("/xml") || type.ends_with("+xml") || type == "application/json";
}

}  // namespace

bool accepts_gzip(std::string_view accept_encoding) {
    std::optional<double> gzip_q, any_q;
    while (!accept_encoding.empty()) {
        const auto comma = accept_encoding.find(',');
        const auto element = accept_encoding.substr(0, comma);
        accept_encoding = comma == std::string_view::npos ? std::string_view{} : accept_encoding.substr(comma + 1);
        const auto semi = element.find(';');
        const auto coding = common::trim(element.substr(0, semi), common::k_blanks);
        const double q = semi == std::string_view::npos ? 1.0 : q_value(element.substr(semi + 1));
        if (common::iequals(coding, "gzip") || common::iequals(coding, "x-gzip"))
            gzip_q = std::max(gzip_q.value_or(0.0), q);
        else if (coding == "*")
            any_q = q;
    }
    if (gzip_q) return *gzip_q > 0;
    return any_q.value_or(0.0) > 0;
}

std::string gzip_compress(std::string_view data) {
    z_stream z{};
    // windowBits 15 + 16: a gzip header and trailer instead of zlib's. Level 6 (zlib's default) costs about
    // 3 ms for a 300 KB listing and leaves it at a sixth; faster levels save little on text this repetitive.
    constexpr int gzip_window_bits = 15 + 16;
    constexpr int memory_level = 8;
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, gzip_window_bits, memory_level, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("deflateInit2 failed");
    // In pieces: zlib counts in 32 bits, and the output grows as it comes instead of reserving the input's size.
    constexpr std::size_t max_piece = std::size_t{1} << 30;
    std::string out;
    char buffer[64 * 1024];
    int rc = Z_OK;
    std::size_t fed = 0;
    try {
        do {
            const std::size_t piece = std::min(max_piece, data.size() - fed);
            z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + fed));
            z.avail_in = static_cast<uInt>(piece);
            fed += piece;
            const int flush = fed == data.size() ? Z_FINISH : Z_NO_FLUSH;
            do {
                z.next_out = reinterpret_cast<Bytef*>(buffer);
                z.avail_out = sizeof buffer;
                rc = deflate(&z, flush);
                out.append(buffer, sizeof buffer - z.avail_out);
            } while (z.avail_out == 0);
        } while (fed < data.size());
    } catch (...) {
        deflateEnd(&z);
        throw;
    }
    deflateEnd(&z);
    if (rc != Z_STREAM_END) throw std::runtime_error("deflate failed");
    return out;
}

void compress_if_accepted(http_reply& reply, std::string_view accept_encoding) {
    const auto has_header = [&](std::string_view name) {
        return std::any_of(reply.headers.begin(), reply.headers.end(),
                           [&](const auto& h) { return common::iequals(h.first, name); });
    };
    if (!compressible_type(reply.content_type) || has_header("etag") || has_header("content-encoding")) return;
    // A cache between client and server must know the bytes depend on Accept-Encoding, small bodies included.
    reply.headers.emplace_back("Vary", "Accept-Encoding");
    if (reply.body.size() < k_min_compressed_body || !accepts_gzip(accept_encoding)) return;
    try {
        reply.body = gzip_compress(reply.body);
    } catch (const std::exception&) {
        return;  // out of memory: the identity body is still a correct answer
    }
    reply.headers.emplace_back("Content-Encoding", "gzip");
}

}  // namespace syncml::server
