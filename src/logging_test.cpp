#include "src/logging.hpp"

#include <gtest/gtest.h>

#include <spdlog/sinks/ostream_sink.h>

#include <sstream>
#include <string>
#include <vector>

#include "persistence/log_value.hpp"

namespace syncml::server {
namespace {

std::string log_json(const std::string& message) {
    std::ostringstream out;
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out);
    spdlog::logger logger("test", sink);
    logger.set_formatter(std::make_unique<json_formatter>());
    logger.warn("{}", message);
    return out.str();
}

TEST(json_formatter, turns_key_value_words_into_fields) {
    const std::string line = log_json("request tenant=acme remote=10.0.0.1:5000 status=200 duration_ms=1.25");
    EXPECT_NE(line.find("\"level\":\"warning\""), std::string::npos) << line;
    EXPECT_NE(line.find("\"tenant\":\"acme\""), std::string::npos) << line;
    EXPECT_NE(line.find("\"remote\":\"10.0.0.1:5000\""), std::string::npos);
    EXPECT_NE(line.find("\"status\":\"200\""), std::string::npos);
    EXPECT_NE(line.find("\"msg\":\"request\""), std::string::npos);
    EXPECT_EQ(line.back(), '\n');
    EXPECT_EQ(line.find('\n'), line.size() - 1);
}

TEST(json_formatter, escapes_quotes_and_control_characters) {
    const std::string line = log_json("path=/sync/\"x\" bad\tinput\x01 end");
    EXPECT_NE(line.find("\"path\":\"/sync/\\\"x\\\"\""), std::string::npos) << line;
    EXPECT_NE(line.find("bad\\tinput\\u0001 end"), std::string::npos) << line;
}

TEST(json_formatter, keeps_empty_values_and_ignores_words_that_only_contain_equals) {
    const std::string line = log_json("tenant= a=b=c Mixed=no");
    EXPECT_NE(line.find("\"tenant\":\"\""), std::string::npos) << line;
    EXPECT_NE(line.find("\"a\":\"b=c\""), std::string::npos) << line;
    EXPECT_NE(line.find("\"msg\":\"Mixed=no\""), std::string::npos) << line;
}

TEST(json_formatter, reads_quoted_values_with_spaces_and_inner_quotes) {
    const std::string line =
        log_json("readiness ready=false reason=" + persistence::log_value("server at \"db\" down") + " tenant=x");
    EXPECT_NE(line.find("\"reason\":\"server at \\\"db\\\" down\""), std::string::npos) << line;
    EXPECT_NE(line.find("\"tenant\":\"x\""), std::string::npos) << line;
    EXPECT_NE(line.find("\"msg\":\"readiness\""), std::string::npos) << line;
}

// What a device id in a SyncML header can carry to forge a field or a whole line.
const std::vector<std::string>& hostile_values() {
    static const std::vector<std::string> values = {"IMEI:1 user=admin",
                                                    "IMEI:2\n{\"level\":\"error\",\"msg\":\"forged\"}",
                                                    "IMEI:3\" user=\"admin",
                                                    "IMEI:4\\\" user=admin",
                                                    "IMEI:5\r\n2026-01-01T00:00:00.000+0000 error forged",
                                                    "\"",
                                                    "",
                                                    "IMEI:6 \xff\xfe\x01 \xe2\x80\xa8 end"};
    return values;
}

std::string session_line(const std::string& device) {
    return fmt::format("session end tenant={} user={} device={} sent={}", persistence::log_value("acme"),
                       persistence::log_value("alice"), persistence::log_value(device), 3);
}

// The fields of a JSON line as the JSON formatter wrote them, in order: the line must hold exactly ts, level,
// tenant, user, device, sent and msg, whatever the device id contained.
std::vector<std::string> json_keys(const std::string& line) {
    std::vector<std::string> keys;
    for (std::size_t pos = 0; (pos = line.find("\":", pos)) != std::string::npos; ++pos) {
        const std::size_t open = line.rfind('"', pos - 1);
        if (open != std::string::npos && (line[open - 1] == '{' || line[open - 1] == ',')) {
            keys.push_back(line.substr(open + 1, pos - open - 1));
        }
    }
    return keys;
}

TEST(json_formatter, a_hostile_device_id_stays_one_field_on_one_line) {
    for (const auto& device : hostile_values()) {
        const std::string line = log_json(session_line(device));
        EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
        EXPECT_EQ(json_keys(line), (std::vector<std::string>{"ts", "level", "tenant", "user", "device", "sent", "msg"}))
            << line;
        EXPECT_NE(line.find("\"user\":\"alice\""), std::string::npos) << line;
        EXPECT_NE(line.find("\"msg\":\"session end\"}"), std::string::npos) << line;
    }
    std::string expected = "\"device\":";
    append_json_string(expected, "IMEI:2\n{\"level\":\"error\",\"msg\":\"forged\"}");
    EXPECT_NE(log_json(session_line(hostile_values()[1])).find(expected), std::string::npos);
    EXPECT_NE(log_json(session_line("IMEI:1 user=admin")).find("\"device\":\"IMEI:1 user=admin\""), std::string::npos);
}

TEST(json_formatter, a_quoted_error_text_in_the_message_forges_no_field) {
    const std::string line =
        log_json("sync: database error tenant=acme: " + persistence::log_value("ERROR: x user=admin\nDETAIL: y"));
    EXPECT_EQ(json_keys(line), (std::vector<std::string>{"ts", "level", "tenant", "msg"})) << line;
    EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
}

TEST(json_formatter, writes_valid_utf8_for_bytes_that_are_not) {
    const std::string line = log_json("device=" + persistence::log_value("a\xff\xc3\xa9\xe2\x80\xa8") + " raw\xfe");
    EXPECT_NE(line.find("\"device\":\"a\\\\xff\xc3\xa9\\u2028\""), std::string::npos) << line;
    EXPECT_NE(line.find("raw\\\\xfe"), std::string::npos) << line;
}

std::string log_text(const std::string& message) {
    std::ostringstream out;
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out);
    spdlog::logger logger("test", sink);
    logger.set_formatter(std::make_unique<text_formatter>());
    logger.warn("{}", message);
    return out.str();
}

TEST(text_formatter, a_hostile_device_id_stays_one_quoted_value_on_one_line) {
    for (const auto& device : hostile_values()) {
        const std::string line = log_text(session_line(device));
        EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
        EXPECT_EQ(line.find('\r'), std::string::npos) << line;
        const std::string value = persistence::log_value(device);
        EXPECT_TRUE(line.ends_with(" session end tenant=acme user=alice device=" + value + " sent=3\n")) << line;
        // A value with a space or quote is quoted, and its first unescaped quote after the opening one is its end.
        if (device.find_first_of(" \"") != std::string::npos) {
            ASSERT_EQ(value.front(), '"') << value;
            std::size_t close = 1;
            while (value[close] != '"') close += value[close] == '\\' ? 2 : 1;
            EXPECT_EQ(close, value.size() - 1) << value;
        }
    }
    EXPECT_NE(log_text(session_line("IMEI:1 user=admin")).find("device=\"IMEI:1 user=admin\" sent=3"),
              std::string::npos);
    EXPECT_NE(log_text(session_line("IMEI:3\" user=\"admin")).find("device=\"IMEI:3\\\" user=\\\"admin\" sent=3"),
              std::string::npos);
    EXPECT_NE(log_text(session_line("IMEI:7")).find("device=IMEI:7 sent=3"), std::string::npos);
}

TEST(text_formatter, escapes_line_breaks_a_caller_did_not_wrap) {
    const std::string line = log_text("database unreachable: could not connect\n\tIs the server running?");
    EXPECT_NE(line.find("could not connect\\n\\tIs the server running?\n"), std::string::npos) << line;
    EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
}

TEST(log_value, leaves_plain_words_alone_and_quotes_the_rest) {
    EXPECT_EQ(persistence::log_value("IMEI:3546-01/x"), "IMEI:3546-01/x");
    EXPECT_EQ(persistence::log_value(""), "\"\"");
    EXPECT_EQ(persistence::log_value("a=b"), "\"a=b\"");
    EXPECT_EQ(persistence::log_value("J\xc3\xbcrgen"), "\"J\xc3\xbcrgen\"");
    EXPECT_EQ(persistence::log_value("a\\b\"c\n\x01\x7f"), "\"a\\\\b\\\"c\\n\\u0001\\u007f\"");
}

}  // namespace
}  // namespace syncml::server
