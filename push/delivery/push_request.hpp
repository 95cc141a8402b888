#pragma once
// How a notification reaches a phone, as HTTP requests to build (no I/O here: the sender sends them through an
// http_client, src/server/http_client.hpp). Two transports, each a setting of the server, any combination:
// - a webhook: a POST of JSON with the notification (base64), the tenant, user, device and phone number, for an
//   operator's own relay;
// - an HTTP SMS gateway in the style of Kannel's sendsms: a binary SMS to the phone number with a UDH for WAP push
//   (port 2948 from 9200) and the connectionless WSP push PDU before the notification (WAP-230 8.2.4, WAP-251), as a
//   phone's push router expects it. Kannel, and most SMS providers' HTTP APIs, take the same parameters.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace syncml::push {

struct http_request {
    std::string method = "POST";
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
};

struct http_response {
    int status = 0;     // 0: no HTTP answer (error says why)
    std::string error;  // connection refused, timeout, ...
    bool delivered() const { return status >= 200 && status < 300; }
};

// What sends a request; the process's implementation is src/server/http_client.hpp, tests have their own.
class http_client {
  public:
    virtual ~http_client() = default;
    virtual http_response send(const http_request& request) = 0;
};

inline constexpr std::string_view k_ds_notification_type = "application/vnd.syncml.ds.notification";
inline constexpr std::string_view k_syncml_wbxml_type = "application/vnd.syncml+wbxml";

// One notification and whom it is for.
struct addressed_notification {
    std::string tenant;
    std::string user;
    std::string device;
    std::optional<std::string> phone_number;  // E.164
    std::string bytes;                        // the notification (push/notification)
    std::string content_type;                 // k_ds_notification_type, or k_syncml_wbxml_type for SyncML 1.1
    std::vector<std::string> datastores;      // the datastores it alerts
    std::int64_t changes = 0;                 // the changes it announces
};

// POST `url`, Content-Type application/json:
// {"tenant":..,"user":..,"device":..,"phone_number":..|null,"content_type":..,"datastores":[..],"changes":N,
//  "notification":"<base64>"}
http_request webhook_request(std::string_view url, const addressed_notification& n);

// The connectionless WSP push PDU: transaction id, PDU type Push (0x06), the headers' length, the content type
// (0xCE for application/vnd.syncml.ds.notification, else its text), X-WAP-Application-Id x-wap-application:syncml.ds
// (0xAF 0x87), then the notification.
std::string wap_push_pdu(const addressed_notification& n, std::uint8_t transaction_id = 0);

// GET `base_url` (Kannel: http://host:13013/cgi-bin/sendsms?username=..&password=..) with to, udh, text (the PDU)
// and coding=1 (8 bit) appended, percent-encoded. nullopt without a phone number.
std::optional<http_request> sendsms_request(std::string_view base_url, const addressed_notification& n);

// RFC 3986 percent-encoding of everything but unreserved characters.
std::string percent_encoded(std::string_view bytes);

}  // namespace syncml::push
