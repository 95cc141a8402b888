#pragma once
// For persistence/ .cpp files only (it includes pqxx): the READ COMMITTED transaction of one SyncML message. It
// sends BEGIN together with the message's first statement and COMMIT together with its last one (each pair one
// simple-protocol query), so a message costs two round trips fewer than with pqxx::work, which sends BEGIN and
// COMMIT on their own. On PostgreSQL a no-change session is 16 round trips with pqxx::work, 10 with this.

#include <pqxx/pqxx>

#include <string>
#include <utility>

namespace syncml::persistence::detail {

class message_transaction final : public pqxx::dbtransaction {
  public:
    explicit message_transaction(pqxx::connection_base& connection);
    ~message_transaction() noexcept override;

    // Runs `sql` (one statement with its parameters written as literals) in the round trip of BEGIN, or on its
    // own when the transaction has begun already.
    pqxx::result begin_with(const std::string& sql);

    // Holds `sql` (as begin_with) until commit() sends it with COMMIT. A statement run before the commit runs
    // it first, so statements still see each other's effects in the order they were issued.
    void finish_with(std::string sql);

    // pqxx's statements, after BEGIN (pqxx sends it only before exec()) and the held final statement.
    template <typename... Args>
    pqxx::result exec_prepared(const std::string& name, Args&&... args) {
        prepare_statement();
        return dbtransaction::exec_prepared(name, std::forward<Args>(args)...);
    }
    template <typename... Args>
    pqxx::result exec_params(const std::string& sql, Args&&... args) {
        prepare_statement();
        return dbtransaction::exec_params(sql, std::forward<Args>(args)...);
    }

  private:
    void do_begin() override;
    pqxx::result do_exec(const char query[]) override;
    void do_commit() override;
    void flush();
    void prepare_statement();
    // After a failed BEGIN or COMMIT query the server's transaction can still be open (aborted): pqxx would not
    // roll it back, since for pqxx it never began or has ended.
    void roll_back_quietly() noexcept;

    bool begun_ = false;
    std::string first_;
    pqxx::result first_result_;
    std::string final_;
};

}  // namespace syncml::persistence::detail
