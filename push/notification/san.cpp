#include "push/notification/san.hpp"

#include <array>

#include "common/crypto/base64.hpp"
#include "common/crypto/digest.hpp"
#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"

namespace syncml::push {
namespace {

constexpr std::size_t k_digest_bytes = 16;
constexpr unsigned k_version_1_2 = 12;  // "the version of the notification ... 1.2 is 12", 10 bits
constexpr std::size_t k_max_length = 255;
constexpr std::size_t k_max_datastores = 15;
constexpr std::uint32_t k_max_content_type = 0xFFFFFF;

// Fields packed most significant bit first, as the specification draws them.
class bit_writer {
  public:
    void put(std::uint32_t value, unsigned bits) {
        for (unsigned i = bits; i-- > 0;) {
            if (used_ % 8 == 0) bytes_.push_back('\0');
            if ((value >> i) & 1u) bytes_.back() = static_cast<char>(bytes_.back() | (0x80 >> (used_ % 8)));
            ++used_;
        }
    }
    // Whole bytes only: every field before a string ends on a byte boundary.
    void put_bytes(std::string_view text) {
        bytes_ += text;
        used_ += 8 * text.size();
    }
    std::string take() { return std::move(bytes_); }

  private:
    std::string bytes_;
    std::size_t used_ = 0;
};

std::optional<san_error> check(const notification& n) {
    if (n.server_id.size() > k_max_length) return san_error::server_id_too_long;
    if (n.datastores.size() > k_max_datastores) return san_error::too_many_datastores;
    for (const auto& ds : n.datastores) {
        if (ds.server_uri.size() > k_max_length) return san_error::uri_too_long;
        if (ds.content_type > k_max_content_type) return san_error::content_type_too_large;
    }
    return std::nullopt;
}

std::string body_of(const notification& n) {
    bit_writer out;
    out.put(k_version_1_2, 10);
    out.put(static_cast<std::uint32_t>(n.ui), 2);
    out.put(static_cast<std::uint32_t>(n.by), 1);
    out.put(0, 27);  // future use
    out.put(n.session_id, 16);
    out.put(static_cast<std::uint32_t>(n.server_id.size()), 8);
    out.put_bytes(n.server_id);
    out.put(static_cast<std::uint32_t>(n.datastores.size()), 4);
    out.put(0, 4);  // future use
    for (const auto& ds : n.datastores) {
        // 206-210 "minus 200": the four bits hold 6-10.
        out.put(static_cast<std::uint32_t>(ds.mode.server_alerted_code() - 200), 4);
        out.put(0, 4);  // future use
        out.put(ds.content_type, 24);
        out.put(static_cast<std::uint32_t>(ds.server_uri.size()), 8);
        out.put_bytes(ds.server_uri);
    }
    out.put_bytes(n.vendor_specific);
    return out.take();
}

std::string b64_md5(std::string_view text) { return common::base64_encode(common::md5(text)); }

}  // namespace

const char* describe(san_error e) {
    switch (e) {
        case san_error::server_id_too_long:
            return "server id longer than 255 bytes";
        case san_error::uri_too_long:
            return "datastore URI longer than 255 bytes";
        case san_error::too_many_datastores:
            return "more than 15 datastores";
        case san_error::content_type_too_large:
            return "content type code over 24 bits";
    }
    return "unknown";
}

std::string san_digest(std::string_view server_id, const server_secret& secret, std::string_view body) {
    // The colon stays when the password is empty ("server-identifier:password"), as Nokia PC Suite computes it;
    // libsynthesis's B64_H drops it then (see the libsynthesis test).
    const std::string credentials = std::string(server_id) + ":" + secret.password;
    return common::md5(b64_md5(credentials) + ":" + secret.nonce + ":" + b64_md5(body));
}

san_result encode_san(const notification& n, const server_secret& secret) {
    if (auto error = check(n)) return san_result{{}, error};
    std::string body = body_of(n);
    return san_result{san_digest(n.server_id, secret, body) + body, std::nullopt};
}

bool san_digest_matches(std::string_view san, std::string_view server_id, const server_secret& secret) {
    if (san.size() < k_digest_bytes) return false;
    return san.substr(0, k_digest_bytes) == san_digest(server_id, secret, san.substr(k_digest_bytes));
}

std::uint32_t content_type_code(std::string_view mime_type) {
    const auto type = common::trim(mime_type.substr(0, mime_type.find(';')), common::k_blanks);
    struct code {
        std::string_view type;
        std::uint32_t value;
    };
    // OMNA "WSP Content Type Numbers" (well-known values below 0x80, registered ones from 0x0201).
    // text/vcard is vCard 3.0, registered as text/directory;profile=vCard.
    static constexpr std::array<code, 5> codes{{{"text/plain", 0x03},
                                                {"text/x-vcalendar", 0x06},
                                                {"text/x-vcard", 0x07},
                                                {"text/calendar", 0x0305},
                                                {"text/vcard", 0x0309}}};
    for (const auto& c : codes) {
        if (common::iequals(type, c.type)) return c.value;
    }
    return 0;
}

}  // namespace syncml::push
