#include "src/server/body_budget.hpp"

namespace syncml::server {

bool body_budget::try_take(std::uint64_t bytes) {
    std::uint64_t used = in_use_.load();
    do {
        if (bytes > capacity_ || used > capacity_ - bytes) return false;
    } while (!in_use_.compare_exchange_weak(used, used + bytes));
    return true;
}

void body_budget::give_back(std::uint64_t bytes) { in_use_.fetch_sub(bytes); }

bool body_share::grow(std::uint64_t bytes) {
    if (!budget_.try_take(bytes)) return false;
    held_ += bytes;
    return true;
}

void body_share::release() {
    if (held_ == 0) return;
    budget_.give_back(held_);
    held_ = 0;
}

}  // namespace syncml::server
