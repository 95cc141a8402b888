#pragma once
// Server configuration: plain structs with defaults, filled from a config file and then from environment
// variables (which win). Every key lives in one table (config.cpp) so validation, --print-config and --help
// all come from the same place.
//
// File format: one `key = value` per line; blank lines and lines starting with `#` are ignored; values may be
// wrapped in double quotes. Durations take a unit suffix (ms, s, m, h; bare numbers are seconds), sizes an
// optional k/m suffix (KiB/MiB).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/net/ip_network.hpp"

namespace syncml::server {

struct endpoint {
    std::string host;
    std::uint16_t port = 0;
};

struct http_config {
    endpoint listen{"0.0.0.0", 8080};
    unsigned io_threads = 2;
    std::size_t body_limit = 4 * 1024 * 1024;
    std::size_t header_limit = 16 * 1024;
    std::chrono::milliseconds read_timeout{30'000};
    std::chrono::milliseconds idle_timeout{60'000};
    std::string tls_cert;
    std::string tls_key;
    // How often the certificate and key files are checked for a change (SIGHUP reloads at once); 0: never.
    std::chrono::milliseconds tls_reload_interval{60'000};
    bool tls_enabled() const { return !tls_cert.empty(); }
    // "https://sync.example.com": where phones reach us (RespURIs start with it); empty: a trusted proxy's
    // X-Forwarded-Host/-Proto, else the listener's own address.
    std::string public_url;
    // Peers whose X-Forwarded-For/-Host/-Proto are believed (reverse proxies, load balancers).
    std::vector<common::ip_network> trusted_proxies;
    // Open connections per listener; more are closed at once.
    std::size_t max_connections = 10'000;
    // Open connections per client address (IPv4 address, IPv6 /64) and listener; trusted proxies are not counted.
    std::size_t max_connections_per_address = 64;
    // How long a connection may take to send its first request head, and any head once its first byte arrived
    // (idle_timeout bounds the wait for that byte between keep-alive requests).
    std::chrono::milliseconds header_timeout{10'000};
    // Request bodies all connections together may be reading (and serving) at once; a body that does not fit is
    // refused with 503 before it is read.
    std::size_t body_budget = 256 * 1024 * 1024;
};

struct metrics_config {
    endpoint listen{"127.0.0.1", 9090};
    // Its own cap, far below the SyncML listener's: probes and scrapers need a few, and a flood on the public port
    // must leave room for them.
    std::size_t max_connections = 64;
    // Per-tenant gauges (src/app/tenant_metrics.hpp), counted by this instance's janitor thread this often (0: never)
    // for the tenants_top largest tenants, the rest in tenant="_other".
    std::chrono::milliseconds tenant_interval{60'000};
    unsigned tenants_top = 50;
};

// The HTTP admin API (src/admin/api/admin_api.hpp): off unless a listen address is given. It changes accounts, so it
// belongs on a private network or loopback.
struct admin_config {
    std::optional<endpoint> listen;
    // Host header names (without port) the admin API answers, against DNS rebinding; empty: loopback names and the
    // address the connection came in on. "*" allows any.
    std::vector<std::string> allowed_hosts;
};

struct pool_config {
    unsigned worker_threads = 4;
    std::size_t queue_limit = 256;
};

struct database_config {
    std::string url;  // empty: embedded PostgreSQL in data_dir
    // An external database is expected (images and manifests for one): without url, commands refuse to start rather
    // than create an empty embedded database (a mistyped variable must not look like a working server).
    bool require_url = false;
    std::string data_dir = "./data";
    std::uint16_t embedded_port = 0;  // 0: a free loopback port at every start
    bool prepared_statements = true;  // off behind poolers in transaction mode (pgbouncer < 1.21)
    // The key that encrypts the stored md5 secrets (persistence/accounts/secret_key.hpp), the same on every instance of
    // one database: base64 of 32 bytes, else read from secret_key_file, else <data_dir>/secret.key (created
    // 0600 when missing).
    std::string secret_key;
    std::string secret_key_file;
};

// Protocol engine limits that protect devices and accounts.
struct engine_config {
    // Failed authentications per user and per device within auth_failure_window before further attempts
    // are refused without checking the password.
    unsigned auth_max_failures = 10;
    std::chrono::milliseconds auth_failure_window{300'000};
    // How long a verified basic-auth password is remembered in memory; 0 turns the cache off.
    std::chrono::milliseconds credential_cache_ttl{60'000};
    // What one client address (an IPv6 /64) may cost in password hashes and session lookups that find nothing:
    // this many per minute, and this many at once (auth/address_budget.hpp).
    unsigned client_logins_per_minute = 60;
    unsigned client_login_burst = 30;
    // Password hashes computed at once on this instance; 0: half the cores, at least one (auth/hash_slots.hpp).
    unsigned password_checks_at_once = 0;
    // Collections (address books and calendars) a user may have over DAV, the four default ones included (issue 38).
    unsigned dav_max_collections = 50;
    std::chrono::milliseconds tenant_cache_ttl{60'000};
    // Session binding (migrations/0010_session_binding.sql): the idle window of the address binding, and the
    // absolute lifetime of any session.
    std::chrono::milliseconds session_address_idle{300'000};
    std::chrono::milliseconds session_max_age{4 * 3'600'000};
    // How often the janitor deletes expired sessions, old failed-login counters, abandoned chunks and old
    // tombstones (persistence/maintenance/janitor.hpp); 0 turns it off on this instance.
    std::chrono::milliseconds janitor_interval{600'000};
    // Device ids (comma-separated) whose messages are written to files under trace_dir (empty:
    // <data_dir>/trace) for trace_for after the start (session/service/device_trace.hpp).
    std::string trace_devices;
    std::string trace_dir;
    std::chrono::milliseconds trace_for{3'600'000};
};

// Server-alerted sync (issue 37): the sender every instance runs and the transports it sends through, each a setting,
// any combination. Which devices get a notification is their push settings' and their tenant's (push_enabled).
struct push_config {
    std::string webhook_url;  // POST of JSON for each notification (push/delivery); empty: none
    std::string sms_url;      // an SMS gateway's sendsms URL with its credentials (Kannel style); empty: none
    std::string server_id;    // the server id phones know us by; empty: <public_url>/sync, /sync/<tenant> for others
    // How often this instance looks for due notifications; 0: it sends none (another instance may).
    std::chrono::milliseconds interval{1000};
    // A device's changes gather this long after the last one before its notification goes (at most ten times as
    // long after the first), so that a burst of changes is one notification.
    std::chrono::milliseconds settle{1000};
    // A device notified that has not synced since gets no other notification before this.
    std::chrono::milliseconds renotify{3'600'000};
    std::chrono::milliseconds timeout{10'000};  // per request to a transport
};

enum class log_format { text, json };

struct log_config {
    log_format format = log_format::text;
    std::string level = "info";
};

struct server_config {
    http_config http;
    metrics_config metrics;
    admin_config admin;
    pool_config pool;
    database_config database;
    log_config log;
    engine_config engine;
    push_config push;
    std::chrono::milliseconds shutdown_deadline{20'000};
};

// Raw inputs: file lines and the environment (name -> value), kept apart so tests need no real environment.
struct config_sources {
    std::optional<std::string> file_path;
    std::string file_text;
    std::map<std::string, std::string> environment;
};

struct config_result {
    server_config config;
    // One line per bad key; empty when the config is valid. A SYNCML_* environment variable or a file key that is no
    // setting is one (a typo must not silently leave the default, e.g. the embedded database instead of
    // SYNCML_DATABASE_URL), unless SYNCML_ALLOW_UNKNOWN is true: then it is a warning.
    std::vector<std::string> errors;
    std::vector<std::string> warnings;
    bool ok() const { return errors.empty(); }
};

config_result parse_config(const config_sources& sources);

// Reads the file (when given) and the SYNCML_* variables of the process environment. A missing file is an error.
config_sources load_config_sources(const std::optional<std::string>& file_path);

// Effective configuration as `key = value` lines, secrets masked.
std::string print_config(const server_config& config);

// The config section of --help: every key with its environment variable, default and meaning, and the rule for
// SYNCML_* names that are no setting.
std::string config_help();

// Hides the password in a libpq URL or key/value connection string.
std::string mask_database_url(const std::string& url);

std::string format_endpoint(const endpoint& value);

}  // namespace syncml::server
