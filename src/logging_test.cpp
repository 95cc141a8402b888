#include "src/logging.hpp"

#include <gtest/gtest.h>

#include <spdlog/sinks/ostream_sink.h>

#include <sstream>

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
    const std::string line = log_json("readiness ready=false reason=\"server at \"db\" down\" tenant=x");
    EXPECT_NE(line.find("\"reason\":\"server at \\\"db\\\" down\""), std::string::npos) << line;
    EXPECT_NE(line.find("\"tenant\":\"x\""), std::string::npos) << line;
    EXPECT_NE(line.find("\"msg\":\"readiness\""), std::string::npos) << line;
}

}  // namespace
}  // namespace syncml::server
