#include "common/text/closest_word.hpp"

#include <gtest/gtest.h>

namespace syncml::common {
namespace {

TEST(edit_distance, counts_inserts_deletes_replacements_and_swapped_neighbours_as_one_edit) {
    EXPECT_EQ(edit_distance("", ""), 0u);
    EXPECT_EQ(edit_distance("abc", ""), 3u);
    EXPECT_EQ(edit_distance("", "ab"), 2u);
    EXPECT_EQ(edit_distance("DATABSE", "DATABASE"), 1u);
    EXPECT_EQ(edit_distance("DATABASE_ULR", "DATABASE_URL"), 1u);
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
    EXPECT_EQ(edit_distance("Listen", "listen"), 1u);
}

TEST(closest_word, suggests_the_nearest_candidate_within_a_typo_distance) {
    const std::vector<std::string> env = {"SYNCML_DATA_DIR", "SYNCML_DATABASE_URL", "SYNCML_LISTEN"};
    EXPECT_EQ(closest_word("SYNCML_DATABSE_URL", env), "SYNCML_DATABASE_URL");
    EXPECT_EQ(closest_word("SYNCML_DATABASE_ULR", env), "SYNCML_DATABASE_URL");
    EXPECT_EQ(closest_word("syncml_listen", env), "SYNCML_LISTEN");
    EXPECT_EQ(closest_word("SYNCML_LISTEN", env), std::nullopt);
    EXPECT_EQ(closest_word("SYNCML_LISTNE", env), "SYNCML_LISTEN");
    EXPECT_EQ(closest_word("SYNCML_SOMETHING_ELSE", env), std::nullopt);
    const std::vector<std::string> commands = {"serve", "migrate", "admin", "backup", "restore"};
    EXPECT_EQ(closest_word("serv", commands), "serve");
    EXPECT_EQ(closest_word("amdin", commands), "admin");
    EXPECT_EQ(closest_word("restor", commands), "restore");
    EXPECT_EQ(closest_word("frobnicate", commands), std::nullopt);
    EXPECT_EQ(closest_word("x", commands), std::nullopt);
    EXPECT_EQ(closest_word("anything", {}), std::nullopt);
}

}  // namespace
}  // namespace syncml::common
