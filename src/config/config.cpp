#include "src/config/config.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "common/text/ascii_case.hpp"
#include "src/config/config_values.hpp"

extern char** environ;

namespace syncml::server {
namespace {

using setter = std::function<std::optional<std::string>(server_config&, const std::string&)>;
using getter = std::function<std::string(const server_config&)>;

struct config_key {
    const char* name;
    const char* env;
    const char* help;
    bool secret;
    setter set;
    getter get;
};

template <typename T>
setter assign(T server_config::*area, auto T::*member, auto parse) {
    return [area, member, parse](server_config& config, const std::string& text) -> std::optional<std::string> {
        auto value = parse(text);
        if (!value.ok()) return value.error;
        config.*area.*member = *value.value;
        return std::nullopt;
    };
}

std::string to_string(std::chrono::milliseconds value) { return format_duration(value); }
std::string to_string(const std::string& value) { return value; }
std::string to_string(const endpoint& value) { return format_endpoint(value); }
std::string to_string(log_format value) { return value == log_format::json ? "json" : "text"; }
std::string to_string(const std::vector<common::ip_network>& value) { return format_trusted_proxies(value); }
std::string to_string(const std::vector<std::string>& value) { return format_host_list(value); }
template <typename T>
requires std::is_arithmetic_v<T> std::string to_string(T value) { return std::to_string(value); }

template <typename T>
getter read(T server_config::*area, auto T::*member) {
    return [area, member](const server_config& config) { return to_string(config.*area.*member); };
}

std::vector<config_key> listener_keys() {
    return {
        {"listen", "SYNCML_LISTEN", "host:port of the SyncML listener", false,
         assign(&server_config::http, &http_config::listen, parse_endpoint),
         read(&server_config::http, &http_config::listen)},
        {"metrics_listen", "SYNCML_METRICS_LISTEN", "host:port serving /metrics, /healthz, /readyz", false,
         assign(&server_config::metrics, &metrics_config::listen, parse_endpoint),
         read(&server_config::metrics, &metrics_config::listen)},
        {"admin_listen", "SYNCML_ADMIN_LISTEN",
         "host:port of the HTTP admin API (JSON, bearer tokens from `admin token create`); empty: off. Keep it "
         "private",
         false,
         [](server_config& config, const std::string& text) -> std::optional<std::string> {
             if (text.empty()) {
                 config.admin.listen.reset();
                 return std::nullopt;
             }
             auto value = parse_endpoint(text);
             if (!value.ok()) return value.error;
             config.admin.listen = *value.value;
             return std::nullopt;
         },
         [](const server_config& config) {
             return config.admin.listen ? format_endpoint(*config.admin.listen) : std::string();
         }},
        {"io_threads", "SYNCML_IO_THREADS", "threads running network I/O (1-256)", false,
         assign(&server_config::http, &http_config::io_threads, unsigned_in(1, 256)),
         read(&server_config::http, &http_config::io_threads)},
        {"worker_threads", "SYNCML_WORKER_THREADS", "database worker threads, one connection each (1-1024)", false,
         assign(&server_config::pool, &pool_config::worker_threads, unsigned_in(1, 1024)),
         read(&server_config::pool, &pool_config::worker_threads)},
        {"worker_queue_limit", "SYNCML_WORKER_QUEUE_LIMIT", "queued sync requests before 503 (1-1000000)", false,
         assign(&server_config::pool, &pool_config::queue_limit, size_in(1, 1'000'000)),
         read(&server_config::pool, &pool_config::queue_limit)},
    };
}

std::vector<config_key> request_keys() {
    return {
        {"body_limit", "SYNCML_BODY_LIMIT", "largest request body in bytes (k/m suffix allowed), else 413", false,
         assign(&server_config::http, &http_config::body_limit, size_in(1024, 1024 * 1024 * 1024)),
         read(&server_config::http, &http_config::body_limit)},
        {"header_limit", "SYNCML_HEADER_LIMIT", "largest request header block in bytes, else 431", false,
         assign(&server_config::http, &http_config::header_limit, size_in(1024, 1024 * 1024)),
         read(&server_config::http, &http_config::header_limit)},
        {"read_timeout", "SYNCML_READ_TIMEOUT", "time to receive a request body once its header arrived", false,
         assign(&server_config::http, &http_config::read_timeout, duration_in(100, 3'600'000)),
         read(&server_config::http, &http_config::read_timeout)},
        {"header_timeout", "SYNCML_HEADER_TIMEOUT",
         "time a new connection has to send its request header, and any header once its first byte came", false,
         assign(&server_config::http, &http_config::header_timeout, duration_in(100, 600'000)),
         read(&server_config::http, &http_config::header_timeout)},
        {"idle_timeout", "SYNCML_IDLE_TIMEOUT", "keep-alive wait for the next request header", false,
         assign(&server_config::http, &http_config::idle_timeout, duration_in(100, 3'600'000)),
         read(&server_config::http, &http_config::idle_timeout)},
        {"shutdown_deadline", "SYNCML_SHUTDOWN_DEADLINE", "how long SIGTERM waits for in-flight requests", false,
         [](server_config& config, const std::string& text) -> std::optional<std::string> {
             auto value = duration_in(0, 600'000)(text);
             if (!value.ok()) return value.error;
             config.shutdown_deadline = *value.value;
             return std::nullopt;
         },
         [](const server_config& config) { return format_duration(config.shutdown_deadline); }},
    };
}

std::vector<config_key> database_keys() {
    return {
        {"data_dir", "SYNCML_DATA_DIR", "state directory (embedded PostgreSQL lives in <data_dir>/postgres)", false,
         assign(&server_config::database, &database_config::data_dir, non_empty),
         read(&server_config::database, &database_config::data_dir)},
        {"database_url", "SYNCML_DATABASE_URL",
         "libpq URL of PostgreSQL (several, separated by spaces: the first for migrations and admin, workers spread "
         "over all); empty starts an embedded one",
         true, assign(&server_config::database, &database_config::url, any_text),
         read(&server_config::database, &database_config::url)},
        {"embedded_port", "SYNCML_EMBEDDED_PORT", "port of the embedded PostgreSQL on 127.0.0.1; 0 picks a free one",
         false, assign(&server_config::database, &database_config::embedded_port, port_or_zero),
         read(&server_config::database, &database_config::embedded_port)},
        {"database_prepared_statements", "SYNCML_DATABASE_PREPARED_STATEMENTS",
         "prepare frequent statements once per connection; false behind pgbouncer < 1.21 in transaction mode", false,
         assign(&server_config::database, &database_config::prepared_statements, parse_bool),
         [](const server_config& config) {
             return std::string(config.database.prepared_statements ? "true" : "false");
         }},
        {"secret_key", "SYNCML_SECRET_KEY",
         "base64 of 32 random bytes (openssl rand -base64 32) encrypting the stored md5 secrets; the same on every "
         "instance; empty: secret_key_file",
         false, assign(&server_config::database, &database_config::secret_key, any_text),
         [](const server_config& config) { return std::string(config.database.secret_key.empty() ? "" : "********"); }},
        {"secret_key_file", "SYNCML_SECRET_KEY_FILE",
         "file holding secret_key; empty: <data_dir>/secret.key, created with mode 0600 when missing", false,
         assign(&server_config::database, &database_config::secret_key_file, any_text),
         read(&server_config::database, &database_config::secret_key_file)},
    };
}

std::vector<config_key> log_and_login_keys() {
    return {
        {"log_format", "SYNCML_LOG_FORMAT", "text or json (one JSON object per line)", false,
         assign(&server_config::log, &log_config::format, parse_log_format),
         read(&server_config::log, &log_config::format)},
        {"log_level", "SYNCML_LOG_LEVEL", "trace, debug, info, warn, error, critical or off", false,
         assign(&server_config::log, &log_config::level, parse_log_level),
         read(&server_config::log, &log_config::level)},
        {"auth_max_failures", "SYNCML_AUTH_MAX_FAILURES",
         "failed logins per user and per device within auth_failure_window before they are refused (1-1000)", false,
         assign(&server_config::engine, &engine_config::auth_max_failures, unsigned_in(1, 1000)),
         read(&server_config::engine, &engine_config::auth_max_failures)},
        {"auth_failure_window", "SYNCML_AUTH_FAILURE_WINDOW", "window of the failed-login limit", false,
         assign(&server_config::engine, &engine_config::auth_failure_window, duration_in(1000, 86'400'000)),
         read(&server_config::engine, &engine_config::auth_failure_window)},
        {"credential_cache_ttl", "SYNCML_CREDENTIAL_CACHE_TTL",
         "how long a verified basic-auth password is remembered in memory; 0 disables", false,
         assign(&server_config::engine, &engine_config::credential_cache_ttl, duration_in(0, 3'600'000)),
         read(&server_config::engine, &engine_config::credential_cache_ttl)},
        {"client_logins_per_minute", "SYNCML_CLIENT_LOGINS_PER_MINUTE",
         "password checks and lookups of unknown sessions per client address (IPv6: per /64) and minute; more are "
         "refused with 503 before they are queued (1-100000)",
         false, assign(&server_config::engine, &engine_config::client_logins_per_minute, unsigned_in(1, 100'000)),
         read(&server_config::engine, &engine_config::client_logins_per_minute)},
        {"client_login_burst", "SYNCML_CLIENT_LOGIN_BURST",
         "how many of them one client address may spend at once (1-100000)", false,
         assign(&server_config::engine, &engine_config::client_login_burst, unsigned_in(1, 100'000)),
         read(&server_config::engine, &engine_config::client_login_burst)},
        {"password_checks_at_once", "SYNCML_PASSWORD_CHECKS_AT_ONCE",
         "password hashes computed at once; logins wait for one while a worker stays free, the rest get 503 (0: half "
         "the "
         "cores, 0-1024)",
         false, assign(&server_config::engine, &engine_config::password_checks_at_once, unsigned_in(0, 1024)),
         read(&server_config::engine, &engine_config::password_checks_at_once)},
        {"dav_max_collections", "SYNCML_DAV_MAX_COLLECTIONS",
         "address books and calendars a user may have over CardDAV/CalDAV, the four default ones included; more "
         "MKCOL and MKCALENDAR get 507 (4-10000)",
         false, assign(&server_config::engine, &engine_config::dav_max_collections, unsigned_in(4, 10'000)),
         read(&server_config::engine, &engine_config::dav_max_collections)},
    };
}

std::vector<config_key> session_keys() {
    return {
        {"session_address_idle", "SYNCML_SESSION_ADDRESS_IDLE",
         "how long after its last message a session may go on without RespURI token or credentials from the "
         "address that authenticated it (tenants with session_binding token-or-address); 0: token or credentials "
         "always",
         false, assign(&server_config::engine, &engine_config::session_address_idle, duration_in(0, 3'600'000)),
         read(&server_config::engine, &engine_config::session_address_idle)},
        // At most 24 h: a resume pointer lasts 24 h 30 min (migrations/0026_resume_pointer_lifetime.sql).
        {"session_max_age", "SYNCML_SESSION_MAX_AGE", "absolute lifetime of a sync session (10 min - 24 h)", false,
         assign(&server_config::engine, &engine_config::session_max_age, duration_in(600'000, 86'400'000)),
         read(&server_config::engine, &engine_config::session_max_age)},
        {"janitor_interval", "SYNCML_JANITOR_INTERVAL",
         "how often this instance runs the janitor (one instance at a time runs a pass); 0 disables", false,
         assign(&server_config::engine, &engine_config::janitor_interval, duration_in(0, 86'400'000)),
         read(&server_config::engine, &engine_config::janitor_interval)},
        {"trace_device", "SYNCML_TRACE_DEVICE",
         "comma-separated device ids (the phone's LocURI) whose requests and replies are written to trace_dir as "
         "XML, credentials masked, for trace_for after the start; empty: none",
         false, assign(&server_config::engine, &engine_config::trace_devices, any_text),
         read(&server_config::engine, &engine_config::trace_devices)},
        {"trace_dir", "SYNCML_TRACE_DIR", "where device traces go; empty: <data_dir>/trace", false,
         assign(&server_config::engine, &engine_config::trace_dir, any_text),
         read(&server_config::engine, &engine_config::trace_dir)},
        {"trace_for", "SYNCML_TRACE_FOR", "how long after the start device tracing runs (1 min - 24 h)", false,
         assign(&server_config::engine, &engine_config::trace_for, duration_in(60'000, 86'400'000)),
         read(&server_config::engine, &engine_config::trace_for)},
        {"tenant_cache_ttl", "SYNCML_TENANT_CACHE_TTL",
         "how long a tenant's id is remembered in memory (a deleted tenant costs one failed message); 0 disables",
         false, assign(&server_config::engine, &engine_config::tenant_cache_ttl, duration_in(0, 3'600'000)),
         read(&server_config::engine, &engine_config::tenant_cache_ttl)},
    };
}

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

// One table, in the order --help and --print-config show it.
const std::vector<config_key>& keys() {
    static const std::vector<config_key> table = [] {
        std::vector<config_key> all;
        for (auto area :
             {listener_keys, request_keys, database_keys, log_and_login_keys, session_keys, edge_keys, push_keys}) {
            auto keys = area();
            all.insert(all.end(), std::make_move_iterator(keys.begin()), std::make_move_iterator(keys.end()));
        }
        return all;
    }();
    return table;
    return table;
}

const config_key* find_key(const std::string& name) {
    const auto& table = keys();
    auto found = std::find_if(table.begin(), table.end(), [&](const config_key& k) { return name == k.name; });
    return found == table.end() ? nullptr : &*found;
}

void apply(server_config& config, const config_key& key, const std::string& value, const std::string& origin,
           std::vector<std::string>& errors) {
    if (auto error = key.set(config, value)) {
        errors.push_back(origin + ": " + key.name + ": " + *error);
    }
}

void apply_file(server_config& config, const config_sources& sources, std::vector<std::string>& errors) {
    std::istringstream lines(sources.file_text);
    std::string line;
    const std::string file = sources.file_path.value_or("config");
    for (int number = 1; std::getline(lines, line); ++number) {
        const std::string where = file + ":" + std::to_string(number);
        auto entry = parse_config_line(line);
        if (!entry.ok()) {
            errors.push_back(where + ": " + entry.error);
        } else if (entry.value) {
            const config_key* key = find_key(entry.value->first);
            if (key == nullptr) {
                errors.push_back(where + ": unknown key '" + entry.value->first + "'");
            } else {
                apply(config, *key, entry.value->second, where, errors);
            }
        }
    }
}

bool same_port(const endpoint& a, const endpoint& b) {
    return a.port == b.port && (a.host == b.host || a.host == "0.0.0.0" || b.host == "0.0.0.0");
}

void check_consistency(const server_config& config, std::vector<std::string>& errors) {
    if (config.http.tls_cert.empty() != config.http.tls_key.empty()) {
        errors.push_back("tls_cert/tls_key: set both (HTTPS) or neither (plain HTTP)");
    }
    const auto& http = config.http.listen;
    const auto& metrics = config.metrics.listen;
    if (same_port(http, metrics)) {
        errors.push_back("metrics_listen: must not use the same port as listen (" + format_endpoint(http) + ")");
    }
    if (const auto& admin = config.admin.listen;
        admin && admin->port != 0 && (same_port(*admin, http) || same_port(*admin, metrics))) {
        errors.push_back("admin_listen: must not use the same port as listen or metrics_listen");
    }
}

// Variables of the environment that are not settings but are read elsewhere: the password hash cost (tests only)
// and what the test and benchmark scripts pass to the programs they start.
bool read_elsewhere(const std::string& name) {
    static const std::vector<std::string> prefixes = {"SYNCML_PASSWORD_HASH_ITERATIONS",
                                                      "SYNCML_TEST_",
                                                      "SYNCML_BUILD_",
                                                      "SYNCML_SOURCE_DIR",
                                                      "SYNCML_CORPUS_DIR",
                                                      "SYNCML_FUZZ_",
                                                      "SYNCML_INTEROP_",
                                                      "SYNCML_BENCH_",
                                                      "SYNCML_FAULT_"};
    return std::any_of(prefixes.begin(), prefixes.end(), [&](const auto& p) { return name.starts_with(p); });
}

void warn_unknown_variables(const config_sources& sources, std::vector<std::string>& warnings) {
    for (const auto& [name, value] : sources.environment) {
        const bool known = std::any_of(keys().begin(), keys().end(), [&](const auto& key) { return name == key.env; });
        if (!known && !read_elsewhere(name)) {
            warnings.push_back("environment " + name + ": no such setting, ignored (see --help for the names)");
        }
    }
}

}  // namespace

config_result parse_config(const config_sources& sources) {
    config_result result;
    apply_file(result.config, sources, result.errors);
    for (const auto& key : keys()) {
        auto env = sources.environment.find(key.env);
        if (env != sources.environment.end()) {
            apply(result.config, key, env->second, std::string("environment ") + key.env, result.errors);
        }
    }
    if (result.errors.empty()) check_consistency(result.config, result.errors);
    warn_unknown_variables(sources, result.warnings);
    return result;
}

config_sources load_config_sources(const std::optional<std::string>& file_path) {
    config_sources sources;
    sources.file_path = file_path;
    if (file_path) {
        std::ifstream in(*file_path);
        if (!in) throw std::runtime_error("cannot read config file " + *file_path);
        std::ostringstream text;
        text << in.rdbuf();
        sources.file_text = text.str();
    }
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        std::string item(*entry);
        auto equals = item.find('=');
        if (item.starts_with("SYNCML_") && equals != std::string::npos) {
            sources.environment.emplace(item.substr(0, equals), item.substr(equals + 1));
        }
    }
    return sources;
}

std::string print_config(const server_config& config) {
    std::string out;
    for (const auto& key : keys()) {
        std::string value = key.get(config);
        if (key.secret) value = mask_database_url(value);
        out += std::string(key.name) + " = " + value + "\n";
    }
    return out;
}

std::string config_help() {
    const server_config defaults;
    std::string out;
    for (const auto& key : keys()) {
        out += "  " + std::string(key.name) + " (" + key.env + ", default '" + key.get(defaults) + "')\n      " +
               key.help + "\n";
    }
    return out;
}

}  // namespace syncml::server
