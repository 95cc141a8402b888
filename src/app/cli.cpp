#include "src/app/cli.hpp"

#include "src/admin/common/tenant_options.hpp"
#include "src/config/config.hpp"

namespace syncml::server {

cli_options parse_cli(const std::vector<std::string>& args) {
    cli_options options;
    bool have_command = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--help" || arg == "-h") {
            options.help = true;
        } else if (arg == "--version") {
            options.version = true;
        } else if (arg == "--print-config") {
            options.print_config = true;
        } else if (arg == "--config") {
            if (i + 1 == args.size()) {
                options.error = "--config needs a file name";
                return options;
            }
            options.config_file = args[++i];
        } else if (arg.starts_with("--config=")) {
            options.config_file = arg.substr(9);
        } else if (have_command) {
            options.words.push_back(arg);
        } else if (arg == "serve" || arg == "migrate" || arg == "admin" || arg == "backup" || arg == "restore") {
            options.command = arg;
            have_command = true;
        } else {
            options.error = "unknown command or option '" + arg + "' (see --help)";
            return options;
        }
    }
    if (options.command == "migrate" && options.words == std::vector<std::string>{"--distributed"}) {
        options.distributed = true;
        options.words.clear();
    }
    const bool takes_words = options.command == "admin" || options.command == "backup" || options.command == "restore";
    if (!takes_words && !options.words.empty()) {
        options.error = options.command + " takes no arguments, got '" + options.words.front() + "'";
    }
    return options;
}

namespace {

std::string commands_usage() {
    return "usage: syncml-server [--config FILE] [--print-config] [--help] [--version] [COMMAND]\n"
           "\n"
           "A multi-tenant SyncML (OMA DS 1.1/1.2.1) server.\n"
           "\n"
           "commands:\n"
           "  serve (default)   run the server: HTTP(S) SyncML listener plus metrics listener; applies pending\n"
           "                    migrations at start-up; SIGTERM/SIGINT drain in-flight requests and exit 0\n"
           "  migrate [--distributed]   apply pending schema migrations and exit; on a database with the citus\n"
           "                    extension the schema is distributed (persistence/DISTRIBUTED.md); --distributed\n"
           "                    creates the extension first and fails when the database cannot have it\n"
           "  backup --out FILE the whole database into FILE (pg_dump custom format, mode 0600)\n"
           "  restore FILE      replace the database's contents with a backup (stop the server first), all or\n"
           "                    nothing (a damaged file or a failed restore changes nothing), then migrate it\n"
           "                    to this version's schema\n";
}

std::string tenant_and_user_usage() {
    return "  admin tenant list | tenant show NAME | tenant delete NAME --yes [--force]   (--force: also when it\n"
           "                    still has users)\n"
           "  admin tenant add NAME [OPTIONS] | tenant set NAME OPTIONS   (set changes only the options given)\n" +
           tenant_options_usage("                        ") +
           "  admin user add --tenant T --user U [--password-file FILE]\n"
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

std::string device_session_and_token_usage() {
    return "  admin device list --tenant T --user U | device show --tenant T --user U --device ID\n"
           "  admin device reset --tenant T --device ID          (forces a slow sync next time)\n"
           "  admin device delete --tenant T --user U --device ID --yes   (the user's items stay)\n"
           "  admin device window --tenant T --user U --device ID [--window-past-days N] [--window-future-days N]\n"
           "                    [--window-max-items N] [--window-max-photo-bytes N] [--inherit]   (the device's\n"
           "                    own sync window, or with --inherit its tenant's again; no option: shows it)\n"
           "  admin device push --tenant T --user U --device ID [--phone +E164|none] [--server-password P |\n"
           "                    --server-password-file F] [--server-nonce N] [--datastores contacts,calendar|all]\n"
           "                    [--quiet-hours HH:MM-HH:MM|none] [--time-zone ZONE] [--off]   (server-alerted sync:\n"
           "                    opts the device in, or out with --off; no option: shows it and its last notification)\n"
           "  admin device collection --tenant T --user U --device ID [--datastore contacts|calendar|tasks|memos\n"
           "                    (--collection NAME | --default)]   (the user's collection each datastore of the\n"
           "                    device syncs; a new one gives that datastore a slow sync; no option: shows them)\n"
           "  admin session list --tenant T [--user U]           (live sessions: id, SessionID, user, device,\n"
           "                    started, last message, messages)\n"
           "  admin session kill --tenant T --session ID --yes   (ends it; the device's next message starts anew)\n"
           "  admin token create --name N (--tenant T | --all) | token list | token delete --name N --yes\n"
           "                    (bearer tokens of the admin API, SYNCML_ADMIN_LISTEN; create prints the token once)\n"
           "  admin audit list [--tenant T] [--limit N]   (changes made by the admin API and commands, newest first)\n"
           "  list and show commands take --json (a JSON array, a JSON object)\n"
           "  admin exit status: 0 done, 1 refused or failed (not found, exists already, invalid, database error,\n"
           "                    schema behind this version's: run migrate, or newer and not backward\n"
           "                    compatible), 2 usage error\n";
}

std::string options_and_settings_usage() {
    return "\n"
           "options:\n"
           "  --config FILE     read settings from FILE: lines 'key = value', '#' starts a comment line;\n"
           "                    environment variables override the file\n"
           "  --print-config    print the effective configuration (secrets masked) and exit\n"
           "  --help            this text\n"
           "  --version         print the version and exit\n"
           "\n"
           "Without a database URL, the server (and migrate/admin) run an embedded PostgreSQL in\n"
           "<data_dir>/pgdata; migrate/admin reuse the cluster of a server running on the same data dir.\n"
           "\n"
           "settings (config key, environment variable, default):\n" +
           config_help() +
           "\n"
           "exit status: 0 success, 1 failure (message on stderr), 2 bad command line or configuration\n";
}

}  // namespace

std::string usage_text() {
    return commands_usage() + tenant_and_user_usage() + device_session_and_token_usage() + options_and_settings_usage();
}

}  // namespace syncml::server
