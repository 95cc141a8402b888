#include "src/http/request_target.hpp"

#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"

namespace syncml::server {

std::optional<absolute_target> split_absolute_target(std::string_view target) {
    std::string_view rest;
    for (std::string_view scheme : {"http://", "https://"}) {
        if (common::istarts_with(target, scheme)) rest = target.substr(scheme.size());
    }
    if (rest.empty()) return std::nullopt;
    const auto path = rest.find_first_of("/?#");
    const std::string_view authority = rest.substr(0, path);
    // A userinfo part ("user:pw@host") is not allowed in an http(s) URI (RFC 9110 4.2.4).
    if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;
    std::string origin = path == std::string_view::npos ? std::string() : std::string(rest.substr(path));
    if (origin.empty() || origin.front() != '/') origin.insert(0, "/");
    return absolute_target{std::move(origin), std::string(authority)};
}

bool keeps_alive(unsigned version, const std::vector<std::string_view>& connection_headers) {
    bool asked_to_keep = false;
    for (std::string_view header : connection_headers) {
        while (!header.empty()) {
            const auto comma = header.find(',');
            const std::string_view option = common::trim(header.substr(0, comma), " \t");
            if (common::iequals(option, "close")) return false;
            if (common::iequals(option, "keep-alive")) asked_to_keep = true;
            header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
        }
    }
    return version >= 11 || asked_to_keep;
}

}  // namespace syncml::server
