#pragma once
// `admin device window --tenant T --user U --device D [--window-past-days N ...] [--inherit]`: shows the sync
// window in effect for one device (its own, or its tenant's), gives the device a window of its own (the options
// given change the window in effect, the others keep their value), or with --inherit lets the tenant's apply again.

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "persistence/sync/sync_window.hpp"

namespace syncml::persistence {
class database;
}

namespace syncml::server {

struct device_window_request {
    std::string tenant;
    std::string user;
    std::string device;
    std::vector<std::pair<std::string, std::string>> options;  // ("--window-past-days", "30"), ...
    bool inherit = false;
    bool json = false;
};

struct device_window_result {
    persistence::sync_window window;  // in effect after the request
    bool own = false;                 // the device's own; else its tenant's
};

// Carries the request out (shows, sets or inherits) and returns the window in effect. not_found for an unknown
// tenant, user or device; std::invalid_argument for a bad value (nothing is stored then).
device_window_result apply_device_window(persistence::database& db, const device_window_request& request);

// The command: apply_device_window, then one line (or --json, one object) to out.
void run_device_window(persistence::database& db, const device_window_request& request, std::ostream& out);

}  // namespace syncml::server
