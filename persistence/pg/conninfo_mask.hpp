#pragma once
// Hides the secrets of a libpq connection string for display (--print-config, log lines).

#include <string>

namespace syncml::persistence {

// conninfo with the value of every option that libpq reads as `password` or `sslpassword` replaced by ***, in
// each form libpq accepts: URL userinfo (postgresql://user:secret@host), URL query parameters, also with
// percent-encoded names (?pass%77ord=secret), and keyword/value pairs with spaces around '=' or quoted values
// (password = 'a b'). The result is checked with libpq's own parser (PQconninfoParse); when the text cannot be
// masked in place it is rebuilt as keyword/value pairs, and a string libpq cannot parse prints as *** whole.
std::string mask_conninfo_password(const std::string& conninfo);

}  // namespace syncml::persistence
