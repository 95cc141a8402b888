#include "common/files/operator_file.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

namespace syncml::common {
namespace {

namespace fs = std::filesystem;

// A private directory of the test's own, removed with what it holds.
class operator_file_test : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "operator-file-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
    }
    void TearDown() override {
        std::error_code ignored;
        fs::permissions(dir_, fs::perms::owner_all, ignored);
        fs::remove_all(dir_, ignored);
    }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    static void put(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
    static std::string contents(const std::string& path) {
        std::ifstream in(path);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }
    // The names in the directory, to see that nothing was left behind.
    std::vector<std::string> names(const fs::path& dir) const {
        std::vector<std::string> found;
        for (const auto& entry : fs::directory_iterator(dir)) found.push_back(entry.path().filename().string());
        std::sort(found.begin(), found.end());
        return found;
    }
    // The refusal's message, or "" when nothing was refused.
    template <class Action>
    static std::string refusal_of(Action action) {
        try {
            action();
        } catch (const file_refused& e) {
            return e.what();
        }
        return "";
    }

    fs::path dir_;
};

TEST_F(operator_file_test, reads_a_regular_file) {
    put(path("in.csv"), "tenant,user,password\n");
    EXPECT_EQ(read_input_file(path("in.csv")), "tenant,user,password\n");
}

TEST_F(operator_file_test, refuses_to_read_through_a_symbolic_link) {
    put(path("secret.key"), "secret");
    fs::create_symlink(path("secret.key"), path("contacts.vcf"));
    EXPECT_EQ(refusal_of([&] { read_input_file(path("contacts.vcf")); }),
              path("contacts.vcf") + ": is a symbolic link (links are not followed; name the file itself)");
}

TEST_F(operator_file_test, refuses_to_read_a_fifo_without_waiting_for_a_writer) {
    ASSERT_EQ(::mkfifo(path("pipe").c_str(), 0600), 0);
    EXPECT_EQ(refusal_of([&] { read_input_file(path("pipe")); }), path("pipe") + ": is a fifo, not a regular file");
}

TEST_F(operator_file_test, refuses_to_read_a_directory_or_a_missing_file) {
    EXPECT_EQ(refusal_of([&] { read_input_file(dir_.string()); }),
              dir_.string() + ": is a directory, not a regular file");
    EXPECT_EQ(refusal_of([&] { read_input_file(path("none")); }),
              path("none") + ": cannot open it: No such file or directory");
}

TEST_F(operator_file_test, lists_an_input_directory_but_not_through_a_link) {
    fs::create_directory(path("memos"));
    put(path("memos/0002.txt"), "b");
    put(path("memos/0001.txt"), "a");
    EXPECT_EQ(input_directory_names(path("memos")), (std::vector<std::string>{"0001.txt", "0002.txt"}));
    EXPECT_TRUE(input_directory_names(path("none")).empty());
    fs::create_directory_symlink(path("memos"), path("linked"));
    EXPECT_EQ(refusal_of([&] { input_directory_names(path("linked")); }),
              path("linked") + ": is a symbolic link (links are not followed; name the directory itself)");
}

TEST_F(operator_file_test, gives_a_child_process_a_name_of_the_checked_file) {
    put(path("backup"), "dump");
    const input_file file(path("backup"));
    fs::remove(path("backup"));
    put(path("backup"), "swapped");
    EXPECT_EQ(contents(file.name_for_child()), "dump");
}

TEST_F(operator_file_test, writes_an_output_file_with_mode_0600_and_nothing_else) {
    ::umask(022);
    write_output_file(path("backup.dump"), "data");
    EXPECT_EQ(contents(path("backup.dump")), "data");
    EXPECT_EQ(fs::status(path("backup.dump")).permissions(), fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_EQ(names(dir_), std::vector<std::string>{"backup.dump"});
}

TEST_F(operator_file_test, leaves_nothing_behind_without_commit) {
    {
        output_file file(path("backup.dump"));
        file.write("half");
        EXPECT_TRUE(fs::exists(file.temporary_path()));
    }
    EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(operator_file_test, never_reuses_an_existing_partial_file) {
    put(path("backup.dump.partial"), "planted");
    fs::permissions(path("backup.dump.partial"), fs::perms::all);
    output_file file(path("backup.dump"));
    EXPECT_NE(file.temporary_path(), path("backup.dump.partial"));
    file.write("data");
    file.commit();
    EXPECT_EQ(contents(path("backup.dump.partial")), "planted");
    EXPECT_EQ(contents(path("backup.dump")), "data");
}

TEST_F(operator_file_test, refuses_a_symbolic_link_as_target_and_leaves_its_file_alone) {
    put(path("app.password"), "root's");
    fs::create_symlink(path("app.password"), path("out.vcf"));
    EXPECT_EQ(refusal_of([&] { write_output_file(path("out.vcf"), "data"); }),
              path("out.vcf") + ": exists and is a symbolic link; remove it or choose a new name");
    EXPECT_EQ(contents(path("app.password")), "root's");
    EXPECT_EQ(names(dir_), (std::vector<std::string>{"app.password", "out.vcf"}));
}

TEST_F(operator_file_test, replaces_a_regular_file_in_a_private_directory) {
    put(path("backup.dump"), "old");
    write_output_file(path("backup.dump"), "new");
    EXPECT_EQ(contents(path("backup.dump")), "new");
}

TEST_F(operator_file_test, refuses_a_directory_writable_by_others_without_the_sticky_bit) {
    fs::permissions(dir_, fs::perms::all);
    EXPECT_EQ(refusal_of([&] { write_output_file(path("out"), "data"); }),
              path("out") + ": its directory " + dir_.string() +
                  " is writable by group or others without the sticky bit; write into a directory of your own");
    fs::permissions(dir_, fs::perms::owner_all | fs::perms::group_all);
    EXPECT_NE(refusal_of([&] { write_output_file(path("out"), "data"); }), "");
    EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(operator_file_test, writes_a_new_file_into_a_sticky_shared_directory_but_replaces_none) {
    fs::permissions(dir_, fs::perms::all | fs::perms::sticky_bit);
    write_output_file(path("new.dump"), "data");
    EXPECT_EQ(contents(path("new.dump")), "data");
    EXPECT_EQ(refusal_of([&] { write_output_file(path("new.dump"), "again"); }),
              path("new.dump") + ": exists already in a directory others may write to; choose a new name");
    EXPECT_EQ(contents(path("new.dump")), "data");
}

TEST_F(operator_file_test, refuses_a_directory_of_another_user) {
    if (::geteuid() != 0) GTEST_SKIP() << "only root can give a directory to another user";
    ASSERT_EQ(::chown(dir_.c_str(), 65534, 65534), 0);
    EXPECT_EQ(refusal_of([&] { write_output_file(path("out"), "data"); }),
              path("out") + ": its directory " + dir_.string() +
                  " belongs to another user (uid 65534); write into a directory of your own");
    EXPECT_NE(refusal_of([&] { make_output_directory(path("export")); }), "");
    EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(operator_file_test, refuses_a_target_naming_no_file) {
    EXPECT_EQ(refusal_of([&] { write_output_file(dir_.string() + "/", "data"); }),
              dir_.string() + "/: names no file (it ends in a directory)");
}

TEST_F(operator_file_test, makes_an_output_directory_and_its_missing_parents_private) {
    make_output_directory(path("a/b/export"));
    EXPECT_TRUE(fs::is_directory(path("a/b/export")));
    EXPECT_EQ(fs::status(path("a/b/export")).permissions() & (fs::perms::group_all | fs::perms::others_all),
              fs::perms::none);
    make_output_directory(path("a/b/export"));  // an existing directory of our own is fine
}

TEST_F(operator_file_test, refuses_a_symbolic_link_as_output_directory) {
    fs::create_directory(path("elsewhere"));
    fs::create_directory_symlink(path("elsewhere"), path("export"));
    EXPECT_EQ(refusal_of([&] { make_output_directory(path("export")); }),
              path("export") + ": exists and is a symbolic link, not a directory of its own");
    put(path("file"), "");
    EXPECT_EQ(refusal_of([&] { make_output_directory(path("file")); }),
              path("file") + ": exists and is a regular file, not a directory of its own");
}

}  // namespace
}  // namespace syncml::common
