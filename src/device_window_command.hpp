#pragma once
// `admin device window --tenant T --user U --device D [--window-past-days N ...] [--inherit]`: shows the sync
// window in effect for one device (its own, or its tenant's), gives the device a window of its own (the options
// given change the window in effect, the others keep their value), or with --inherit lets the tenant's apply again.

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

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

void run_device_window(persistence::database& db, const device_window_request& request, std::ostream& out);

}  // namespace syncml::server
