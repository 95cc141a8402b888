#include "src/config/config_keys.hpp"

#include <algorithm>
#include <iterator>

// The settings of listeners, requests, the database, logs, logins and sessions; edge and push keys are in
// config_keys_edge.cpp.

namespace syncml::server {

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
        {"data_dir", "SYNCML_DATA_DIR",
         "state directory: the secret key file, device traces and, without database_url, the embedded PostgreSQL "
         "(<data_dir>/pgdata)",
         false, assign(&server_config::database, &database_config::data_dir, non_empty),
         read(&server_config::database, &database_config::data_dir)},
        {"database_url", "SYNCML_DATABASE_URL",
         "libpq URL of PostgreSQL (several, separated by spaces: the first for migrations and admin, workers spread "
         "over all); empty starts an embedded one",
         true, assign(&server_config::database, &database_config::url, any_text),
         read(&server_config::database, &database_config::url)},
        {"require_database_url", "SYNCML_REQUIRE_DATABASE_URL",
         "true where an external PostgreSQL is expected (the images and manifests for one): without database_url every "
         "command refuses to start, instead of creating an empty embedded database",
         false, assign(&server_config::database, &database_config::require_url, parse_bool),
         read(&server_config::database, &database_config::require_url)},
        {"embedded_port", "SYNCML_EMBEDDED_PORT", "port of the embedded PostgreSQL on 127.0.0.1; 0 picks a free one",
         false, assign(&server_config::database, &database_config::embedded_port, port_or_zero),
         read(&server_config::database, &database_config::embedded_port)},
        {"database_prepared_statements", "SYNCML_DATABASE_PREPARED_STATEMENTS",
         "prepare frequent statements once per connection; false behind pgbouncer < 1.21 in transaction mode", false,
         assign(&server_config::database, &database_config::prepared_statements, parse_bool),
         read(&server_config::database, &database_config::prepared_statements)},
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
        {"tenant_metrics_interval", "SYNCML_TENANT_METRICS_INTERVAL",
         "how often this instance counts the per-tenant gauges (users, devices, bytes, sessions); 0: never", false,
         assign(&server_config::metrics, &metrics_config::tenant_interval, duration_in(0, 86'400'000)),
         read(&server_config::metrics, &metrics_config::tenant_interval)},
        {"tenant_metrics_top", "SYNCML_TENANT_METRICS_TOP",
         "tenants with a label of their own in the per-tenant gauges, those at a limit first, then the largest; the "
         "rest are summed as tenant=\"_other\" (0-1000)",
         false, assign(&server_config::metrics, &metrics_config::tenants_top, unsigned_in(0, 1000)),
         read(&server_config::metrics, &metrics_config::tenants_top)},
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

const std::vector<config_key>& config_keys() {
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
}

// Test and tool knobs (test.sh, tests/, loadtest/, docker/compose.yaml): a developer's shell exports them and every
// server a script starts inherits them. tests/checks/environment_names.sh fails when a script uses a SYNCML_* name
// that is neither a setting nor listed here. New test knobs take the prefix SYNCML_TEST_.
const std::vector<reserved_variable>& reserved_variables() {
    static const std::vector<reserved_variable> names = {
        {"SYNCML_ALLOW_UNKNOWN", false, "the server: unknown names only warn"},
        {"SYNCML_PASSWORD_HASH_ITERATIONS", false, "the server, tests only: the cost of new password hashes"},
        {"SYNCML_TEST_", true, "test.sh and the test scripts"},
        {"SYNCML_BUILD_DIR", false, "the test scripts"},
        {"SYNCML_SOURCE_DIR", false, "the test scripts"},
        {"SYNCML_CORPUS_DIR", false, "the test scripts"},
        {"SYNCML_RELEASE_BUILD", false, "loadtest/"},
        {"SYNCML_CITUS_VENDOR", false, "tests/citus-cluster.sh"},
        {"SYNCML_FUZZ_", true, "test.sh and tests/fuzz/"},
        {"SYNCML_BENCH_", true, "the benchmarks"},
        {"SYNCML_LOAD_TRACE", false, "loadtest/'s load generator"},
        {"SYNCML_INTEROP_", true, "tests/integration/interop-matrix.sh"},
        {"SYNCML_FAULT_", true, "tests/integration/fault_injection.sh"},
        {"SYNCML_MATCHING_", true, "tests/integration/matching_scenarios.sh"},
        {"SYNCML_FILTER_", true, "tests/integration/filtered_sync.sh"},
        {"SYNCML_SCENARIOS", false, "tests/integration/client_scenarios.sh"},
        {"SYNCML_SCENARIO_PORTS", false, "tests/integration/client_scenarios.sh"},
        {"SYNCML_HAPROXY_MATRIX", false, "tests/integration/haproxy_matrix.sh"},
        {"SYNCML_DB_PASSWORD", false, "docker/compose.yaml"},
        {"SYNCML_PUBLISH_ADDRESS", false, "docker/compose.yaml"},
    };
    return names;
}

bool is_reserved_variable(const std::string& name) {
    return std::any_of(reserved_variables().begin(), reserved_variables().end(), [&](const reserved_variable& r) {
        return r.prefix ? name.starts_with(r.name) : name == r.name;
    });
}

}  // namespace syncml::server
