#pragma once
// Where a DAV request lands when its login names a tenant, "user@tenant" (issue 38: discovery for every tenant).
// A client set up with only the host name and the user's name (iOS and macOS, DAVx5's e-mail setup) follows RFC 6764
// discovery to the default tenant's context path, /dav/default/. There a name "user@acme" is user "user" of tenant
// "acme", and the context path answers as acme's, so the current-user-principal the client reads leads it into
// acme's URLs. At a tenant's own URLs "user@acme" is "user": the client keeps sending the name it was set up with.
// A name whose part after the last '@' names no tenant is left as it is (e-mail addresses as user names).

#include <functional>
#include <string>
#include <string_view>

namespace syncml::server {

struct dav_landing {
    std::string tenant;  // whose accounts and URLs serve the request
    std::string user;    // the account name within that tenant
    std::string path;    // the request path; the landing tenant's context path when it was the default tenant's
};

// `url_tenant` and `path`: the tenant and path of the request; `login`: the Basic user name; `tenant_exists` is asked
// only for another tenant's name at the default tenant's context path.
dav_landing land_dav_login(std::string_view url_tenant, std::string_view path, std::string_view login,
                           const std::function<bool(std::string_view)>& tenant_exists);

}  // namespace syncml::server
