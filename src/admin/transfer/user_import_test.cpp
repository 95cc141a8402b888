#include "src/admin/transfer/user_import.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

namespace syncml::server {
namespace {

std::vector<csv_user> read(const std::string& text) {
    std::istringstream in(text);
    return read_user_csv(in);
}

TEST(user_csv, reads_quoted_fields_and_names_each_bad_line_with_its_number) {
    const auto users = read(
        "\xEF\xBB\xBFtenant,user,password\r\n"
        "acme,bob,s3cret\r\n"
        "\n"
        "acme,\"smith, jr\",\"pa\"\"ss\"\n"
        "acme,carol\n"
        "acme,\"dave,pw\n"
        "acme,,pw\n");
    ASSERT_EQ(users.size(), 5u);
    EXPECT_EQ(users[0].line, 2);
    EXPECT_EQ(users[0].user, "bob");
    EXPECT_EQ(users[0].secret, "s3cret");
    EXPECT_EQ(users[1].line, 4);
    EXPECT_EQ(users[1].user, "smith, jr");
    EXPECT_EQ(users[1].secret, "pa\"ss");
    EXPECT_EQ(users[2].line, 5);
    EXPECT_NE(users[2].error.find("expected 3 columns"), std::string::npos);
    EXPECT_EQ(users[3].error, "unbalanced quotes");
    EXPECT_EQ(users[4].error, "empty tenant, user or password");
    EXPECT_TRUE(users[4].tenant.empty());
}

TEST(user_csv, refuses_a_file_without_its_header_before_reading_any_user) {
    EXPECT_THROW(read("acme,bob,pw\n"), std::invalid_argument);
    EXPECT_THROW(read(""), std::invalid_argument);
    EXPECT_TRUE(read("Tenant,User,Password-or-hash\n").empty());
}

}  // namespace
}  // namespace syncml::server
