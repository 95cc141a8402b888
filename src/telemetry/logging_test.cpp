#include "src/telemetry/logging.hpp"

#include <gtest/gtest.h>

#include <spdlog/sinks/ostream_sink.h>

#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "common/log/log_event.hpp"
#include "common/log/log_value.hpp"

namespace syncml::server {
namespace {

// The keys of a JSON line as the JSON formatter wrote them, in order.
std::vector<std::string> json_keys_of(const std::string& line) {
    std::vector<std::string> keys;
    for (std::size_t pos = 0; (pos = line.find("\":", pos)) != std::string::npos; ++pos) {
        const std::size_t open = line.rfind('"', pos - 1);
        if (open != std::string::npos && (line[open - 1] == '{' || line[open - 1] == ',')) {
            keys.push_back(line.substr(open + 1, pos - open - 1));
        }
    }
    return keys;
}

using common::log_field;

// Writes through a logger with the given formatter: either one log_event, or a plain line (no fields).
template <class Formatter>
std::string log_with(const std::function<void(spdlog::logger&)>& write) {
    std::ostringstream out;
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out);
    spdlog::logger logger("test", sink);
    logger.set_formatter(std::make_unique<Formatter>());
    write(logger);
    return out.str();
}

std::string json_event(std::string_view message, std::initializer_list<log_field> fields) {
    return log_with<json_formatter>(
        [&](spdlog::logger& l) { common::log_event(l, spdlog::level::warn, message, fields); });
}

std::string json_plain(const std::string& message) {
    return log_with<json_formatter>([&](spdlog::logger& l) { l.warn("{}", message); });
}

std::string text_event(std::string_view message, std::initializer_list<log_field> fields) {
    return log_with<text_formatter>(
        [&](spdlog::logger& l) { common::log_event(l, spdlog::level::warn, message, fields); });
}

std::string text_plain(const std::string& message) {
    return log_with<text_formatter>([&](spdlog::logger& l) { l.warn("{}", message); });
}

TEST(json_formatter, writes_the_fields_of_an_event_with_their_types) {
    const std::string line = json_event(
        "request",
        {{"tenant", "acme"}, {"remote", "10.0.0.1:5000"}, {"status", 200}, {"duration_ms", 1.25, 2}, {"ready", false}});
    EXPECT_NE(line.find("\"level\":\"warning\""), std::string::npos) << line;
    EXPECT_NE(line.find("\"tenant\":\"acme\",\"remote\":\"10.0.0.1:5000\",\"status\":200,\"duration_ms\":1.25,"
                        "\"ready\":false,\"msg\":\"request\"}"),
              std::string::npos)
        << line;
    EXPECT_EQ(line.back(), '\n');
    EXPECT_EQ(line.find('\n'), line.size() - 1);
}

TEST(json_formatter, a_line_without_fields_is_only_a_message_however_it_looks) {
    // Nothing is parsed back out of text: `key=value` words in a plain line are part of its message.
    const std::string line = json_plain("database unreachable: user=admin tenant=\"x\"");
    EXPECT_EQ(json_keys_of(line), (std::vector<std::string>{"ts", "level", "msg"})) << line;
    EXPECT_NE(line.find("\"msg\":\"database unreachable: user=admin tenant=\\\"x\\\"\"}"), std::string::npos) << line;
}

TEST(json_formatter, a_number_that_is_not_finite_becomes_a_string) {
    const std::string line = json_event("x", {{"ratio", std::numeric_limits<double>::infinity()}});
    EXPECT_NE(line.find("\"ratio\":\"inf\""), std::string::npos) << line;
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

std::string session_json(const std::string& device) {
    return json_event("session end", {{"tenant", "acme"}, {"user", "alice"}, {"device", device}, {"sent", 3}});
}

TEST(json_formatter, a_hostile_device_id_stays_one_field_on_one_line) {
    for (const auto& device : hostile_values()) {
        const std::string line = session_json(device);
        EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
        EXPECT_EQ(json_keys_of(line),
                  (std::vector<std::string>{"ts", "level", "tenant", "user", "device", "sent", "msg"}))
            << line;
        EXPECT_NE(line.find("\"user\":\"alice\""), std::string::npos) << line;
        EXPECT_NE(line.find("\"msg\":\"session end\"}"), std::string::npos) << line;
    }
    std::string expected = "\"device\":";
    append_json_string(expected, "IMEI:2\n{\"level\":\"error\",\"msg\":\"forged\"}");
    EXPECT_NE(session_json(hostile_values()[1]).find(expected), std::string::npos);
    EXPECT_NE(session_json("IMEI:1 user=admin").find("\"device\":\"IMEI:1 user=admin\""), std::string::npos);
}

TEST(json_formatter, writes_valid_utf8_for_bytes_that_are_not) {
    const std::string line = json_event("x \xfe", {{"device", "a\xff\xc3\xa9\xe2\x80\xa8"}});
    EXPECT_NE(line.find("\"device\":\"a\\\\xff\xc3\xa9\\u2028\""), std::string::npos) << line;
    EXPECT_NE(line.find("\"msg\":\"x \\\\xfe\""), std::string::npos) << line;
}

TEST(log_context, adds_its_fields_to_every_event_until_it_ends) {
    std::string inside, nested, after;
    {
        common::log_context session({{"tenant", "acme"}, {"remote", "192.0.2.7"}});
        session.add({"session", "12"});
        inside = json_event("conflict", {{"guid", "g1"}});
        {
            common::log_context user({{"user", "alice"}, {"tenant", "shadowed"}});
            nested = json_event("merge", {{"remote", "own"}});
        }
    }
    after = json_event("request", {});
    EXPECT_NE(inside.find("\"guid\":\"g1\",\"tenant\":\"acme\",\"remote\":\"192.0.2.7\",\"session\":\"12\",\"msg\""),
              std::string::npos)
        << inside;
    // The event's own field wins over a context's; the innermost context comes first.
    EXPECT_EQ(json_keys_of(nested),
              (std::vector<std::string>{"ts", "level", "remote", "user", "tenant", "session", "msg"}))
        << nested;
    EXPECT_NE(nested.find("\"remote\":\"own\""), std::string::npos) << nested;
    EXPECT_NE(nested.find("\"tenant\":\"shadowed\""), std::string::npos) << nested;
    EXPECT_EQ(json_keys_of(after), (std::vector<std::string>{"ts", "level", "msg"})) << after;
}

TEST(log_event, writes_nothing_below_the_logger_level) {
    const std::string line = log_with<json_formatter>([](spdlog::logger& l) {
        l.set_level(spdlog::level::info);
        common::log_event(l, spdlog::level::debug, "merge", {{"guid", "g"}});
    });
    EXPECT_TRUE(line.empty()) << line;
}

TEST(text_formatter, a_hostile_device_id_stays_one_quoted_value_on_one_line) {
    for (const auto& device : hostile_values()) {
        const std::string line =
            text_event("session end", {{"tenant", "acme"}, {"user", "alice"}, {"device", device}, {"sent", 3}});
        EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
        EXPECT_EQ(line.find('\r'), std::string::npos) << line;
        const std::string value = common::log_value(device);
        EXPECT_TRUE(line.ends_with(" session end tenant=acme user=alice device=" + value + " sent=3\n")) << line;
        // A value with a space or quote is quoted, and its first unescaped quote after the opening one is its end.
        if (device.find_first_of(" \"") != std::string::npos) {
            ASSERT_EQ(value.front(), '"') << value;
            std::size_t close = 1;
            while (value[close] != '"') close += value[close] == '\\' ? 2 : 1;
            EXPECT_EQ(close, value.size() - 1) << value;
        }
    }
    EXPECT_NE(
        text_event("x", {{"device", "IMEI:1 user=admin"}, {"sent", 3}}).find("device=\"IMEI:1 user=admin\" sent=3"),
        std::string::npos);
    EXPECT_NE(text_event("x", {{"device", "IMEI:7"}}).find("x device=IMEI:7\n"), std::string::npos);
}

TEST(text_formatter, escapes_line_breaks_a_caller_did_not_wrap) {
    const std::string line = text_plain("database unreachable: could not connect\n\tIs the server running?");
    EXPECT_NE(line.find("could not connect\\n\\tIs the server running?\n"), std::string::npos) << line;
    EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
}

TEST(log_value, leaves_plain_words_alone_and_quotes_the_rest) {
    EXPECT_EQ(common::log_value("IMEI:3546-01/x"), "IMEI:3546-01/x");
    EXPECT_EQ(common::log_value(""), "\"\"");
    EXPECT_EQ(common::log_value("a=b"), "\"a=b\"");
    EXPECT_EQ(common::log_value("J\xc3\xbcrgen"), "\"J\xc3\xbcrgen\"");
    EXPECT_EQ(common::log_value("a\\b\"c\n\x01\x7f"), "\"a\\\\b\\\"c\\n\\u0001\\u007f\"");
}

}  // namespace
}  // namespace syncml::server
