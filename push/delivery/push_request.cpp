#include "push/delivery/push_request.hpp"

#include "common/crypto/base64.hpp"
#include "common/log/log_value.hpp"

namespace syncml::push {
namespace {

void json_string(std::string& out, std::string_view text) {
    out += '"';
    common::escape_log_text(out, text, true);
    out += '"';
}

void json_member(std::string& out, std::string_view key) {
    if (out.size() > 1) out += ',';
    json_string(out, key);
    out += ':';
}

// UDH: its length (6), the 16-bit application port addressing element (IEI 5, 4 bytes): WAP push to 2948 from the
// WSP connectionless session port 9200.
constexpr std::string_view k_wap_push_udh{"\x06\x05\x04\x0b\x84\x23\xf0", 7};

}  // namespace

http_request webhook_request(std::string_view url, const addressed_notification& n) {
    std::string body = "{";
    json_member(body, "tenant");
    json_string(body, n.tenant);
    json_member(body, "user");
    json_string(body, n.user);
    json_member(body, "device");
    json_string(body, n.device);
    json_member(body, "phone_number");
    if (n.phone_number) {
        json_string(body, *n.phone_number);
    } else {
        body += "null";
    }
    json_member(body, "content_type");
    json_string(body, n.content_type);
    json_member(body, "datastores");
    body += '[';
    for (std::size_t i = 0; i < n.datastores.size(); ++i) {
        if (i > 0) body += ',';
        json_string(body, n.datastores[i]);
    }
    body += ']';
    json_member(body, "changes");
    body += std::to_string(n.changes);
    json_member(body, "notification");
    json_string(body, common::base64_encode(n.bytes));
    body += '}';
    return http_request{"POST", std::string(url), {{"Content-Type", "application/json"}}, std::move(body)};
}

std::string wap_push_pdu(const addressed_notification& n, std::uint8_t transaction_id) {
    std::string headers;
    if (n.content_type == k_ds_notification_type) {
        headers += '\xce';  // well-known 0x4E as a short integer
    } else {
        headers += n.content_type;  // Extension-Media: the text and its end
        headers += '\0';
    }
    headers += "\xaf\x87";  // X-WAP-Application-Id (0x2F): x-wap-application:syncml.ds (7)
    std::string pdu;
    pdu += static_cast<char>(transaction_id);
    pdu += '\x06';  // Push
    // The headers' length as a uintvar: seven bits a byte, the high bit on every byte but the last.
    std::string length;
    for (std::size_t v = headers.size();; v >>= 7) {
        length.insert(length.begin(), static_cast<char>((v & 0x7f) | (length.empty() ? 0 : 0x80)));
        if (v < 0x80) break;
    }
    return pdu + length + headers + n.bytes;
}

std::optional<http_request> sendsms_request(std::string_view base_url, const addressed_notification& n) {
    if (!n.phone_number) return std::nullopt;
    std::string url(base_url);
    url += url.find('?') == std::string::npos ? '?' : '&';
    url += "to=" + percent_encoded(*n.phone_number);
    url += "&udh=" + percent_encoded(k_wap_push_udh);
    url += "&text=" + percent_encoded(wap_push_pdu(n));
    url += "&coding=1";
    return http_request{"GET", std::move(url), {}, {}};
}

std::string percent_encoded(std::string_view bytes) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : bytes) {
        const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                                c == '-' || c == '.' || c == '_' || c == '~';
        if (unreserved) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 0x0f];
        }
    }
    return out;
}

}  // namespace syncml::push
