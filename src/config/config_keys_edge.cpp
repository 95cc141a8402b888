#include "src/config/config_keys.hpp"

#include <sstream>
#include <string>

#include "common/text/ascii_case.hpp"

// The settings of the network edge (TLS, public URL, proxies, connection limits, the admin API's hosts) and of
// server-alerted sync.

namespace syncml::server {
namespace {

parsed<std::string> http_url_or_empty(const std::string& text) {
    if (text.empty() || text.starts_with("http://") || text.starts_with("https://")) return {text, {}};
    return parsed<std::string>::fail("expected an http:// or https:// URL");
}

// A gateway's URL carries its credentials in the query (Kannel's password) or before the host: --print-config shows
// the values of query parameters whose name says password, secret, token or key, and user info, as ********.
std::string mask_url_secrets(std::string url) {
    const auto scheme = url.find("://");
    const auto host_end = url.find_first_of("/?", scheme == std::string::npos ? 0 : scheme + 3);
    const auto at = url.rfind('@', host_end);
    if (scheme != std::string::npos && at != std::string::npos && at > scheme) {
        url.replace(scheme + 3, at - scheme - 3, "********");
    }
    const auto query = url.find('?');
    if (query == std::string::npos) return url;
    std::string out = url.substr(0, query + 1);
    std::istringstream parameters(url.substr(query + 1));
    std::string parameter;
    for (bool first = true; std::getline(parameters, parameter, '&'); first = false) {
        if (!first) out += '&';
        const auto equals = parameter.find('=');
        const auto name = common::to_lower(parameter.substr(0, equals));
        const bool secret = name.find("pass") != std::string::npos || name.find("pwd") != std::string::npos ||
                            name.find("secret") != std::string::npos || name.find("token") != std::string::npos ||
                            name.find("key") != std::string::npos;
        out += secret && equals != std::string::npos ? parameter.substr(0, equals + 1) + "********" : parameter;
    }
    return out;
}

}  // namespace

std::vector<config_key> edge_keys() {
    return {
        {"tls_cert", "SYNCML_TLS_CERT", "PEM certificate chain; with tls_key enables HTTPS", false,
         assign(&server_config::http, &http_config::tls_cert, any_text),
         read(&server_config::http, &http_config::tls_cert)},
        {"tls_key", "SYNCML_TLS_KEY", "PEM private key for tls_cert", false,
         assign(&server_config::http, &http_config::tls_key, any_text),
         read(&server_config::http, &http_config::tls_key)},
        {"tls_reload_interval", "SYNCML_TLS_RELOAD_INTERVAL",
         "how often tls_cert/tls_key are checked for a change and reloaded (SIGHUP reloads at once); 0 disables", false,
         assign(&server_config::http, &http_config::tls_reload_interval, duration_in(0, 86'400'000)),
         read(&server_config::http, &http_config::tls_reload_interval)},
        {"public_url", "SYNCML_PUBLIC_URL",
         "http(s)://host[:port] phones reach this server by (RespURIs start with it); empty: a trusted proxy's "
         "X-Forwarded-Host/-Proto, else the listener's address",
         false, assign(&server_config::http, &http_config::public_url, parse_public_url),
         read(&server_config::http, &http_config::public_url)},
        {"trusted_proxies", "SYNCML_TRUSTED_PROXIES",
         "comma-separated addresses/CIDR networks of reverse proxies whose X-Forwarded-For/-Host/-Proto are "
         "believed; empty: none",
         false, assign(&server_config::http, &http_config::trusted_proxies, parse_trusted_proxies),
         read(&server_config::http, &http_config::trusted_proxies)},
        {"max_connections", "SYNCML_MAX_CONNECTIONS",
         "open connections per listener (1-1000000); further ones are closed at once", false,
         assign(&server_config::http, &http_config::max_connections, size_in(1, 1'000'000)),
         read(&server_config::http, &http_config::max_connections)},
        {"max_connections_per_address", "SYNCML_MAX_CONNECTIONS_PER_ADDRESS",
         "open connections per client address (IPv4 address, IPv6 /64) and listener (1-1000000); further ones are "
         "closed at once; trusted_proxies are exempt",
         false, assign(&server_config::http, &http_config::max_connections_per_address, size_in(1, 1'000'000)),
         read(&server_config::http, &http_config::max_connections_per_address)},
        {"metrics_max_connections", "SYNCML_METRICS_MAX_CONNECTIONS",
         "open connections of the metrics listener (1-100000), apart from the SyncML listener's", false,
         assign(&server_config::metrics, &metrics_config::max_connections, size_in(1, 100'000)),
         read(&server_config::metrics, &metrics_config::max_connections)},
        {"body_budget", "SYNCML_BODY_BUDGET_BYTES",
         "request body bytes all connections together may hold at once (k/m suffix allowed); a request whose body "
         "does not fit gets 503 with Retry-After before it is read",
         false, assign(&server_config::http, &http_config::body_budget, size_in(64 * 1024, std::size_t{1} << 40)),
         read(&server_config::http, &http_config::body_budget)},
        {"admin_allowed_hosts", "SYNCML_ADMIN_ALLOWED_HOSTS",
         "comma-separated Host header names the admin API answers (others get 421), against DNS rebinding; empty: "
         "localhost, loopback addresses and the address the connection came in on; * allows any",
         false, assign(&server_config::admin, &admin_config::allowed_hosts, parse_host_list),
         read(&server_config::admin, &admin_config::allowed_hosts)},
    };
}

std::vector<config_key> push_keys() {
    return {
        {"push_webhook_url", "SYNCML_PUSH_WEBHOOK_URL",
         "server-alerted sync: POST a JSON object (tenant, user, device, phone number, the notification in base64) "
         "per notification to this http(s) URL; empty: no webhook",
         false, assign(&server_config::push, &push_config::webhook_url, http_url_or_empty),
         [](const server_config& config) { return mask_url_secrets(config.push.webhook_url); }},
        {"push_sms_url", "SYNCML_PUSH_SMS_URL",
         "server-alerted sync: an SMS gateway's sendsms URL with its credentials, e.g. "
         "http://kannel:13013/cgi-bin/sendsms?username=U&password=P (to, udh, text and coding are appended); empty: "
         "no SMS",
         false, assign(&server_config::push, &push_config::sms_url, http_url_or_empty),
         [](const server_config& config) { return mask_url_secrets(config.push.sms_url); }},
        {"push_server_id", "SYNCML_PUSH_SERVER_ID",
         "the server id in notifications, as phones know this server; empty: public_url + /sync (/sync/<tenant> for "
         "other tenants than default)",
         false, assign(&server_config::push, &push_config::server_id, any_text),
         read(&server_config::push, &push_config::server_id)},
        {"push_interval", "SYNCML_PUSH_INTERVAL",
         "how often this instance looks for due notifications (any instance sends any); 0: this one sends none", false,
         assign(&server_config::push, &push_config::interval, duration_in(0, 3'600'000)),
         read(&server_config::push, &push_config::interval)},
        {"push_settle", "SYNCML_PUSH_SETTLE",
         "a device's changes gather this long after the last one (at most ten times as long) before one notification "
         "goes",
         false, assign(&server_config::push, &push_config::settle, duration_in(0, 600'000)),
         read(&server_config::push, &push_config::settle)},
        {"push_renotify", "SYNCML_PUSH_RENOTIFY",
         "a notified device that has not synced since gets no further notification before this (1 min - 7 days)", false,
         assign(&server_config::push, &push_config::renotify, duration_in(60'000, 7 * 86'400'000LL)),
         read(&server_config::push, &push_config::renotify)},
        {"push_timeout", "SYNCML_PUSH_TIMEOUT", "per request to a webhook or SMS gateway (1 s - 2 min)", false,
         assign(&server_config::push, &push_config::timeout, duration_in(1000, 120'000)),
         read(&server_config::push, &push_config::timeout)},
    };
}

}  // namespace syncml::server
