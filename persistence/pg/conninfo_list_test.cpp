#include "persistence/pg/conninfo_list.hpp"

#include <gtest/gtest.h>

namespace syncml::persistence {
namespace {

using list = std::vector<std::string>;

TEST(split_conninfo_list, names_each_url_of_a_white_space_separated_list) {
    EXPECT_EQ(split_conninfo_list(""), list{});
    EXPECT_EQ(split_conninfo_list("  "), list{});
    EXPECT_EQ(split_conninfo_list("postgresql://a/db"), list{"postgresql://a/db"});
    EXPECT_EQ(split_conninfo_list(" postgresql://a:5432/db\n\tpostgres://u:p@b:6432/db  "),
              (list{"postgresql://a:5432/db", "postgres://u:p@b:6432/db"}));
    EXPECT_EQ(split_conninfo_list("postgresql://a,b:6432/db postgresql://c/db"),
              (list{"postgresql://a,b:6432/db", "postgresql://c/db"}))
        << "a libpq multi-host URL stays one target";
}

TEST(split_conninfo_list, keeps_a_keyword_value_conninfo_whole) {
    EXPECT_EQ(split_conninfo_list("host=/tmp dbname=syncml"), list{"host=/tmp dbname=syncml"});
    EXPECT_EQ(split_conninfo_list("postgresql://a/db host=b"), list{"postgresql://a/db host=b"})
        << "not every word a URL: libpq decides what it means";
}

TEST(mask_conninfo_list, masks_the_password_of_every_target) {
    const auto masked = mask_conninfo_list("postgresql://u:secret1@a/db postgresql://u:secret2@b/db");
    EXPECT_EQ(masked.find("secret1"), std::string::npos) << masked;
    EXPECT_EQ(masked.find("secret2"), std::string::npos) << masked;
    EXPECT_NE(masked.find("@a/db "), std::string::npos) << masked;
    EXPECT_NE(masked.find("@b/db"), std::string::npos) << masked;
    const auto keywords = mask_conninfo_list("host=a password=secret3 dbname=db");
    EXPECT_EQ(keywords.find("secret3"), std::string::npos) << keywords;
}

}  // namespace
}  // namespace syncml::persistence
