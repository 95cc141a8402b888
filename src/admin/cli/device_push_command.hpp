#pragma once
// `admin device push --tenant T --user U --device D [--phone +E164] [--server-password P | --server-password-file F]
// [--server-nonce N] [--datastores contacts,calendar|all] [--quiet-hours HH:MM-HH:MM|none] [--time-zone ZONE]
// [--off] [--json]`: shows a device's push settings and its last notification, opts it in (the options given change
// those settings, the others keep their value), or with --off opts it out. The tenant's push (admin tenant set
// --push on) and a transport of the server (push_webhook_url, push_sms_url) must be on too for it to get any.

#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "persistence/push/push_settings.hpp"

namespace syncml::persistence {
class database;
}

namespace syncml::server {

// The options of the command that carry a value (--off and --json are flags).
const std::vector<const char*>& device_push_option_names();

struct device_push_request {
    std::string tenant;
    std::string user;
    std::string device;
    std::vector<std::pair<std::string, std::string>> options;  // ("--phone", "+41..."), ...
    bool off = false;
    bool json = false;
};

// Applies one option to `settings`; std::invalid_argument naming the option for a value it cannot be. The values'
// own checks (E.164, datastore names, the time zone) are persistence's.
void apply_push_option(persistence::push_settings& settings, const std::string& option, const std::string& value);

// Carries the request out and returns the device's push status afterwards (nullopt: not opted in). not_found for an
// unknown tenant, user or device; std::invalid_argument for a bad value (nothing is stored then).
std::optional<persistence::push_status> apply_device_push(persistence::database& db, const device_push_request& r);

// The command: apply_device_push, then lines (or --json, one object) to out.
void run_device_push(persistence::database& db, const device_push_request& request, std::ostream& out);

// "push\ton phone=+41... datastores=all quiet=22:00-07:00 Europe/Zurich" and the notification's lines, for device show
// and this command.
void print_push_status(const std::optional<persistence::push_status>& status, std::ostream& out);

}  // namespace syncml::server
