#include "src/app/backup_key.hpp"

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <stdexcept>

namespace syncml::server {
namespace {

using persistence::secret_key;

std::string described(const secret_key& key) { return "fingerprint " + key.fingerprint(); }

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm parts{};
    gmtime_r(&now, &parts);
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &parts);
    return text;
}

void plan_for_file(key_restore_plan& plan, bool replace) {
    const auto& path = plan.location.path;
    const auto existing = secret_key::load(path);
    plan.key = existing;
    if (!plan.backup_key) return;
    if (!existing) {
        plan.action = key_restore_plan::step::create;
        plan.key = plan.backup_key;
    } else if (existing->fingerprint() == plan.backup_key->fingerprint()) {
        plan.action = key_restore_plan::step::keep;
    } else if (replace) {
        plan.action = key_restore_plan::step::replace;
        plan.key = plan.backup_key;
    } else {
        plan.error =
            path + " holds another secret key (" + described(*existing) + ") than the backup's (" +
            plan.backup_key_file + ", " + described(*plan.backup_key) +
            "): nothing was restored. restore --replace-key puts the backup's key there (the other is kept as " + path +
            ".replaced-<time>); or set secret_key_file to another path";
    }
}

}  // namespace

backup_words parse_backup_words(const std::vector<std::string>& words) {
    backup_words out;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (words[i] == "--out" && i + 1 < words.size() && !words[i + 1].empty() && out.out.empty()) {
            out.out = words[++i];
        } else if (words[i] == "--no-key") {
            out.save_key = false;
        } else {
            out.error = "unexpected '" + words[i] + "'";
        }
    }
    if (out.out.empty() && out.error.empty()) out.error = "--out FILE is missing";
    if (!out.error.empty()) out.error = "backup: " + out.error + " (usage: backup --out FILE [--no-key])";
    return out;
}

restore_words parse_restore_words(const std::vector<std::string>& words) {
    restore_words out;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (words[i] == "--key" && i + 1 < words.size() && !words[i + 1].empty() && out.key_file.empty()) {
            out.key_file = words[++i];
        } else if (words[i] == "--replace-key") {
            out.replace_key = true;
        } else if (!words[i].starts_with("--") && !words[i].empty() && out.in.empty()) {
            out.in = words[i];
        } else {
            out.error = "unexpected '" + words[i] + "'";
        }
    }
    if (out.in.empty() && out.error.empty()) out.error = "the backup FILE is missing";
    if (!out.error.empty()) {
        out.error = "restore: " + out.error + " (usage: restore FILE [--key KEYFILE] [--replace-key])";
    }
    return out;
}

key_location locate_secret_key(const database_config& config) {
    if (!config.secret_key.empty()) return {key_location::kind::text, {}};
    if (config.secret_key_file.empty() && !config.url.empty()) return {key_location::kind::database, {}};
    return {key_location::kind::file, persistence::secret_key_path(config.secret_key_file, config.data_dir)};
}

std::optional<secret_key> existing_secret_key(const database_config& config) {
    const auto location = locate_secret_key(config);
    switch (location.where) {
        case key_location::kind::text:
            return persistence::resolve_secret_key(config.secret_key, "", config.data_dir);
        case key_location::kind::file:
            return secret_key::load(location.path);
        case key_location::kind::database:
            break;
    }
    return std::nullopt;
}

std::string backup_key_path(const std::string& dump) { return dump + ".key"; }

key_restore_plan plan_key_restore(const database_config& config, const std::optional<secret_key>& backup_key,
                                  const std::string& backup_key_file, bool replace) {
    key_restore_plan plan;
    plan.location = locate_secret_key(config);
    plan.backup_key = backup_key;
    plan.backup_key_file = backup_key_file;
    switch (plan.location.where) {
        case key_location::kind::text:
            plan.key = existing_secret_key(config);
            if (backup_key && backup_key->fingerprint() != plan.key->fingerprint()) {
                plan.error = "the backup's secret key (" + backup_key_file + ", " + described(*backup_key) +
                             ") is not SYNCML_SECRET_KEY (" + described(*plan.key) +
                             "): nothing was restored. Set SYNCML_SECRET_KEY (secret_key) to the contents of " +
                             backup_key_file + " and run restore again";
            } else if (backup_key) {
                plan.action = key_restore_plan::step::keep;
            }
            break;
        case key_location::kind::file:
            plan_for_file(plan, replace);
            break;
        case key_location::kind::database:
            if (backup_key) {
                plan.error = "the backup comes with a secret key (" + backup_key_file +
                             ") but this configuration keeps its key in the database (an external database without "
                             "secret_key or secret_key_file): nothing was restored. Set SYNCML_SECRET_KEY_FILE to "
                             "where restore should put it (or SYNCML_SECRET_KEY to its contents) and run restore again";
            }
            break;
    }
    return plan;
}

std::string apply_key_restore(const key_restore_plan& plan) {
    const auto& path = plan.location.path;
    switch (plan.action) {
        case key_restore_plan::step::none:
            return {};
        case key_restore_plan::step::keep:
            return "the secret key is the backup's already (" + described(*plan.backup_key) + ")";
        case key_restore_plan::step::replace: {
            const std::string aside = path + ".replaced-" + utc_now();
            std::error_code error;
            std::filesystem::rename(path, aside, error);
            if (error) throw std::runtime_error("cannot move " + path + " aside: " + error.message());
            if (!plan.backup_key->create_file(path)) throw std::runtime_error(path + " appeared while it was replaced");
            return "secret key restored to " + path + " (" + described(*plan.backup_key) + "); the other key is " +
                   aside;
        }
        case key_restore_plan::step::create:
            if (!plan.backup_key->create_file(path)) throw std::runtime_error(path + " appeared while it was written");
            return "secret key restored to " + path + " (" + described(*plan.backup_key) + ")";
    }
    return {};
}

std::string missing_key(const persistence::secret_key_record& record, const key_restore_plan& plan) {
    if (record.accepts(plan.key ? &*plan.key : nullptr)) return {};
    std::string out = "the restored md5 secrets (" + std::to_string(record.sealed) +
                      (record.sealed == 1 ? " user" : " users") + ") are sealed with the secret key of fingerprint " +
                      record.fingerprint.value_or("?");
    switch (plan.location.where) {
        case key_location::kind::text:
            out += ", not SYNCML_SECRET_KEY's (" + described(*plan.key) + "): set it to the old key";
            break;
        case key_location::kind::file:
            out += ", which is not at " + plan.location.path +
                   (plan.key ? " (it holds " + described(*plan.key) + ")" : std::string(" (there is none)")) +
                   ": put the old key file there (the <dump>.key that backup wrote, or secret.key of the old data "
                   "directory), or run restore again with --key FILE";
            break;
        case key_location::kind::database:
            out += ", which this configuration does not have: set SYNCML_SECRET_KEY or SYNCML_SECRET_KEY_FILE to it";
            break;
    }
    return out + ". Until then the server refuses to start (md5 logins would fail)";
}

}  // namespace syncml::server
