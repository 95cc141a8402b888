#include "src/admin/cli/device_window_command.hpp"

#include <ostream>
#include <stdexcept>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/sync/sync_window.hpp"
#include "src/admin/common/admin_json.hpp"
#include "src/admin/common/tenant_options.hpp"

namespace syncml::server {
namespace {

void print_window(const device_window_request& r, const persistence::sync_window& window, bool own, std::ostream& out) {
    if (r.json) {
        out << device_window_json(r.device, own, window);
        return;
    }
    out << "device " << r.device << " of user " << r.user << ": window of the " << (own ? "device" : "tenant") << " "
        << persistence::describe_window(window, " ") << "\n";
}

}  // namespace

device_window_result apply_device_window(persistence::database& db, const device_window_request& r) {
    if (r.inherit && !r.options.empty()) throw std::invalid_argument("--inherit takes no --window-* option beside it");
    const auto tenant = persistence::find_tenant(db, r.tenant);
    if (!tenant) throw persistence::not_found("no tenant named '" + r.tenant + "'");
    if (r.inherit) {
        persistence::set_device_window(db, r.tenant, r.user, r.device, std::nullopt);
        return {tenant->settings.window, false};
    }
    const auto own = persistence::device_window(db, r.tenant, r.user, r.device);
    if (r.options.empty()) return {own.value_or(tenant->settings.window), own.has_value()};
    auto window = own.value_or(tenant->settings.window);
    for (const auto& [option, value] : r.options) apply_window_option(window, option, value);
    persistence::set_device_window(db, r.tenant, r.user, r.device, window);
    return {window, true};
}

void run_device_window(persistence::database& db, const device_window_request& r, std::ostream& out) {
    const auto result = apply_device_window(db, r);
    print_window(r, result.window, result.own, out);
}

}  // namespace syncml::server
