#pragma once
// What one client may cost the server in work that an attacker can ask for without knowing a password: password
// hashes (about 0.16 s of CPU each at the production cost, for wrong and unknown users too) and session lookups that
// find nothing (guessed SessionIDs). A token bucket per client group (an IPv4 address, an IPv6 /64: common::
// client_group), refilled at a steady rate: a phone or a NAT full of them stays far below it, a credential-stuffing
// or SessionID-guessing loop runs dry and is refused before it reaches a worker. Per server instance, in memory: a
// flood is refused where it arrives, without a database write per refusal.

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace syncml::auth {

struct address_budget_settings {
    double per_second = 1.0;  // refill: sustained password checks or misses per second and client
    double burst = 30.0;      // what a client may spend at once (a NAT's phones starting together)
    // Clients remembered at once; beyond it those whose bucket is full again are forgotten (they owe nothing), and
    // if that is not enough the oldest half. Bounds memory whatever addresses a flood comes from.
    std::size_t max_clients = 100'000;
};

class address_budget {
  public:
    using clock = std::chrono::steady_clock;

    explicit address_budget(address_budget_settings settings = {}) : settings_(settings) {}

    // How long the client of `address` must wait before it may cost anything; zero: it may go on.
    std::chrono::seconds wait(std::string_view address, clock::time_point now = clock::now());
    // The client of `address` cost `units` (a hash, a lookup that found nothing). Its debt is bounded by one burst,
    // so a client that stops is served again within burst / per_second seconds.
    void charge(std::string_view address, double units = 1.0, clock::time_point now = clock::now());
    std::size_t clients() const;

  private:
    struct bucket {
        double tokens = 0;
        clock::time_point at{};
    };
    // The client's bucket refilled up to `now` (a new one is full).
    bucket& refilled(const std::string& group, clock::time_point now);
    void forget_some(clock::time_point now);

    address_budget_settings settings_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, bucket> buckets_;
};

}  // namespace syncml::auth
