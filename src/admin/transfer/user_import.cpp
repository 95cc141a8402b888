#include "src/admin/transfer/user_import.hpp"

#include <algorithm>
#include <cctype>
#include <istream>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "common/files/operator_file.hpp"
#include "common/log/log_value.hpp"
#include "common/text/ascii_case.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/password_hash.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::server {
namespace {

// The fields of one line; nullopt for an unterminated quote or text after a closing one.
std::optional<std::vector<std::string>> split_csv(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    bool was_quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c != '"') {
                fields.back() += c;
            } else if (i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else {
                quoted = false;
            }
        } else if (c == ',') {
            fields.emplace_back();
            was_quoted = false;
        } else if (c == '"' && fields.back().empty() && !was_quoted) {
            quoted = was_quoted = true;
        } else if (was_quoted) {
            return std::nullopt;
        } else {
            fields.back() += c;
        }
    }
    if (quoted) return std::nullopt;
    return fields;
}

bool is_header(const std::vector<std::string>& fields) {
    if (fields.size() != 3 || common::to_lower(fields[0]) != "tenant" || common::to_lower(fields[1]) != "user")
        return false;
    const auto third = common::to_lower(fields[2]);
    return third == "password" || third == "hash" || third == "password-or-hash";
}

csv_user user_of(int line, const std::string& text) {
    csv_user user;
    user.line = line;
    const auto fields = split_csv(text);
    if (!fields) {
        user.error = "unbalanced quotes";
    } else if (fields->size() != 3) {
        user.error = "expected 3 columns (tenant,user,password-or-hash), got " + std::to_string(fields->size());
    } else if ((*fields)[0].empty() || (*fields)[1].empty() || (*fields)[2].empty()) {
        user.error = "empty tenant, user or password";
    } else {
        user.tenant = (*fields)[0];
        user.user = (*fields)[1];
        user.secret = (*fields)[2];
    }
    return user;
}

// "added", "skipped: ..." or "failed: ..." for one readable line; nothing is written for a failed one (each add is
// one transaction).
std::string add_one(persistence::database& db, const csv_user& u, const persistence::secret_key* md5_key,
                    import_counts& counts) {
    try {
        if (persistence::is_password_hash(u.secret)) {
            persistence::add_user_with_hash(db, u.tenant, u.user, u.secret);
        } else {
            persistence::add_user(db, u.tenant, u.user, u.secret, md5_key);
        }
        ++counts.added;
        return "added";
    } catch (const persistence::already_exists&) {
        ++counts.skipped;
        return "skipped: exists already";
    } catch (const persistence::not_found& e) {
        ++counts.failed;
        return std::string("failed: ") + e.what();
    } catch (const std::invalid_argument& e) {
        ++counts.failed;
        return std::string("failed: ") + e.what();
    } catch (const persistence::db_error& e) {
        ++counts.failed;
        return std::string("failed: database error: ") + e.what();
    }
}

}  // namespace

std::vector<csv_user> read_user_csv(std::istream& in) {
    std::vector<csv_user> users;
    std::string text;
    int line = 0;
    bool header_seen = false;
    while (std::getline(in, text)) {
        ++line;
        if (!text.empty() && text.back() == '\r') text.pop_back();
        if (line == 1 && text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);  // a spreadsheet's UTF-8 mark
        if (!header_seen) {
            const auto fields = split_csv(text);
            if (!fields || !is_header(*fields)) {
                throw std::invalid_argument("line 1 must be the header tenant,user,password (a password or a hash)");
            }
            header_seen = true;
            continue;
        }
        if (text.find_first_not_of(" \t") == std::string::npos) continue;
        users.push_back(user_of(line, text));
    }
    if (!header_seen) throw std::invalid_argument("empty file: expected the header tenant,user,password");
    return users;
}

import_counts import_users(persistence::database& db, const std::string& file, std::ostream& out,
                           const persistence::secret_key* md5_key) {
    std::istringstream in(common::read_input_file(file));
    const auto users = read_user_csv(in);
    import_counts counts;
    for (const auto& u : users) {
        out << "line " << u.line << ": ";
        if (!u.error.empty()) {
            ++counts.failed;
            out << "failed: " << common::printable_text(u.error) << "\n";
            continue;
        }
        out << common::printable_text(u.tenant) << "/" << common::printable_text(u.user) << " "
            << add_one(db, u, md5_key, counts) << "\n";
    }
    out << file << ": " << counts.added << " added, " << counts.skipped << " skipped (exist already), " << counts.failed
        << " failed\n";
    return counts;
}

}  // namespace syncml::server
