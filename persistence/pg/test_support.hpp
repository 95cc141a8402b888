#pragma once
// Test-only helpers for persistence tests against a real PostgreSQL (SYNCML_TEST_DATABASE_URL).
// Each test gets its own schema through the connection's search_path, so tests neither see nor
// disturb each other's tables and may migrate from scratch in a shared database.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "persistence/pg/database.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/migrations.hpp"

namespace syncml::persistence::testing {

inline std::optional<std::string> test_database_url() {
    const char* url = std::getenv("SYNCML_TEST_DATABASE_URL");
    if (!url || !*url) return std::nullopt;
    return std::string(url);
}

// Adds "search_path=<schema>" to a libpq URL or key=value connection string.
inline std::string with_search_path(const std::string& url, const std::string& schema) {
    if (url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return url + (url.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema;
    }
    return url + " options='-csearch_path=" + schema + "'";
}

class scratch_schema {
  public:
    explicit scratch_schema(const std::string& base_url) : base_url_(base_url) {
        static std::atomic<int> counter{0};
        name_ = "test_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
        database db(base_url_);
        in_transaction(db, [&](pqxx::work& tx) {
            tx.exec("DROP SCHEMA IF EXISTS " + name_ + " CASCADE");
            tx.exec("CREATE SCHEMA " + name_);
        });
        url_ = with_search_path(base_url_, name_);
    }
    ~scratch_schema() {
        try {
            database db(base_url_);
            in_transaction(db, [&](pqxx::work& tx) { tx.exec("DROP SCHEMA IF EXISTS " + name_ + " CASCADE"); });
        } catch (const std::exception&) {
            // A test that stopped the server leaves the schema behind: the database is throw-away.
        }
    }
    scratch_schema(const scratch_schema&) = delete;
    scratch_schema& operator=(const scratch_schema&) = delete;

    const std::string& url() const { return url_; }
    const std::string& name() const { return name_; }

  private:
    std::string base_url_;
    std::string name_;
    std::string url_;
};

// Fixture: skips without SYNCML_TEST_DATABASE_URL, else provides an empty schema and its URL.
class database_test : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto base = test_database_url();
        if (!base) GTEST_SKIP() << "SYNCML_TEST_DATABASE_URL is not set; skipping a PostgreSQL test";
        schema_ = std::make_unique<scratch_schema>(*base);
    }
    const std::string& url() const { return schema_->url(); }
    const std::string& schema() const { return schema_->name(); }

  private:
    std::unique_ptr<scratch_schema> schema_;
};

// Fixture: database_test with the schema migrated and a database handle on it.
class migrated_database_test : public database_test {
  protected:
    void SetUp() override {
        database_test::SetUp();
        if (IsSkipped()) return;
        db_ = std::make_unique<database>(url());
        apply_migrations(*db_);
    }

    std::unique_ptr<database> db_;
};

}  // namespace syncml::persistence::testing
