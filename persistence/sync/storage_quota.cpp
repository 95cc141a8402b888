#include "persistence/sync/storage_quota.hpp"

namespace syncml::persistence {

bool quota_applies(std::int64_t max_user_bytes, item_growth write) {
    return max_user_bytes > 0 && write.after > write.before;
}

bool quota_allows(std::int64_t max_user_bytes, std::int64_t stored, item_growth write) {
    if (!quota_applies(max_user_bytes, write)) return true;
    // The growth is compared with the room left rather than added to `stored`: no sum that could overflow.
    return write.after - write.before <= max_user_bytes - stored;
}

}  // namespace syncml::persistence
