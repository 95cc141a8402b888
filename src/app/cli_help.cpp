#include "src/app/cli.hpp"

// The help texts of syncml-server: an overview with every setting, and each command's own.

#include <string>
#include <utility>
#include <vector>

#include "src/admin/common/tenant_options.hpp"
#include "src/config/config.hpp"
#include "src/telemetry/build_info.hpp"

namespace syncml::server {
namespace {

const char* k_usage = "usage: syncml-server [--config FILE] [--print-config] [--help] [--version] [COMMAND [ARGS]]\n";

std::string overview() {
    return std::string(k_usage) +
           "\n"
           "A multi-tenant SyncML (OMA DS 1.1/1.2.1) server.\n"
           "\n"
           "commands (syncml-server COMMAND --help prints the command's own help):\n"
           "  serve (default)   run the server (SyncML, DAV, metrics and the admin API)\n"
           "  migrate           apply pending schema migrations and exit\n"
           "  backup            the database and its secret key into files\n"
           "  restore           a backup (and its key) back into place\n"
           "  admin             tenants, users, devices, sessions, admin API tokens and the audit log\n"
           "\n"
           "options:\n"
           "  --config FILE     read settings from FILE: lines 'key = value', '#' starts a comment line;\n"
           "                    environment variables override the file\n"
           "  --print-config    print the effective configuration (secrets masked) and exit\n"
           "  --help            this text, or after a command the command's own\n"
           "  --version         print the version and the revision it was built from, and exit\n"
           "\n"
           "Without a database URL, the server (and migrate/admin/backup/restore) run an embedded PostgreSQL in\n"
           "<data_dir>/pgdata; the commands reuse the cluster of a server running on the same data dir.\n"
           "\n"
           "settings (config key, environment variable, default):\n" +
           config_help() +
           "\n"
           "exit status: 0 success, 1 failure (message on stderr), 2 bad command line or configuration\n";
}

std::string serve_help() {
    return "usage: syncml-server [--config FILE] [serve]\n"
           "\n"
           "Runs the server: the HTTP(S) SyncML and DAV listener, the metrics listener (/metrics, /healthz,\n"
           "/readyz) and, when admin_listen is set, the admin API. Applies pending migrations at start-up.\n"
           "SIGTERM/SIGINT drain in-flight requests and exit 0; SIGHUP reloads the TLS certificate.\n"
           "Settings: environment variables or --config FILE; syncml-server --help lists them all.\n";
}

std::string migrate_help() {
    return "usage: syncml-server [--config FILE] migrate [--distributed]\n"
           "\n"
           "Applies pending schema migrations and exits (serve applies them too). On a database with the citus\n"
           "extension the schema is distributed (persistence/DISTRIBUTED.md); --distributed creates the extension\n"
           "first and fails when the database cannot have it.\n";
}

std::string backup_help() {
    return "usage: syncml-server [--config FILE] backup --out FILE [--no-key]\n"
           "\n"
           "Writes the whole database into FILE (pg_dump custom format, mode 0600) and the secret key that\n"
           "seals the md5 secrets into FILE.key (mode 0600): a restore on a new machine needs both. --no-key\n"
           "leaves the key out (keep it yourself). With the embedded database it works while the server runs.\n";
}

std::string restore_help() {
    return "usage: syncml-server [--config FILE] restore FILE [--key KEYFILE] [--replace-key]\n"
           "\n"
           "Replaces the database's contents with a backup (stop the server first), all or nothing: a damaged\n"
           "file or a failed restore changes nothing. Then migrates it to this version's schema.\n"
           "The backup's secret key (FILE.key, or KEYFILE) goes where this configuration keeps its key\n"
           "(secret_key_file, else <data_dir>/secret.key); another key there refuses the restore unless\n"
           "--replace-key (the other key is kept as secret.key.replaced-<time>). Exits 1 naming the key the\n"
           "restored md5 secrets still need when the server would not start with the one it has.\n";
}

std::string tenant_usage() {
    return "  admin tenant list | tenant show NAME | tenant delete NAME --yes [--force]   (--force: also when it\n"
           "                    still has users)\n"
           "  admin tenant add NAME [OPTIONS] | tenant set NAME OPTIONS   (set changes only the options given)\n" +
           tenant_options_usage("                        ");
}

std::string user_usage() {
    return "  admin user add --tenant T --user U [--password-file FILE]\n"
           "                    reads the password from the first line of FILE, else from one line of stdin;\n"
           "                    --password P still works but shows P to ps and the shell history\n"
           "  admin user set-password --tenant T --user U [--password-file FILE]   (new password, read the same\n"
           "                    way; `user password` is the same command)\n"
           "  admin user list --tenant T | user show --tenant T --user U   (show: items per datastore, devices,\n"
           "                    last sync)\n"
           "  admin user import FILE.csv   (header tenant,user,password; then one user per line, a password or a\n"
           "                    hash as the server stores it; reports each line; existing users are skipped)\n"
           "  admin user export --tenant T --user U --out DIR   (contacts.vcf, calendar.ics, tasks.ics, memos/*.txt)\n"
           "  admin user import --tenant T --user U --in DIR    (the same files, added as new items: devices get\n"
           "                    them at their next sync)\n"
           "  admin user disable|enable --tenant T --user U       (a disabled user cannot log in; sessions end)\n"
           "  admin user delete --tenant T --user U --yes         (with its data and devices)\n";
}

std::string device_usage() {
    return "  admin device list --tenant T --user U | device show --tenant T --user U --device ID\n"
           "  admin device reset --tenant T --device ID          (forces a slow sync next time)\n"
           "  admin device delete --tenant T --user U --device ID --yes   (the user's items stay)\n"
           "  admin device window --tenant T --user U --device ID [--window-past-days N] [--window-future-days N]\n"
           "                    [--window-max-items N] [--window-max-photo-bytes N] [--inherit]   (the device's\n"
           "                    own sync window, or with --inherit its tenant's again; no option: shows it)\n"
           "  admin device push --tenant T --user U --device ID [--phone +E164|none] [--server-password P |\n"
           "                    --server-password-file F] [--server-nonce N] [--datastores contacts,calendar|all]\n"
           "                    [--quiet-hours HH:MM-HH:MM|none] [--time-zone ZONE] [--off]   (server-alerted sync:\n"
           "                    opts the device in, or out with --off; no option: shows it and its last "
           "notification)\n"
           "  admin device collection --tenant T --user U --device ID [--datastore contacts|calendar|tasks|memos\n"
           "                    (--collection NAME | --default)]   (the user's collection each datastore of the\n"
           "                    device syncs; a new one gives that datastore a slow sync; no option: shows them)\n";
}

std::string session_usage() {
    return "  admin session list --tenant T [--user U]           (live sessions: id, SessionID, user, device,\n"
           "                    started, last message, messages)\n"
           "  admin session kill --tenant T --session ID --yes   (ends it; the device's next message starts anew)\n";
}

std::string token_usage() {
    return "  admin token create --name N (--tenant T | --all) | token list | token delete --name N --yes\n"
           "                    (bearer tokens of the admin API, SYNCML_ADMIN_LISTEN; create prints the token once)\n"
           "  admin audit list [--tenant T] [--limit N]   (changes made by the admin API and commands, newest first)\n";
}

// `admin --help`: every admin command; `admin user --help`: the user commands only.
std::string admin_help(const std::vector<std::string>& words) {
    const std::vector<std::pair<const char*, std::string (*)()>> sections = {
        {"tenant", tenant_usage},   {"user", user_usage},   {"device", device_usage},
        {"session", session_usage}, {"token", token_usage}, {"audit", token_usage}};
    std::string body;
    for (const auto& [noun, text] : sections) {
        if (!words.empty() && words.front() == noun) body = text();
    }
    if (body.empty()) {
        for (const auto& [noun, text] : sections) {
            if (std::string(noun) != "audit") body += text();
        }
    }
    return "usage: syncml-server [--config FILE] admin SUBJECT ACTION [OPTIONS]\n"
           "\n"
           "Changes and shows accounts in the database (the embedded one, or database_url).\n"
           "\n" +
           body +
           "  list and show commands take --json (a JSON array, a JSON object)\n"
           "  admin exit status: 0 done, 1 refused or failed (not found, exists already, invalid, database error,\n"
           "                    schema behind this version's: run migrate, or newer and not backward\n"
           "                    compatible), 2 usage error\n";
}

}  // namespace

std::string usage_text() { return overview(); }

std::string help_text(const cli_options& options) {
    if (!options.command_given) return overview();
    if (options.command == "serve") return serve_help();
    if (options.command == "migrate") return migrate_help();
    if (options.command == "backup") return backup_help();
    if (options.command == "restore") return restore_help();
    return admin_help(options.words);
}

std::string version_text() {
    return std::string("syncml-server ") + build_version() + " (revision " + build_revision() + ")\n";
}

}  // namespace syncml::server
