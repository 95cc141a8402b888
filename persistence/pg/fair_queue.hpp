#pragma once
// A bounded queue that serves its keys in turn (issue 35): one item of each key with something queued, round
// robin, first in first out within a key. The worker pool keys its jobs by tenant, so a tenant that queued a
// hundred requests delays another tenant's next request by at most one of them instead of all hundred.
// Not thread-safe: its owner holds the lock.

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace syncml::persistence {

template <class item>
class fair_queue {
  public:
    // At most `limit` items queued, all keys together.
    explicit fair_queue(std::size_t limit) : limit_(limit) {}

    // False when the queue holds `limit` items already.
    bool push(const std::string& key, item value) {
        if (size_ >= limit_) return false;
        auto [queued, inserted] = by_key_.try_emplace(key);
        if (inserted) turns_.push_back(key);
        queued->second.push_back(std::move(value));
        ++size_;
        return true;
    }

    // The oldest item of the key whose turn it is; that key then goes to the back of the turns.
    std::optional<item> pop() {
        if (turns_.empty()) return std::nullopt;
        auto key = std::move(turns_.front());
        turns_.pop_front();
        auto queued = by_key_.find(key);
        std::optional<item> next(std::move(queued->second.front()));
        queued->second.pop_front();
        --size_;
        if (queued->second.empty()) {
            // A key without items holds no memory, whatever names the keys carry.
            by_key_.erase(queued);
        } else {
            turns_.push_back(std::move(key));
        }
        return next;
    }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    // Keys with at least one item queued.
    std::size_t keys() const { return by_key_.size(); }

  private:
    std::size_t limit_;
    std::size_t size_ = 0;
    std::unordered_map<std::string, std::deque<item>> by_key_;
    // Each key of by_key_ once, in the order they are served.
    std::deque<std::string> turns_;
};

}  // namespace syncml::persistence
