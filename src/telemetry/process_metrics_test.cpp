#include "src/telemetry/process_metrics.hpp"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <chrono>

namespace syncml::server {
namespace {

TEST(process_metrics, parses_proc_stat_with_spaces_and_parentheses_in_the_command_name) {
    // Fields 14/15 utime/stime, 22 starttime, 23 vsize, 24 rss (proc(5)).
    std::string text = "4242 (odd) (name) S 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 8 0 123456 104857600 2560 0 0\n";
    auto fields = parse_proc_stat(text);
    ASSERT_TRUE(fields);
    EXPECT_EQ(fields->user_ticks, 250);
    EXPECT_EQ(fields->system_ticks, 50);
    EXPECT_EQ(fields->start_ticks, 123456);
    EXPECT_EQ(fields->virtual_bytes, 104857600);
    EXPECT_EQ(fields->resident_pages, 2560);
    EXPECT_FALSE(parse_proc_stat("4242 (truncated) S 1 2 3"));
    EXPECT_FALSE(parse_proc_stat("no parenthesis"));
}

TEST(process_metrics, parses_boot_time_and_the_open_files_limit) {
    EXPECT_EQ(parse_boot_time("cpu  1 2 3\nintr 5\nbtime 1764750000\nprocesses 9\n"), 1764750000);
    EXPECT_FALSE(parse_boot_time("cpu 1 2 3\n"));
    EXPECT_EQ(parse_max_fds("Limit                     Soft Limit           Hard Limit           Units\n"
                            "Max open files            1024                 524288               files\n"),
              1024);
}

TEST(process_metrics, reads_this_process_from_proc) {
    auto stats = read_process_stats();
    ASSERT_TRUE(stats);
    EXPECT_GT(stats->resident_bytes, 1024 * 1024);
    EXPECT_GE(stats->cpu_seconds, 0);
    EXPECT_GE(stats->open_fds, 3);  // stdin, stdout, stderr at least
    auto now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    EXPECT_LE(stats->start_time_seconds, now + 1);
    EXPECT_GT(stats->start_time_seconds, now - 24 * 3600);
    EXPECT_FALSE(read_process_stats("/nonexistent"));
}

TEST(process_metrics, exports_process_families_and_the_readiness_gauge) {
    process_stats stats;
    stats.resident_bytes = 2048;
    stats.cpu_seconds = 1.5;
    stats.open_fds = 12;
    stats.start_time_seconds = 1764750000;
    auto text = prometheus::TextSerializer().Serialize(scrape_time_families(stats, true, std::nullopt));
    EXPECT_NE(text.find("# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 1.5"), std::string::npos)
        << text;
    EXPECT_NE(text.find("process_resident_memory_bytes 2048"), std::string::npos);
    EXPECT_NE(text.find("process_open_fds 12"), std::string::npos);
    EXPECT_NE(text.find("process_start_time_seconds 1764750000"), std::string::npos);
    EXPECT_NE(text.find("syncml_ready 1"), std::string::npos);
    auto down = prometheus::TextSerializer().Serialize(scrape_time_families(std::nullopt, false, std::nullopt));
    EXPECT_EQ(down.find("process_"), std::string::npos);
    EXPECT_NE(down.find("syncml_ready 0"), std::string::npos);
}

TEST(process_metrics, exports_the_tls_certificate_expiry_or_only_declares_it_without_tls) {
    auto with_tls = prometheus::TextSerializer().Serialize(scrape_time_families(std::nullopt, true, 1893456000.0));
    EXPECT_NE(with_tls.find("# TYPE syncml_tls_certificate_expiry_timestamp_seconds gauge\n"
                            "syncml_tls_certificate_expiry_timestamp_seconds 1893456000\n"),
              std::string::npos)
        << with_tls;
    auto without = prometheus::TextSerializer().Serialize(scrape_time_families(std::nullopt, true, std::nullopt));
    EXPECT_NE(without.find("# TYPE syncml_tls_certificate_expiry_timestamp_seconds gauge\n"), std::string::npos)
        << without;
    EXPECT_EQ(without.find("\nsyncml_tls_certificate_expiry_timestamp_seconds "), std::string::npos) << without;
}

}  // namespace
}  // namespace syncml::server
