#pragma once
// `syncml-server admin token ...` (bearer tokens of the HTTP admin API) and `admin audit list` (the audit log of
// admin actions), plus the audit record of a CLI admin command that changes something.

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "persistence/accounts/admin_audit.hpp"
#include "src/admin/cli/admin_command.hpp"

namespace syncml::persistence {
class database;
}

namespace syncml::server {

// Whether the words after `admin` start a token or audit command.
bool is_token_command(const std::vector<std::string>& words);

struct token_request {
    enum class verb { create, list, remove, audit } action = verb::list;
    std::string name;
    std::string tenant;
    bool all_tenants = false;
    bool yes = false;
    bool json = false;
    int limit = 100;  // audit list
};

struct token_parse_result {
    token_request request;
    std::string error;  // usage error; empty when fine
};

// admin token create --name NAME (--tenant T | --all) | token list [--json] | token delete --name NAME --yes |
// audit list [--tenant T] [--limit N] [--json]
token_parse_result parse_token_command(const std::vector<std::string>& words);

// Carries out the request, like run_admin: results to out, one clear message to err; returns the exit status.
int run_token_command(const token_request& request, persistence::database& db, std::ostream& out, std::ostream& err);

// The audit entry of an admin CLI command that changes something and ended with `status`; nullopt for commands
// that only read.
std::optional<persistence::audit_entry> cli_audit_entry(const admin_request& request, int status);

}  // namespace syncml::server
