#pragma once
// Password hashes computed at once on this instance. A hash is CPU work a stranger can ask for; without a bound a
// flood of logins from many addresses occupies every worker thread and every core, and the syncs of other tenants
// (which need no hash: their RespURI token or the credential cache proves them) wait behind it. With at most
// `concurrent` hashes running and `waiting` logins waiting for one, the rest are told to come back later at once and
// their workers go on with other requests.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

namespace syncml::auth {

struct hash_slot_settings {
    int concurrent = 1;  // hashes at once
    int waiting = 4;     // logins waiting for a slot; more are refused
    std::chrono::milliseconds longest_wait{2000};
};

class hash_slots {
  public:
    explicit hash_slots(hash_slot_settings settings = {}) : settings_(settings) {}

    // Holds one slot until destroyed.
    class slot {
      public:
        explicit slot(hash_slots& owner) : owner_(&owner) {}
        slot(slot&& other) noexcept : owner_(other.owner_) { other.owner_ = nullptr; }
        slot& operator=(slot&&) = delete;
        slot(const slot&) = delete;
        ~slot() {
            if (owner_) owner_->release();
        }

      private:
        hash_slots* owner_;
    };

    // A slot, after waiting for one if `waiting` others do not wait already; nullopt: come back later.
    std::optional<slot> take();
    int running() const;
    int waiting() const;

  private:
    void release();

    hash_slot_settings settings_;
    mutable std::mutex mutex_;
    std::condition_variable freed_;
    int running_ = 0;
    int waiting_ = 0;
};

}  // namespace syncml::auth
