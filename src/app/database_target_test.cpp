#include "src/app/database_target.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>

#include <filesystem>
#include <stdexcept>

namespace syncml::server {
namespace {

// SYNCML_REQUIRE_DATABASE_URL (issue 39): where an external database is expected, a missing URL (a mistyped
// variable let through with SYNCML_ALLOW_UNKNOWN) must not become an empty embedded database.
TEST(database_target, refuses_an_embedded_database_when_a_url_is_required) {
    spdlog::logger log{"test", std::make_shared<spdlog::sinks::null_sink_mt>()};
    const auto dir = std::filesystem::temp_directory_path() / "syncml-require-url-test";
    std::filesystem::remove_all(dir);
    database_config config;
    config.data_dir = dir.string();
    config.require_url = true;
    try {
        database_target target(config, process_role::server, log);
        FAIL() << "an embedded database was started";
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("SYNCML_DATABASE_URL"), std::string::npos) << message;
        EXPECT_NE(message.find("require_database_url"), std::string::npos) << message;
    }
    EXPECT_FALSE(std::filesystem::exists(dir)) << "nothing is created in the data directory";
}

}  // namespace
}  // namespace syncml::server
