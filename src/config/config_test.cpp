#include "src/config/config.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace syncml::server {
namespace {

config_result parse(std::string file, std::map<std::string, std::string> env = {}) {
    config_sources sources;
    sources.file_path = "test.conf";
    sources.file_text = std::move(file);
    sources.environment = std::move(env);
    return parse_config(sources);
}

bool mentions(const config_result& result, const std::string& text) {
    return std::any_of(result.errors.begin(), result.errors.end(),
                       [&](const std::string& e) { return e.find(text) != std::string::npos; });
}

TEST(config, defaults_match_the_documented_interface) {
    auto result = parse("");
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(format_endpoint(result.config.http.listen), "0.0.0.0:8080");
    EXPECT_EQ(format_endpoint(result.config.metrics.listen), "127.0.0.1:9090");
    EXPECT_EQ(result.config.database.data_dir, "./data");
    EXPECT_TRUE(result.config.database.url.empty());
    EXPECT_EQ(result.config.log.format, log_format::text);
    EXPECT_FALSE(result.config.http.tls_enabled());
}

TEST(config, file_sets_values_and_ignores_comments_and_blank_lines) {
    auto result = parse(
        "# comment\n\n  listen = 127.0.0.1:18001\nio_threads=3\nbody_limit = 2m\nread_timeout = 1500ms\n"
        "idle_timeout = 2m\nshutdown_deadline = 5\nlog_format = \"json\"\n");
    ASSERT_TRUE(result.ok()) << result.errors.front();
    EXPECT_EQ(result.config.http.listen.host, "127.0.0.1");
    EXPECT_EQ(result.config.http.listen.port, 18001);
    EXPECT_EQ(result.config.http.io_threads, 3u);
    EXPECT_EQ(result.config.http.body_limit, 2u * 1024 * 1024);
    EXPECT_EQ(result.config.http.read_timeout, std::chrono::milliseconds(1500));
    EXPECT_EQ(result.config.http.idle_timeout, std::chrono::minutes(2));
    EXPECT_EQ(result.config.shutdown_deadline, std::chrono::seconds(5));
    EXPECT_EQ(result.config.log.format, log_format::json);
}

TEST(config, environment_overrides_the_file) {
    auto result = parse("listen = 127.0.0.1:18001\ndata_dir = /from/file\n",
                        {{"SYNCML_LISTEN", "[::1]:18002"}, {"SYNCML_DATABASE_URL", "postgresql://db/x"}});
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result.config.http.listen.host, "::1");
    EXPECT_EQ(result.config.http.listen.port, 18002);
    EXPECT_EQ(result.config.database.data_dir, "/from/file");
    EXPECT_EQ(result.config.database.url, "postgresql://db/x");
}

TEST(config, reports_one_error_per_bad_key_with_its_origin) {
    auto result = parse("listen = nonsense\nio_threads = 0\nbogus = 1\nno equals sign\n",
                        {{"SYNCML_LOG_FORMAT", "xml"}, {"SYNCML_READ_TIMEOUT", "5 parsecs"}});
    EXPECT_EQ(result.errors.size(), 6u);
    EXPECT_TRUE(mentions(result, "test.conf:1: listen: expected host:port"));
    EXPECT_TRUE(mentions(result, "test.conf:2: io_threads"));
    EXPECT_TRUE(mentions(result, "test.conf:3: unknown key 'bogus'"));
    EXPECT_TRUE(mentions(result, "test.conf:4: expected 'key = value'"));
    EXPECT_TRUE(mentions(result, "SYNCML_LOG_FORMAT: log_format: expected text or json"));
    EXPECT_TRUE(mentions(result, "SYNCML_READ_TIMEOUT: read_timeout"));
}

TEST(config, rejects_out_of_range_numbers) {
    EXPECT_FALSE(parse("listen = 1.2.3.4:70000\n").ok());
    EXPECT_FALSE(parse("worker_threads = -1\n").ok());
    EXPECT_FALSE(parse("body_limit = 10\n").ok());
    EXPECT_FALSE(parse("body_limit = 99999999999999999999k\n").ok());
    EXPECT_FALSE(parse("read_timeout = 2d\n").ok());
    EXPECT_TRUE(parse("worker_queue_limit = 1\n").ok());
}

TEST(config, tls_needs_both_certificate_and_key) {
    auto result = parse("", {{"SYNCML_TLS_CERT", "/etc/cert.pem"}});
    EXPECT_TRUE(mentions(result, "tls_cert/tls_key"));
    auto both = parse("", {{"SYNCML_TLS_CERT", "/etc/cert.pem"}, {"SYNCML_TLS_KEY", "/etc/key.pem"}});
    EXPECT_TRUE(both.ok());
    EXPECT_TRUE(both.config.http.tls_enabled());
}

TEST(config, listeners_must_not_share_a_port) {
    auto result = parse("listen = 0.0.0.0:9000\nmetrics_listen = 127.0.0.1:9000\n");
    EXPECT_TRUE(mentions(result, "metrics_listen"));
}

TEST(config, the_admin_api_is_off_unless_a_listen_address_is_given) {
    EXPECT_FALSE(parse("").config.admin.listen);
    auto result = parse("admin_listen = 127.0.0.1:9443\n");
    ASSERT_TRUE(result.ok());
    ASSERT_TRUE(result.config.admin.listen);
    EXPECT_EQ(format_endpoint(*result.config.admin.listen), "127.0.0.1:9443");
    EXPECT_NE(print_config(result.config).find("admin_listen = 127.0.0.1:9443"), std::string::npos);
    EXPECT_FALSE(parse("admin_listen = 127.0.0.1:9443\n", {{"SYNCML_ADMIN_LISTEN", ""}}).config.admin.listen);
    EXPECT_TRUE(mentions(parse("admin_listen = nonsense\n"), "admin_listen"));
    EXPECT_TRUE(mentions(parse("admin_listen = 127.0.0.1:9090\n"), "admin_listen: must not use the same port"));
}

TEST(config, print_config_masks_database_passwords) {
    auto result = parse("database_url = postgresql://syncml:s3cret@db:5432/syncml?sslmode=require\n");
    ASSERT_TRUE(result.ok());
    const std::string printed = print_config(result.config);
    EXPECT_EQ(printed.find("s3cret"), std::string::npos);
    EXPECT_NE(printed.find("database_url = postgresql://syncml:***@db:5432/syncml?sslmode=require"), std::string::npos);
    EXPECT_NE(printed.find("listen = 0.0.0.0:8080"), std::string::npos);
}

TEST(config, print_config_masks_every_password_of_several_database_urls) {
    auto result =
        parse("database_url = postgresql://syncml:one@node1/syncml postgresql://syncml:two@node2:6432/syncml\n");
    ASSERT_TRUE(result.ok());
    const std::string printed = print_config(result.config);
    EXPECT_EQ(printed.find("one@"), std::string::npos) << printed;
    EXPECT_EQ(printed.find("two@"), std::string::npos) << printed;
    EXPECT_NE(
        printed.find("database_url = postgresql://syncml:***@node1/syncml postgresql://syncml:***@node2:6432/syncml"),
        std::string::npos)
        << printed;
}

TEST(config, printed_config_parses_back_to_the_same_config) {
    auto first = parse("listen = 127.0.0.1:18003\nbody_limit = 64k\nidle_timeout = 90s\nlog_level = debug\n");
    ASSERT_TRUE(first.ok());
    auto second = parse(print_config(first.config));
    ASSERT_TRUE(second.ok()) << second.errors.front();
    EXPECT_EQ(print_config(second.config), print_config(first.config));
}

TEST(config, masks_key_value_and_query_passwords) {
    EXPECT_EQ(mask_database_url("host=db password=abc user=x"), "host=db password=*** user=x");
    EXPECT_EQ(mask_database_url("postgresql://db/x?user=u&password=abc&sslmode=disable"),
              "postgresql://db/x?user=u&password=***&sslmode=disable");
    EXPECT_EQ(mask_database_url("postgresql://user@db/x"), "postgresql://user@db/x");
    EXPECT_EQ(mask_database_url("postgresql://db/x?pass%77ord=abc"), "postgresql://db/x?pass%77ord=***");
    EXPECT_EQ(mask_database_url("host=db password = 'a b c' user=x"), "host=db password = *** user=x");
}

TEST(config, help_lists_every_key_with_its_environment_variable) {
    const std::string help = config_help();
    for (const char* env : {"SYNCML_DATABASE_URL", "SYNCML_DATA_DIR", "SYNCML_LISTEN", "SYNCML_METRICS_LISTEN",
                            "SYNCML_LOG_FORMAT", "SYNCML_TLS_CERT", "SYNCML_TLS_KEY"}) {
        EXPECT_NE(help.find(env), std::string::npos) << env;
    }
}

TEST(config, engine_limits_have_defaults_and_are_validated) {
    auto defaults = parse("");
    ASSERT_TRUE(defaults.ok());
    EXPECT_EQ(defaults.config.engine.auth_max_failures, 10u);
    EXPECT_EQ(defaults.config.engine.auth_failure_window, std::chrono::minutes(5));
    EXPECT_EQ(defaults.config.engine.credential_cache_ttl, std::chrono::seconds(60));
    EXPECT_EQ(defaults.config.engine.tenant_cache_ttl, std::chrono::seconds(60));

    auto set = parse("auth_max_failures = 3\ncredential_cache_ttl = 0\n",
                     {{"SYNCML_AUTH_FAILURE_WINDOW", "90s"}, {"SYNCML_TENANT_CACHE_TTL", "5s"}});
    ASSERT_TRUE(set.ok()) << set.errors.front();
    EXPECT_EQ(set.config.engine.auth_max_failures, 3u);
    EXPECT_EQ(set.config.engine.auth_failure_window, std::chrono::seconds(90));
    EXPECT_EQ(set.config.engine.credential_cache_ttl, std::chrono::seconds(0));
    EXPECT_EQ(set.config.engine.tenant_cache_ttl, std::chrono::seconds(5));

    auto bad = parse("auth_max_failures = 0\nauth_failure_window = 10ms\n");
    EXPECT_TRUE(mentions(bad, "auth_max_failures"));
    EXPECT_TRUE(mentions(bad, "auth_failure_window"));
}

TEST(config, prepared_statements_are_on_unless_switched_off) {
    EXPECT_TRUE(parse("").config.database.prepared_statements);
    auto off = parse("", {{"SYNCML_DATABASE_PREPARED_STATEMENTS", "off"}});
    ASSERT_TRUE(off.ok()) << off.errors.front();
    EXPECT_FALSE(off.config.database.prepared_statements);
    EXPECT_TRUE(parse("database_prepared_statements = Yes\n").config.database.prepared_statements);
    EXPECT_TRUE(mentions(parse("database_prepared_statements = maybe\n"), "database_prepared_statements"));
}

TEST(config, public_url_is_validated_and_normalised) {
    EXPECT_TRUE(parse("").config.http.public_url.empty());
    auto set = parse("", {{"SYNCML_PUBLIC_URL", "https://Sync.Example.com:443/"}});
    ASSERT_TRUE(set.ok()) << set.errors.front();
    EXPECT_EQ(set.config.http.public_url, "https://sync.example.com");
    EXPECT_TRUE(mentions(parse("public_url = https://sync.example.com/sync\n"), "public_url"));
    EXPECT_TRUE(mentions(parse("public_url = sync.example.com\n"), "public_url"));
    EXPECT_TRUE(mentions(parse("public_url = https://x?y=1\n"), "public_url"));
}

TEST(config, trusted_proxies_take_addresses_and_networks_and_print_back) {
    EXPECT_TRUE(parse("").config.http.trusted_proxies.empty());
    auto set = parse("trusted_proxies = 10.0.0.0/8, 192.0.2.7 ,2001:db8::/32\n");
    ASSERT_TRUE(set.ok()) << set.errors.front();
    ASSERT_EQ(set.config.http.trusted_proxies.size(), 3u);
    EXPECT_TRUE(contains(set.config.http.trusted_proxies[0], *common::parse_ip_address("10.9.8.7")));
    EXPECT_NE(print_config(set.config).find("trusted_proxies = 10.0.0.0/8,192.0.2.7,2001:db8::/32"), std::string::npos);
    EXPECT_TRUE(mentions(parse("", {{"SYNCML_TRUSTED_PROXIES", "10.0.0.0/8,haproxy"}}), "trusted_proxies"));
    EXPECT_TRUE(mentions(parse("trusted_proxies = 10.0.0.1/8\n"), "trusted_proxies"));
}

TEST(config, connection_cap_and_tls_reload_interval_have_defaults_and_bounds) {
    auto defaults = parse("");
    EXPECT_EQ(defaults.config.http.max_connections, 10'000u);
    EXPECT_EQ(defaults.config.http.tls_reload_interval, std::chrono::minutes(1));
    auto set = parse("max_connections = 500\ntls_reload_interval = 0\n");
    ASSERT_TRUE(set.ok()) << set.errors.front();
    EXPECT_EQ(set.config.http.max_connections, 500u);
    EXPECT_EQ(set.config.http.tls_reload_interval, std::chrono::milliseconds(0));
    EXPECT_TRUE(mentions(parse("max_connections = 0\n"), "max_connections"));
    const std::string help = config_help();
    for (const char* env :
         {"SYNCML_PUBLIC_URL", "SYNCML_TRUSTED_PROXIES", "SYNCML_MAX_CONNECTIONS", "SYNCML_TLS_RELOAD_INTERVAL"}) {
        EXPECT_NE(help.find(env), std::string::npos) << env;
    }
}

TEST(config, edge_limits_have_defaults_and_bounds) {
    auto defaults = parse("");
    EXPECT_EQ(defaults.config.http.max_connections_per_address, 64u);
    EXPECT_EQ(defaults.config.http.header_timeout, std::chrono::seconds(10));
    EXPECT_EQ(defaults.config.http.body_budget, 256u * 1024 * 1024);
    EXPECT_EQ(defaults.config.metrics.max_connections, 64u);
    EXPECT_TRUE(defaults.config.admin.allowed_hosts.empty());
    auto set = parse("", {{"SYNCML_MAX_CONNECTIONS_PER_ADDRESS", "8"},
                          {"SYNCML_HEADER_TIMEOUT", "5s"},
                          {"SYNCML_BODY_BUDGET_BYTES", "64m"},
                          {"SYNCML_METRICS_MAX_CONNECTIONS", "16"},
                          {"SYNCML_ADMIN_ALLOWED_HOSTS", " Admin.Example.com, [::1] ,*"}});
    ASSERT_TRUE(set.ok()) << set.errors.front();
    EXPECT_TRUE(set.warnings.empty());
    EXPECT_EQ(set.config.http.max_connections_per_address, 8u);
    EXPECT_EQ(set.config.http.header_timeout, std::chrono::seconds(5));
    EXPECT_EQ(set.config.http.body_budget, 64u * 1024 * 1024);
    EXPECT_EQ(set.config.metrics.max_connections, 16u);
    EXPECT_EQ(set.config.admin.allowed_hosts, (std::vector<std::string>{"admin.example.com", "::1", "*"}));
    EXPECT_TRUE(mentions(parse("max_connections_per_address = 0\n"), "max_connections_per_address"));
    EXPECT_TRUE(mentions(parse("header_timeout = 0\n"), "header_timeout"));
    EXPECT_TRUE(mentions(parse("body_budget = 1k\n"), "body_budget"));
    EXPECT_TRUE(mentions(parse("admin_allowed_hosts = evil.example:80/x\n"), "admin_allowed_hosts"));
}

TEST(config, session_binding_windows_have_defaults_and_bounds) {
    auto defaults = parse("");
    EXPECT_EQ(defaults.config.engine.session_address_idle, std::chrono::minutes(5));
    EXPECT_EQ(defaults.config.engine.session_max_age, std::chrono::hours(4));
    auto set = parse("session_address_idle = 0\n", {{"SYNCML_SESSION_MAX_AGE", "2h"}});
    ASSERT_TRUE(set.ok()) << set.errors.front();
    EXPECT_EQ(set.config.engine.session_address_idle, std::chrono::milliseconds(0));
    EXPECT_EQ(set.config.engine.session_max_age, std::chrono::hours(2));
    EXPECT_TRUE(mentions(parse("session_max_age = 1m\n"), "session_max_age"));
    EXPECT_TRUE(mentions(parse("session_address_idle = 2h\n"), "session_address_idle"));
    EXPECT_EQ(defaults.config.engine.janitor_interval, std::chrono::minutes(10));
    EXPECT_EQ(parse("janitor_interval = 0\n").config.engine.janitor_interval, std::chrono::milliseconds(0));
}

TEST(config, tenant_metrics_count_every_minute_for_the_fifty_largest_tenants_by_default) {
    auto defaults = parse("");
    EXPECT_EQ(defaults.config.metrics.tenant_interval, std::chrono::minutes(1));
    EXPECT_EQ(defaults.config.metrics.tenants_top, 50U);
    auto set = parse("tenant_metrics_interval = 0\n", {{"SYNCML_TENANT_METRICS_TOP", "0"}});
    ASSERT_TRUE(set.ok()) << set.errors.front();
    EXPECT_EQ(set.config.metrics.tenant_interval, std::chrono::milliseconds(0));
    EXPECT_EQ(set.config.metrics.tenants_top, 0U);
    EXPECT_TRUE(mentions(parse("tenant_metrics_top = 1001\n"), "tenant_metrics_top"));
}

TEST(config, device_trace_is_off_by_default_and_bounded_in_time) {
    auto defaults = parse("");
    EXPECT_TRUE(defaults.config.engine.trace_devices.empty());
    EXPECT_EQ(defaults.config.engine.trace_for, std::chrono::hours(1));
    auto set =
        parse("trace_dir = /var/trace\n", {{"SYNCML_TRACE_DEVICE", "IMEI:1, IMEI:2"}, {"SYNCML_TRACE_FOR", "30m"}});
    ASSERT_TRUE(set.ok()) << set.errors.front();
    EXPECT_EQ(set.config.engine.trace_devices, "IMEI:1, IMEI:2");
    EXPECT_EQ(set.config.engine.trace_dir, "/var/trace");
    EXPECT_EQ(set.config.engine.trace_for, std::chrono::minutes(30));
    EXPECT_TRUE(mentions(parse("trace_for = 2d\n"), "trace_for"));
}

bool warns(const config_result& result, const std::string& text) {
    return std::any_of(result.warnings.begin(), result.warnings.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

// Issue 39: a typo must not start an empty server with the embedded database.
TEST(config, an_unknown_syncml_variable_stops_the_start_with_the_nearest_name) {
    auto typo = parse("", {{"SYNCML_DATABSE_URL", "postgresql://db/syncml"}, {"SYNCML_LISTEN", "0.0.0.0:8080"}});
    EXPECT_FALSE(typo.ok());
    ASSERT_EQ(typo.errors.size(), 1u);
    EXPECT_TRUE(mentions(typo, "environment SYNCML_DATABSE_URL: no such setting; did you mean SYNCML_DATABASE_URL?"))
        << typo.errors[0];
    EXPECT_TRUE(mentions(typo, "SYNCML_ALLOW_UNKNOWN=1")) << typo.errors[0];
    EXPECT_TRUE(typo.warnings.empty());
    auto far = parse("", {{"SYNCML_SOMETHING_ELSE_ENTIRELY", "1"}});
    ASSERT_EQ(far.errors.size(), 1u);
    EXPECT_EQ(far.errors[0].find("did you mean"), std::string::npos) << far.errors[0];
}

TEST(config, an_unknown_file_key_stops_the_start_with_the_nearest_key) {
    auto result = parse("listne = 127.0.0.1:8080\nSYNCML_DATA_DIR = /srv\nLOG_LEVEL = debug\n");
    ASSERT_EQ(result.errors.size(), 3u);
    EXPECT_TRUE(mentions(result, "test.conf:1: unknown key 'listne'; did you mean listen?"));
    EXPECT_TRUE(mentions(result, "test.conf:2: unknown key 'SYNCML_DATA_DIR'; did you mean data_dir?"));
    EXPECT_TRUE(mentions(result, "test.conf:3: unknown key 'LOG_LEVEL'; did you mean log_level?"));
}

TEST(config, allow_unknown_turns_unknown_names_into_warnings) {
    auto result = parse("bogus_key = 1\n", {{"SYNCML_DATABSE_URL", "postgresql://db/syncml"},
                                            {"SYNCML_ALLOW_UNKNOWN", "1"},
                                            {"SYNCML_LISTEN", "127.0.0.1:18004"}});
    ASSERT_TRUE(result.ok()) << result.errors.front();
    EXPECT_EQ(result.warnings.size(), 2u);
    EXPECT_TRUE(warns(result,
                      "SYNCML_DATABSE_URL: no such setting, ignored as SYNCML_ALLOW_UNKNOWN is set; did you mean "
                      "SYNCML_DATABASE_URL?"));
    EXPECT_TRUE(warns(result, "unknown key 'bogus_key'"));
    EXPECT_EQ(result.config.http.listen.port, 18004);
    EXPECT_FALSE(parse("", {{"SYNCML_DATABSE_URL", "x"}, {"SYNCML_ALLOW_UNKNOWN", "false"}}).ok());
    auto malformed = parse("", {{"SYNCML_ALLOW_UNKNOWN", "sometimes"}});
    EXPECT_TRUE(mentions(malformed, "SYNCML_ALLOW_UNKNOWN: expected true or false"));
}

// What test.sh and the scripts under tests/ and loadtest/ export reaches every server they start.
TEST(config, names_of_the_tests_and_tools_are_no_error) {
    auto harness = parse("", {{"SYNCML_PASSWORD_HASH_ITERATIONS", "1000"},
                              {"SYNCML_TEST_WORK_DIR", "/tmp/x"},
                              {"SYNCML_TEST_DATABASE_URL", "postgresql://db/test"},
                              {"SYNCML_BUILD_DIR", "/src/build/test"},
                              {"SYNCML_SOURCE_DIR", "/src"},
                              {"SYNCML_CORPUS_DIR", "/shared/corpus"},
                              {"SYNCML_INTEROP_DIR", "/shared/interop"},
                              {"SYNCML_FUZZ_SECONDS", "20"},
                              {"SYNCML_FAULT_CASES", "a"},
                              {"SYNCML_MATCHING_SCENARIOS", "x"},
                              {"SYNCML_RELEASE_BUILD", "/src/build/release"},
                              {"SYNCML_DB_PASSWORD", "pw"}});
    EXPECT_TRUE(harness.ok()) << harness.errors.front();
    EXPECT_TRUE(harness.warnings.empty());
    EXPECT_FALSE(parse("", {{"SYNCML_BUILD_DIRECTORY", "/x"}}).ok()) << "reserved exact names are no prefixes";
    const std::string help = config_help();
    for (const char* text : {"SYNCML_ALLOW_UNKNOWN=1", "SYNCML_TEST_*", "SYNCML_BUILD_DIR,", "SYNCML_FUZZ_*"}) {
        EXPECT_NE(help.find(text), std::string::npos) << text;
    }
}

TEST(config, require_database_url_is_a_switch_off_by_default) {
    EXPECT_FALSE(parse("").config.database.require_url);
    auto set = parse("", {{"SYNCML_REQUIRE_DATABASE_URL", "true"}});
    ASSERT_TRUE(set.ok()) << set.errors.front();
    EXPECT_TRUE(set.config.database.require_url);
    EXPECT_NE(print_config(set.config).find("require_database_url = true\n"), std::string::npos);
    EXPECT_TRUE(mentions(parse("require_database_url = maybe\n"), "require_database_url"));
}

TEST(config, help_says_where_the_embedded_database_lives) {
    const std::string help = config_help();
    EXPECT_NE(help.find("<data_dir>/pgdata"), std::string::npos);
    EXPECT_EQ(help.find("<data_dir>/postgres)"), std::string::npos);
}

}  // namespace
}  // namespace syncml::server

namespace syncml::server {
namespace {

// Server-alerted sync (issue 37): the transports are http(s) URLs, shown without the credentials they carry.
TEST(config, push_transports_are_urls_shown_without_their_secrets) {
    auto defaults = parse("");
    ASSERT_TRUE(defaults.ok());
    EXPECT_TRUE(defaults.config.push.webhook_url.empty() && defaults.config.push.sms_url.empty());
    EXPECT_EQ(defaults.config.push.interval, std::chrono::milliseconds(1000));
    EXPECT_EQ(defaults.config.push.renotify, std::chrono::milliseconds(3'600'000));

    auto result = parse("push_sms_url = http://kannel:13013/cgi-bin/sendsms?username=u&password=p\n",
                        {{"SYNCML_PUSH_WEBHOOK_URL", "https://relay:tok@relay.example/hook?token=abc&x=1"},
                         {"SYNCML_PUSH_SETTLE", "250ms"}});
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result.config.push.sms_url, "http://kannel:13013/cgi-bin/sendsms?username=u&password=p");
    EXPECT_EQ(result.config.push.settle, std::chrono::milliseconds(250));
    const auto printed = print_config(result.config);
    EXPECT_NE(printed.find("push_sms_url = http://kannel:13013/cgi-bin/sendsms?username=u&password=********\n"),
              std::string::npos);
    EXPECT_NE(printed.find("push_webhook_url = https://********@relay.example/hook?token=********&x=1\n"),
              std::string::npos);
    EXPECT_EQ(printed.find("abc"), std::string::npos);

    EXPECT_TRUE(mentions(parse("push_sms_url = kannel:13013\n"), "push_sms_url"));
    EXPECT_TRUE(mentions(parse("push_renotify = 10s\n"), "push_renotify"));
}

}  // namespace
}  // namespace syncml::server
