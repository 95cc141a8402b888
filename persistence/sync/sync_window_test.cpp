#include "persistence/sync/sync_window.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

class sync_window_test : public testing::migrated_database_test {
  protected:
    database& db() { return *db_; }

    void add_device(std::string_view tenant, std::string_view user, const std::string& uri) {
        const auto owner = find_user(db(), tenant, user).value();
        in_transaction(db(), [&](pqxx::work& tx) {
            tx.exec_params0("INSERT INTO devices (tenant_id, user_id, device_uri) VALUES ($1, $2, $3)", owner.tenant_id,
                            owner.id, uri);
        });
    }
};

TEST_F(sync_window_test, a_tenants_window_is_stored_with_its_settings_and_can_be_changed) {
    tenant_settings settings;
    settings.window = sync_window{30, 365, 0, 20000};
    EXPECT_EQ(add_tenant(db(), "acme", settings).settings.window, settings.window);
    EXPECT_EQ(find_tenant(db(), "acme")->settings.window, settings.window);
    EXPECT_TRUE(add_tenant(db(), "plain").settings.window.unlimited());

    settings.window.past_days = 7;
    EXPECT_EQ(update_tenant(db(), "acme", settings).settings.window.past_days, 7);
    EXPECT_EQ(list_tenants(db()).at(0).settings.window, (sync_window{7, 365, 0, 20000}));

    settings.window.max_items = -1;
    EXPECT_THROW(update_tenant(db(), "acme", settings), std::invalid_argument);
    EXPECT_EQ(find_tenant(db(), "acme")->settings.window.max_items, 0) << "a refused update changes nothing";
}

TEST_F(sync_window_test, a_device_gets_a_window_of_its_own_and_gives_it_back) {
    add_tenant(db(), "acme");
    add_user(db(), "acme", "ann", "pw");
    add_user(db(), "acme", "bob", "pw");
    add_device("acme", "ann", "IMEI:1");
    add_device("acme", "bob", "IMEI:1");

    EXPECT_EQ(device_window(db(), "acme", "ann", "IMEI:1"), std::nullopt) << "the tenant's applies";
    set_device_window(db(), "acme", "ann", "IMEI:1", sync_window{14, 90, 300, 0});
    EXPECT_EQ(device_window(db(), "acme", "ann", "IMEI:1"), (sync_window{14, 90, 300, 0}));
    EXPECT_EQ(device_window(db(), "acme", "bob", "IMEI:1"), std::nullopt) << "another user's device of that id";

    set_device_window(db(), "acme", "ann", "IMEI:1", std::nullopt);
    EXPECT_EQ(device_window(db(), "acme", "ann", "IMEI:1"), std::nullopt);

    EXPECT_THROW(set_device_window(db(), "acme", "ann", "IMEI:1", sync_window{-1, 0, 0, 0}), std::invalid_argument);
    EXPECT_THROW(set_device_window(db(), "acme", "ann", "IMEI:2", sync_window{}), not_found);
    EXPECT_THROW(device_window(db(), "acme", "carl", "IMEI:1"), not_found);
    EXPECT_THROW(device_window(db(), "other", "ann", "IMEI:1"), not_found);
}

TEST(sync_window, describes_every_field) {
    EXPECT_EQ(describe_window(sync_window{30, 365, 0, 20000}, " "),
              "past-days=30 future-days=365 max-items=0 max-photo-bytes=20000");
    EXPECT_TRUE(sync_window{}.unlimited());
    EXPECT_FALSE((sync_window{0, 0, 1, 0}.unlimited()));
}

}  // namespace
}  // namespace syncml::persistence
