#include "src/admin/transfer/user_transfer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include "common/files/operator_file.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/migrations.hpp"
#include "persistence/pg/test_query.hpp"
#include "persistence/sync/sync_store.hpp"
#include "src/admin/cli/own_tenant_test_support.hpp"

namespace syncml::server {
namespace {

namespace fs = std::filesystem;

std::string vcard(const std::string& uid, const std::string& name) {
    return "BEGIN:VCARD\r\nVERSION:3.0\r\n" + (uid.empty() ? "" : "UID:" + uid + "\r\n") + "FN:" + name +
           "\r\nN:" + name + ";;;;\r\nEND:VCARD\r\n";
}

const std::string event =
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:ev-1\r\nDTSTAMP:20261201T080000Z\r\n"
    "DTSTART:20261210T090000Z\r\nSUMMARY:Standup\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

// A user of a tenant of its own in the test database, and a directory for its files; both go at the end.
class user_transfer_db : public testing::own_tenant_test {
  protected:
    void SetUp() override {
        open_tenant("xfer-test");
        if (IsSkipped()) return;
        dir_ = fs::temp_directory_path() / tenant_;
        fs::create_directories(dir_ / "memos");
    }
    void TearDown() override {
        own_tenant_test::TearDown();
        if (!dir_.empty()) fs::remove_all(dir_);
    }

    void write(const std::string& name, const std::string& text) {
        std::ofstream(dir_ / name, std::ios::binary) << text;
    }
    transfer_counts import() { return import_user(*db_, tenant_, "ann", dir_.string()); }
    std::string sql(const std::string& query) { return persistence::query_value(*db_, query); }
    // Live items of the user's datastore `kind`.
    std::string live(const std::string& kind) {
        return sql(
            "SELECT count(*) FROM items i JOIN datastores ds USING (tenant_id, datastore_id) JOIN tenants t "
            "USING (tenant_id) WHERE t.name = '" +
            tenant_ + "' AND ds.kind = '" + kind + "' AND NOT i.deleted");
    }

    fs::path dir_;
};

TEST_F(user_transfer_db, importing_the_same_files_twice_adds_nothing_the_second_time) {
    write("contacts.vcf", vcard("c-1", "Ada Lovelace") + vcard("c-2", "Alan Turing") + vcard("", "No Uid"));
    write("calendar.ics", event);
    write("memos/0001.txt", "Shopping: milk");
    const auto first = import();
    EXPECT_EQ(first.imported.added, 5);
    EXPECT_EQ(first.imported.unchanged, 0);
    const auto second = import();
    EXPECT_EQ(second.contacts, 3) << "the files were read again";
    EXPECT_EQ(second.imported.added, 0);
    EXPECT_EQ(second.imported.updated, 0);
    EXPECT_EQ(second.imported.unchanged, 5);
    EXPECT_EQ(live("contacts"), "3");
    EXPECT_EQ(live("calendar"), "1");
    EXPECT_EQ(live("memos"), "1");
}

TEST_F(user_transfer_db, a_changed_item_of_the_same_uid_replaces_the_stored_one_as_a_change_devices_receive) {
    write("contacts.vcf", vcard("c-1", "Ada Lovelace") + vcard("c-2", "Alan Turing"));
    import();
    const std::string item_of_c1 =
        "SELECT guid || ' ' || modseq FROM items i JOIN item_match_keys k USING (tenant_id, "
        "item_id) JOIN tenants t USING (tenant_id) WHERE t.name = '" +
        tenant_ + "' AND k.match_key = 'uid:c-1' AND NOT i.deleted";
    const auto before = sql(item_of_c1);
    // A phone that holds both items at their current modseq.
    std::int64_t phone = 0;
    std::int64_t seen = 0;
    const auto ids = persistence::require_user(*db_, tenant_, "ann");
    ASSERT_TRUE(persistence::run_sync_transaction(*db_, [&](persistence::sync_store& s) {
        const auto ds = s.datastore(ids.tenant, ids.user, common::item_kind::contact);
        phone = s.device_store(ids.tenant, s.device(ids.tenant, ids.user, "phone").id, ds, "./contacts").id;
        seen = s.current_modseq(ids.tenant, ds);
        for (const auto& c : s.changes(ids.tenant, phone, 0, seen, false)) {
            s.set_mapping(ids.tenant, phone, "luid-" + c.guid, c.guid, c.modseq);
        }
    }));

    write("contacts.vcf", vcard("c-1", "Ada King") + vcard("c-2", "Alan Turing"));
    const auto counts = import();
    EXPECT_EQ(counts.imported.added, 0);
    EXPECT_EQ(counts.imported.updated, 1);
    EXPECT_EQ(counts.imported.unchanged, 1);
    EXPECT_EQ(live("contacts"), "2");
    const auto after = sql(item_of_c1);
    EXPECT_EQ(after.substr(0, after.find(' ')), before.substr(0, before.find(' '))) << "the same item (GUID)";
    EXPECT_NE(sql("SELECT content FROM items WHERE guid::text = '" + after.substr(0, after.find(' ')) + "'")
                  .find("FN:Ada King"),
              std::string::npos);
    std::vector<persistence::change_record> changes;
    ASSERT_TRUE(persistence::run_sync_transaction(*db_, [&](persistence::sync_store& s) {
        changes = s.changes(ids.tenant, phone, seen,
                            s.current_modseq(ids.tenant, s.datastore(ids.tenant, ids.user, common::item_kind::contact)),
                            true);
    }));
    ASSERT_EQ(changes.size(), 1u) << "the phone's next sync sends the replaced item, and only it";
    EXPECT_EQ(changes[0].guid, after.substr(0, after.find(' ')));
    EXPECT_EQ(changes[0].luid, "luid-" + changes[0].guid) << "as a Replace of the phone's copy";
}

TEST_F(user_transfer_db, of_two_items_of_one_uid_in_one_import_the_later_one_is_stored) {
    write("contacts.vcf", vcard("c-1", "Ada Lovelace") + vcard("c-1", "Ada King"));
    const auto counts = import();
    EXPECT_EQ(counts.imported.added, 1);
    EXPECT_EQ(counts.imported.updated, 1);
    EXPECT_EQ(live("contacts"), "1");
    EXPECT_EQ(sql("SELECT count(*) FROM items i JOIN tenants t USING (tenant_id) WHERE t.name = '" + tenant_ +
                  "' AND i.content LIKE '%FN:Ada King%'"),
              "1");
}

TEST_F(user_transfer_db, items_that_do_not_parse_or_belong_elsewhere_are_rejected_with_their_reason) {
    std::string nested;  // deeper than the codecs read
    for (int i = 0; i < 20; ++i) nested = "BEGIN:VCARD\r\n" + nested + "END:VCARD\r\n";
    write("contacts.vcf", vcard("c-1", "Ada Lovelace") + nested);
    write("tasks.ics", event);
    const auto counts = import();
    EXPECT_EQ(counts.imported.added, 1);
    ASSERT_EQ(counts.rejected.size(), 2u);
    EXPECT_TRUE(counts.rejected[0].starts_with("contacts.vcf item 2: line 17: vCards nested deeper"))
        << counts.rejected[0];
    EXPECT_EQ(counts.rejected[1], "tasks.ics item 1: not a to-do (VTODO)");
    EXPECT_EQ(live("contacts"), "1");
    EXPECT_EQ(live("tasks"), "0");
}

TEST_F(user_transfer_db, an_import_beyond_the_quota_counts_only_new_items) {
    write("contacts.vcf", vcard("c-1", "Ada Lovelace") + vcard("c-2", "Alan Turing"));
    import();
    auto settings = persistence::find_tenant(*db_, tenant_)->settings;
    settings.max_items_per_datastore = 2;
    persistence::update_tenant(*db_, tenant_, settings);
    write("contacts.vcf", vcard("c-1", "Ada King") + vcard("c-2", "Alan Turing"));
    EXPECT_EQ(import().imported.updated, 1) << "a replacement adds no item";
    write("contacts.vcf", vcard("c-1", "Ada King") + vcard("c-3", "Grace Hopper"));
    EXPECT_THROW(import(), import_quota_exceeded);
    EXPECT_EQ(live("contacts"), "2");
}

TEST_F(user_transfer_db, an_import_beyond_the_users_storage_quota_imports_nothing) {
    write("contacts.vcf", vcard("c-1", "Ada Lovelace"));
    import();
    const auto held =
        std::stoll(sql("SELECT sum(ds.stored_bytes) FROM datastores ds JOIN tenants t USING (tenant_id) "
                       "WHERE t.name = '" +
                       tenant_ + "'"));
    auto settings = persistence::find_tenant(*db_, tenant_)->settings;
    settings.max_user_bytes = held + 10;
    persistence::update_tenant(*db_, tenant_, settings);
    write("contacts.vcf", vcard("c-1", "Ada Lovelace") + vcard("c-2", "Alan Turing"));
    EXPECT_THROW(import(), import_quota_exceeded);
    EXPECT_EQ(live("contacts"), "1");
    write("contacts.vcf", vcard("c-1", "Ada"));
    EXPECT_EQ(import().imported.updated, 1) << "an import that shrinks the user's items passes";
}

// A link planted in the import directory once imported the server's app.password as a user's items (issue 35).
TEST_F(user_transfer_db, an_import_through_a_planted_link_is_refused_and_imports_nothing) {
    const fs::path secret = dir_.string() + "-secret";
    std::ofstream(secret) << vcard("", "server secret");
    write("calendar.ics", event);
    fs::create_symlink(secret, dir_ / "contacts.vcf");
    EXPECT_THROW(import(), common::file_refused);
    fs::remove(dir_ / "contacts.vcf");
    fs::create_symlink(secret, dir_ / "memos" / "0001.txt");
    EXPECT_THROW(import(), common::file_refused);
    fs::remove(dir_ / "memos" / "0001.txt");
    fs::remove(dir_ / "memos");
    fs::create_directory_symlink(dir_.string() + "-elsewhere", dir_ / "memos");
    fs::create_directory(dir_.string() + "-elsewhere");
    EXPECT_THROW(import(), common::file_refused);
    EXPECT_EQ(live("contacts"), "0");
    EXPECT_EQ(live("calendar"), "0");
    fs::remove(secret);
    fs::remove(dir_.string() + "-elsewhere");
}

// An export that followed a planted link wrote into someone else's directory (issue 35).
TEST_F(user_transfer_db, an_export_into_a_planted_link_is_refused_and_writes_nothing) {
    const fs::path elsewhere = dir_.string() + "-elsewhere";
    fs::create_directory(elsewhere);
    fs::create_directory_symlink(elsewhere, dir_ / "export");
    EXPECT_THROW(export_user(*db_, tenant_, "ann", (dir_ / "export").string()), common::file_refused);
    EXPECT_TRUE(fs::is_empty(elsewhere));
    fs::remove(elsewhere);
}

}  // namespace
}  // namespace syncml::server
