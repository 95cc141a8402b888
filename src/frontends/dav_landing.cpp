#include "src/frontends/dav_landing.hpp"

#include "common/text/ascii_case.hpp"
#include "dav/dav_paths.hpp"
#include "persistence/accounts/tenants.hpp"

namespace syncml::server {

dav_landing land_dav_login(std::string_view url_tenant, std::string_view path, std::string_view login,
                           const std::function<bool(std::string_view)>& tenant_exists) {
    dav_landing as_sent{std::string(url_tenant), std::string(login), std::string(path)};
    const auto at = login.rfind('@');
    if (at == std::string_view::npos || at == 0 || at + 1 == login.size()) return as_sent;
    const std::string_view user = login.substr(0, at);
    const std::string_view named = login.substr(at + 1);
    if (common::iequals(named, url_tenant)) return {std::string(url_tenant), std::string(user), std::string(path)};
    const std::string default_root = dav::root_href(std::string(persistence::default_tenant));
    const bool at_default_root =
        url_tenant == persistence::default_tenant && (path == default_root || path == "/dav/default");
    if (!at_default_root || !tenant_exists(named)) return as_sent;
    return {std::string(named), std::string(user), dav::root_href(std::string(named))};
}

}  // namespace syncml::server
