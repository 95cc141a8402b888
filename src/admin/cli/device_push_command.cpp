#include "src/admin/cli/device_push_command.hpp"

#include <ostream>
#include <stdexcept>

#include "common/files/operator_file.hpp"
#include "common/log/log_value.hpp"
#include "src/admin/common/admin_json.hpp"

namespace syncml::server {
namespace {

std::vector<std::string> comma_separated(const std::string& text) {
    std::vector<std::string> out;
    std::string::size_type at = 0;
    while (at <= text.size()) {
        const auto comma = std::min(text.find(',', at), text.size());
        if (comma > at) out.push_back(text.substr(at, comma - at));
        at = comma + 1;
    }
    return out;
}

std::string first_line_of_file(const std::string& path) {
    std::string text;
    try {
        text = common::read_input_file(path);
    } catch (const common::file_refused& e) {
        throw std::invalid_argument(std::string("cannot read --server-password-file ") + e.what());
    }
    text = text.substr(0, text.find('\n'));
    if (!text.empty() && text.back() == '\r') text.pop_back();
    return text;
}

}  // namespace

const std::vector<const char*>& device_push_option_names() {
    static const std::vector<const char*> names = {"--phone",        "--server-password", "--server-password-file",
                                                   "--server-nonce", "--datastores",      "--quiet-hours",
                                                   "--time-zone"};
    return names;
}

void apply_push_option(persistence::push_settings& s, const std::string& option, const std::string& value) {
    if (option == "--phone") {
        s.phone_number = value == "none" || value.empty() ? std::nullopt : std::optional<std::string>(value);
    } else if (option == "--server-password") {
        s.server_password = value;
    } else if (option == "--server-password-file") {
        s.server_password = first_line_of_file(value);
    } else if (option == "--server-nonce") {
        s.server_nonce = value;
    } else if (option == "--datastores") {
        s.datastores = value == "all" ? std::vector<std::string>{} : comma_separated(value);
        if (value != "all" && s.datastores.empty()) throw std::invalid_argument("--datastores needs names or all");
    } else if (option == "--quiet-hours") {
        if (value == "none") {
            s.quiet_start.reset();
            s.quiet_end.reset();
            return;
        }
        const auto dash = value.find('-');
        if (dash == std::string::npos) throw std::invalid_argument("--quiet-hours is HH:MM-HH:MM or none");
        s.quiet_start = value.substr(0, dash);
        s.quiet_end = value.substr(dash + 1);
    } else if (option == "--time-zone") {
        s.time_zone = value;
    } else {
        throw std::invalid_argument("unknown push option " + option);
    }
}

std::optional<persistence::push_status> apply_device_push(persistence::database& db, const device_push_request& r) {
    if (r.off && !r.options.empty()) throw std::invalid_argument("--off takes no other push option beside it");
    if (r.off) {
        persistence::clear_device_push(db, r.tenant, r.user, r.device);
        return std::nullopt;
    }
    auto current = persistence::device_push(db, r.tenant, r.user, r.device);
    if (r.options.empty()) return current;
    auto settings = current ? current->settings : persistence::push_settings{};
    for (const auto& [option, value] : r.options) apply_push_option(settings, option, value);
    persistence::set_device_push(db, r.tenant, r.user, r.device, settings);
    return persistence::device_push(db, r.tenant, r.user, r.device);
}

void print_push_status(const std::optional<persistence::push_status>& status, std::ostream& out) {
    if (!status) {
        out << "push\toff\n";
        return;
    }
    const auto& s = status->settings;
    std::string stores;
    for (const auto& kind : s.datastores) stores += (stores.empty() ? "" : ",") + kind;
    out << "push\ton phone=" << common::printable_text(s.phone_number.value_or("none"))
        << " datastores=" << (stores.empty() ? "all" : stores)
        << " server-password=" << (s.server_password.empty() ? "none" : "set") << " quiet="
        << (s.quiet_start ? *s.quiet_start + "-" + s.quiet_end.value_or("") + " " + s.time_zone : std::string("none"))
        << "\n";
    if (status->pending) {
        out << "push_pending\t" << status->changes << " change(s), due " << status->due_at.value_or("now")
            << (status->attempts > 0 ? ", " + std::to_string(status->attempts) + " failed attempt(s)" : "") << "\n";
    }
    out << "push_last\t" << status->notified_at.value_or("never");
    if (status->last_result) out << " (" << common::printable_text(*status->last_result) << ")";
    out << "\n";
}

void run_device_push(persistence::database& db, const device_push_request& r, std::ostream& out) {
    const auto status = apply_device_push(db, r);
    if (r.json) {
        out << device_push_json(r.device, status);
        return;
    }
    out << "device\t" << common::printable_text(r.device) << "\n";
    print_push_status(status, out);
}

}  // namespace syncml::server
