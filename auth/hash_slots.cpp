#include "auth/hash_slots.hpp"

namespace syncml::auth {

std::optional<hash_slots::slot> hash_slots::take() {
    std::unique_lock lock(mutex_);
    if (running_ >= settings_.concurrent) {
        if (waiting_ >= settings_.waiting) return std::nullopt;
        ++waiting_;
        const bool got = freed_.wait_for(lock, settings_.longest_wait, [&] { return running_ < settings_.concurrent; });
        --waiting_;
        if (!got) return std::nullopt;
    }
    ++running_;
    return std::optional<slot>(std::in_place, *this);
}

int hash_slots::running() const {
    std::lock_guard lock(mutex_);
    return running_;
}

int hash_slots::waiting() const {
    std::lock_guard lock(mutex_);
    return waiting_;
}

void hash_slots::release() {
    {
        std::lock_guard lock(mutex_);
        --running_;
    }
    freed_.notify_one();
}

}  // namespace syncml::auth
