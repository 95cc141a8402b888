#include "persistence/pg/conninfo_mask.hpp"

#include <gtest/gtest.h>

namespace syncml::persistence {
namespace {

// Each form of a password libpq accepts, with what --print-config should show.
TEST(conninfo_mask, hides_the_password_in_every_form_libpq_reads) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"postgresql://syncml:s3cret@db:5432/syncml?sslmode=require",
         "postgresql://syncml:***@db:5432/syncml?sslmode=require"},
        {"postgres://u:p%40ss%3Aw0rd@db/x", "postgres://u:***@db/x"},
        {"postgresql://db/x?user=u&password=s3cret&sslmode=disable",
         "postgresql://db/x?user=u&password=***&sslmode=disable"},
        {"postgresql://db/x?pass%77ord=s3cret", "postgresql://db/x?pass%77ord=***"},
        {"postgresql://u:a@db,db2:5433/x?%70assword=s3cret&sslpassword=k3y",
         "postgresql://u:***@db,db2:5433/x?%70assword=***&sslpassword=***"},
        {"host=db password=s3cret user=x", "host=db password=*** user=x"},
        {"host=db password = 's3 cr\\'et' user=x", "host=db password = *** user=x"},
        {"host=db\tpassword=s3\\ cret dbname=x", "host=db\tpassword=*** dbname=x"},
        {"host=db sslpassword=s3cret", "host=db sslpassword=***"},
        {"postgresql://user@db/x", "postgresql://user@db/x"},
        {"host=db user=x", "host=db user=x"},
        {"", ""},
    };
    for (const auto& [conninfo, masked] : cases) {
        EXPECT_EQ(mask_conninfo_password(conninfo), masked) << conninfo;
        EXPECT_EQ(mask_conninfo_password(conninfo).find("s3"), std::string::npos) << conninfo;
    }
}

TEST(conninfo_mask, prints_nothing_of_a_string_libpq_cannot_parse) {
    EXPECT_EQ(mask_conninfo_password("host=db password='s3cret"), "***");
    EXPECT_EQ(mask_conninfo_password("postgresql://u:s3cret@db/x?nosuchoption=1"), "***");
}

TEST(conninfo_mask, keeps_every_other_option_libpq_reads) {
    const std::string masked = mask_conninfo_password("host=db port=5433 password=s3cret application_name='a b'");
    EXPECT_EQ(masked, "host=db port=5433 password=*** application_name='a b'");
}

}  // namespace
}  // namespace syncml::persistence
