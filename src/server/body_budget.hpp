#pragma once
// The request body bytes all connections of the server may hold at once (SYNCML_BODY_BUDGET_BYTES). Without it, a
// hundred clients that announce 4 MiB bodies and send them slowly take 400 MB between them; with it, a request whose
// body does not fit is refused (503, Retry-After) before a byte of it is read. Free of Asio.

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace syncml::server {

class body_budget {
  public:
    explicit body_budget(std::size_t capacity) : capacity_(capacity) {}
    body_budget(const body_budget&) = delete;
    body_budget& operator=(const body_budget&) = delete;

    // Takes `bytes` more; false, taking nothing, when they do not fit. Thread-safe.
    bool try_take(std::uint64_t bytes);
    void give_back(std::uint64_t bytes);
    std::uint64_t in_use() const { return in_use_.load(); }
    std::uint64_t capacity() const { return capacity_; }

  private:
    const std::uint64_t capacity_;
    std::atomic<std::uint64_t> in_use_{0};
};

// One request's part of the budget: it grows as the body is announced (Content-Length, or chunk by chunk) and is
// given back when the request is answered or the connection ends.
class body_share {
  public:
    explicit body_share(body_budget& budget) : budget_(budget) {}
    ~body_share() { release(); }
    body_share(const body_share&) = delete;
    body_share& operator=(const body_share&) = delete;

    // False, holding what it held before, when `bytes` more do not fit.
    bool grow(std::uint64_t bytes);
    void release();
    std::uint64_t held() const { return held_; }

  private:
    body_budget& budget_;
    std::uint64_t held_ = 0;
};

}  // namespace syncml::server
