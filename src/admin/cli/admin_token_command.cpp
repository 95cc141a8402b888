#include "src/admin/cli/admin_token_command.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <ostream>
#include <stdexcept>
#include <utility>

#include "common/log/log_value.hpp"
#include "persistence/accounts/admin_tokens.hpp"
#include "persistence/pg/errors.hpp"
#include "src/admin/cli/admin_command.hpp"
#include "src/admin/common/admin_json.hpp"

namespace syncml::server {
namespace {

struct token_syntax {
    const char* noun;
    const char* verb;
    token_request::verb action;
    const char* usage;
    std::vector<const char*> options;  // flags end without a value
};

const std::vector<token_syntax>& syntax() {
    static const std::vector<token_syntax> table = {
        {"token",
         "create",
         token_request::verb::create,
         "admin token create --name NAME (--tenant T | --all)",
         {"--name", "--tenant", "--all"}},
        {"token", "list", token_request::verb::list, "admin token list [--json]", {"--json"}},
        {"token", "delete", token_request::verb::remove, "admin token delete --name NAME --yes", {"--name", "--yes"}},
        {"audit",
         "list",
         token_request::verb::audit,
         "admin audit list [--tenant T] [--limit N] [--json]",
         {"--tenant", "--limit", "--json"}},
    };
    return table;
}

bool is_flag(const std::string& option) { return option == "--all" || option == "--yes" || option == "--json"; }

std::string parse_limit(const std::string& text, int& limit) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), limit);
    if (ec != std::errc{} || end != text.data() + text.size() || limit < 1 || limit > 10000) {
        return "--limit '" + text + "' (expected 1 to 10000)";
    }
    return {};
}

std::string read_options(const token_syntax& s, const std::vector<std::string>& words, token_request& r) {
    std::map<std::string, bool> seen;
    for (std::size_t i = 2; i < words.size(); ++i) {
        const std::string& word = words[i];
        const bool known = std::find(s.options.begin(), s.options.end(), word) != s.options.end();
        if (!known || seen[word]) return "unexpected '" + word + "'; usage: " + s.usage;
        seen[word] = true;
        if (is_flag(word)) {
            (word == "--all" ? r.all_tenants : word == "--yes" ? r.yes : r.json) = true;
            continue;
        }
        if (i + 1 == words.size()) return word + " needs a value; usage: " + s.usage;
        const std::string& value = words[++i];
        if (word == "--name") r.name = value;
        if (word == "--tenant") r.tenant = value;
        if (word == "--limit") {
            if (auto error = parse_limit(value, r.limit); !error.empty()) return error;
        }
    }
    const bool named = s.action == token_request::verb::create || s.action == token_request::verb::remove;
    if (named && r.name.empty()) return std::string("missing --name; usage: ") + s.usage;
    if (s.action == token_request::verb::create && r.all_tenants == !r.tenant.empty()) {
        return std::string("give either --tenant T (a token for one tenant) or --all; usage: ") + s.usage;
    }
    if (s.action == token_request::verb::remove && !r.yes) {
        return std::string(
                   "scripts using this token stop working; repeat the command with --yes to go ahead; usage: ") +
               s.usage;
    }
    return {};
}

void execute(const token_request& r, persistence::database& db, std::ostream& out) {
    switch (r.action) {
        case token_request::verb::create: {
            const std::optional<std::string_view> tenant =
                r.all_tenants ? std::nullopt : std::optional<std::string_view>(r.tenant);
            // The token alone on stdout, for scripts; it cannot be shown again.
            out << persistence::create_admin_token(db, r.name, tenant) << "\n";
            break;
        }
        case token_request::verb::list:
            if (r.json) {
                out << tokens_json(persistence::list_admin_tokens(db));
                break;
            }
            for (const auto& t : persistence::list_admin_tokens(db)) {
                out << common::printable_text(t.name) << "\ttenant=" << common::printable_text(t.tenant.value_or("*"))
                    << "\tcreated=" << t.created_at << "\tlast_used=" << t.last_used_at.value_or("never") << "\n";
            }
            break;
        case token_request::verb::remove:
            persistence::delete_admin_token(db, r.name);
            out << "token " << r.name << " deleted\n";
            break;
        case token_request::verb::audit:
            if (r.json) {
                out << audit_json(persistence::list_audit(db, r.tenant, r.limit));
                break;
            }
            for (const auto& a : persistence::list_audit(db, r.tenant, r.limit)) {
                out << a.at << "\t" << common::printable_text(a.entry.actor) << "\t"
                    << common::printable_text(a.entry.action)
                    << "\ttenant=" << common::printable_text(a.entry.tenant.empty() ? "-" : a.entry.tenant)
                    << "\ttarget=" << common::printable_text(a.entry.target.empty() ? "-" : a.entry.target) << "\t"
                    << common::printable_text(a.entry.result) << "\n";
            }
            break;
    }
}

std::string target_of(const admin_request& r) {
    if (!r.device.empty()) return r.device;
    if (!r.session.empty()) return "session " + r.session;
    return r.user;
}

// The audit action of each command that changes something; list, show and export only read.
constexpr std::pair<admin_action, const char*> k_audited_actions[] = {
    {admin_action::tenant_add, "tenant.create"},    {admin_action::tenant_set, "tenant.update"},
    {admin_action::tenant_delete, "tenant.delete"}, {admin_action::user_add, "user.create"},
    {admin_action::user_password, "user.password"}, {admin_action::user_delete, "user.delete"},
    {admin_action::user_disable, "user.disable"},   {admin_action::user_enable, "user.enable"},
    {admin_action::device_reset, "device.reset"},   {admin_action::device_delete, "device.delete"},
    {admin_action::device_window, "device.window"}, {admin_action::session_kill, "session.kill"},
    {admin_action::user_import, "user.import"},     {admin_action::user_import_items, "user.import_items"},
    {admin_action::device_push, "device.push"},
};

const char* audit_action_of(const admin_request& r) {
    if (r.action == admin_action::device_window && r.tenant_options.empty() && !r.inherit) {
        return nullptr;  // shows the window only
    }
    if (r.action == admin_action::device_push && r.tenant_options.empty() && !r.off) return nullptr;
    for (const auto& [action, name] : k_audited_actions) {
        if (action == r.action) return name;
    }
    return nullptr;
}

}  // namespace

bool is_token_command(const std::vector<std::string>& words) {
    return !words.empty() && (words[0] == "token" || words[0] == "audit");
}

token_parse_result parse_token_command(const std::vector<std::string>& words) {
    token_parse_result result;
    for (const auto& s : syntax()) {
        if (words.size() >= 2 && words[0] == s.noun && words[1] == s.verb) {
            result.request.action = s.action;
            result.error = read_options(s, words, result.request);
            return result;
        }
    }
    result.error = "unknown admin command '" + words[0] + (words.size() > 1 ? " " + words[1] : "") +
                   "'; usage: admin token create|list|delete, admin audit list";
    return result;
}

int run_token_command(const token_request& request, persistence::database& db, std::ostream& out, std::ostream& err) {
    const bool changes = request.action == token_request::verb::create || request.action == token_request::verb::remove;
    const std::string result = run_reporting_failure([&] { execute(request, db, out); }, err) ? "ok" : "failed";
    if (changes) {
        const char* action = request.action == token_request::verb::create ? "token.create" : "token.delete";
        // Without the database nothing changed and nothing can be recorded.
        try {
            persistence::record_audit(db, {.actor = "cli",
                                           .action = action,
                                           .tenant = request.tenant,
                                           .target = "token " + request.name,
                                           .result = result});
        } catch (const persistence::db_error&) {
        }
    }
    return result == "ok" ? 0 : 1;
}

std::optional<persistence::audit_entry> cli_audit_entry(const admin_request& r, int status) {
    const char* action = audit_action_of(r);
    if (action == nullptr) return std::nullopt;
    const std::string target = r.action == admin_action::user_import ? r.file : target_of(r);
    return persistence::audit_entry{.actor = "cli",
                                    .action = action,
                                    .tenant = r.tenant,
                                    .target = target,
                                    .result = status == 0 ? "ok" : "failed"};
}

}  // namespace syncml::server
