#pragma once
// Exceptions that leave persistence/. pqxx exceptions never do: they are converted to db_error.

#include <stdexcept>
#include <string>
#include <utility>

namespace syncml::persistence {

// The database failed or is unreachable. retryable() is true when the same work may succeed when
// run again (lost connection, serialization failure, deadlock); false for errors the caller caused
// or cannot fix by retrying (constraint violations, in-doubt commits, bad SQL).
class db_error : public std::runtime_error {
  public:
    db_error(const std::string& what, bool retryable, std::string sqlstate = {})
        : std::runtime_error(what), retryable_(retryable), sqlstate_(std::move(sqlstate)) {}
    bool retryable() const noexcept { return retryable_; }
    // Five-character SQLSTATE when the server reported one, else empty.
    const std::string& sqlstate() const noexcept { return sqlstate_; }

  private:
    bool retryable_;
    std::string sqlstate_;
};

// A named tenant, user or device does not exist.
class not_found : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A tenant or user with that name exists already.
class already_exists : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace syncml::persistence
