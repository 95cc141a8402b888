#include "persistence/detail/message_transaction.hpp"

namespace syncml::persistence::detail {

message_transaction::message_transaction(pqxx::connection_base& connection)
    : pqxx::internal::namedclass("message_transaction"), dbtransaction(connection, "READ COMMITTED") {
    // No Begin() here, unlike pqxx::work: the first statement begins the transaction (activate() in pqxx, or
    // begin_with), so BEGIN can travel with it.
}

message_transaction::~message_transaction() noexcept { End(); }

pqxx::result message_transaction::begin_with(const std::string& sql) {
    if (begun_) return exec(sql);
    first_ = sql;
    Begin();
    first_.clear();
    return std::exchange(first_result_, pqxx::result{});
}

void message_transaction::finish_with(std::string sql) {
    flush();
    // commit() of a transaction that never began sends nothing, so a final statement needs one that has.
    if (!begun_) {
        exec(sql);
        return;
    }
    final_ = std::move(sql);
}

void message_transaction::do_begin() {
    begun_ = true;
    if (first_.empty()) {
        direct_exec("BEGIN");
        return;
    }
    try {
        first_result_ = direct_exec(("BEGIN; " + first_).c_str());
    } catch (...) {
        roll_back_quietly();
        throw;
    }
}

pqxx::result message_transaction::do_exec(const char query[]) {
    flush();
    return dbtransaction::do_exec(query);
}

void message_transaction::do_commit() {
    const std::string query = final_.empty() ? std::string("COMMIT") : final_ + "; COMMIT";
    final_.clear();
    try {
        direct_exec(query.c_str());
    } catch (const pqxx::statement_completion_unknown& error) {
        throw pqxx::in_doubt_error(error.what());
    } catch (const std::exception& error) {
        if (!conn().is_open()) {
            throw pqxx::in_doubt_error(std::string("connection lost while committing: ") + error.what());
        }
        // The final statement failed: COMMIT did not run and the aborted transaction is still open.
        roll_back_quietly();
        throw;
    }
}

void message_transaction::flush() {
    if (final_.empty()) return;
    direct_exec(std::exchange(final_, std::string()).c_str());
}

void message_transaction::prepare_statement() {
    if (!begun_) Begin();
    flush();
}

void message_transaction::roll_back_quietly() noexcept {
    try {
        if (conn().is_open()) direct_exec("ROLLBACK");
    } catch (...) {
        // The connection is gone: the server has rolled back already.
    }
}

}  // namespace syncml::persistence::detail
