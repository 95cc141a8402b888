#pragma once
// For src/ tests against the test database: a tenant of the test's own (a unique name, so tests may run side by
// side), created with the settings given, with user ann, and deleted with everything it owns at the end. Skips
// without SYNCML_TEST_DATABASE_URL.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/migrations.hpp"

namespace syncml::server::testing {

class own_tenant_test : public ::testing::Test {
  protected:
    // `prefix` names the tenant ("window-test-<pid>-<n>").
    void open_tenant(const std::string& prefix, const persistence::tenant_settings& settings = {}) {
        const char* url = std::getenv("SYNCML_TEST_DATABASE_URL");
        if (url == nullptr || *url == '\0') GTEST_SKIP() << "SYNCML_TEST_DATABASE_URL not set";
        db_ = std::make_unique<persistence::database>(url);
        persistence::apply_migrations(*db_);
        static int counter = 0;
        tenant_ = prefix + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
        persistence::add_tenant(*db_, tenant_, settings);
        ann_ = persistence::add_user(*db_, tenant_, "ann", "pw");
    }
    void TearDown() override {
        if (db_) persistence::delete_tenant(*db_, tenant_, true);
    }

    std::unique_ptr<persistence::database> db_;
    std::string tenant_;
    persistence::user_info ann_;
};

}  // namespace syncml::server::testing
