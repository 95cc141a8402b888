#include "auth/throttle_source.hpp"

namespace syncml::auth {

throttle_source database_throttle(const persistence::throttle_settings& settings) {
    return [settings](persistence::database& db) -> std::unique_ptr<persistence::auth_throttle> {
        return std::make_unique<persistence::pg_auth_throttle>(db, settings);
    };
}

}  // namespace syncml::auth
