#pragma once
// One PostgreSQL connection owned by one worker thread. Free of pqxx so that callers outside
// persistence/ never see it; repositories in persistence/ reach the connection through
// persistence/detail/connection_access.hpp.

#include <memory>
#include <string>

namespace syncml::persistence {

class database {
  public:
    explicit database(std::string url);
    ~database();
    database(const database&) = delete;
    database& operator=(const database&) = delete;

    // Connects if needed (reconnecting a broken connection). Returns false while the server is
    // unreachable; never throws.
    bool ensure_connected();
    bool connected() const;
    const std::string& url() const { return url_; }

    struct impl;
    impl& internals() { return *impl_; }

  private:
    std::string url_;
    std::unique_ptr<impl> impl_;
};

}  // namespace syncml::persistence
