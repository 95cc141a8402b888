#pragma once
// `admin user import FILE.csv`: bulk provisioning. The file has a header line, then one user per line: tenant, user,
// and a password or a hash in the stored form (persistence/accounts/password_hash.hpp), RFC 4180 quoting allowed. Each
// line is its own transaction, so a failed line writes nothing and never stops the others; every line gets a line of
// the report.

#include <iosfwd>
#include <string>
#include <vector>

namespace syncml::persistence {
class database;
class secret_key;
}  // namespace syncml::persistence

namespace syncml::server {

struct csv_user {
    int line = 0;  // 1-based, the header is line 1
    std::string tenant;
    std::string user;
    std::string secret;  // a password, or a hash in the stored form
    std::string error;   // why the line cannot be read; the other fields are then empty
};

// The lines after the header, blank lines left out. std::invalid_argument when the first line is no header
// "tenant,user,password" (the name of the third column may be "password", "hash" or "password-or-hash").
std::vector<csv_user> read_user_csv(std::istream& in);

struct import_counts {
    int added = 0;
    int skipped = 0;  // the user exists already (left as it is)
    int failed = 0;
};

// Adds the users of the file, reporting each line on out and a summary at the end.
import_counts import_users(persistence::database& db, const std::string& file, std::ostream& out,
                           const persistence::secret_key* md5_key);

}  // namespace syncml::server
