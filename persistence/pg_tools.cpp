#include "persistence/pg_tools.hpp"

#include <fcntl.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <vector>

#include "persistence/detail/connection_access.hpp"
#include "persistence/detail/process.hpp"

namespace syncml::persistence {
namespace {

namespace fs = std::filesystem;

struct libpq_target {
    std::vector<std::string> environment;  // PGHOST=..., PGPASSWORD=..., ...
    std::string dbname;
};

libpq_target target_of(const std::string& url) {
    char* error = nullptr;
    std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)> options(PQconninfoParse(url.c_str(), &error),
                                                                         &PQconninfoFree);
    if (!options) {
        std::string message = error ? error : "out of memory";
        PQfreemem(error);
        throw std::runtime_error("cannot read the database URL: " + message);
    }
    libpq_target target;
    for (auto* option = options.get(); option->keyword != nullptr; ++option) {
        if (option->val == nullptr || *option->val == '\0') continue;
        if (std::string(option->keyword) == "dbname") target.dbname = option->val;
        if (std::string(option->keyword) == "user" && target.dbname.empty()) target.dbname = option->val;
        if (option->envvar != nullptr) target.environment.push_back(std::string(option->envvar) + "=" + option->val);
    }
    // libpq's default database is the one named like the user.
    if (target.dbname.empty()) target.dbname = detail::current_os_user().name;
    return target;
}

void run_tool(const std::string& what, const std::vector<std::string>& argv, const libpq_target& target) {
    if (access(argv.front().c_str(), X_OK) != 0) {
        throw std::runtime_error(argv.front() + " not found (install the postgresql-client-15 package)");
    }
    const auto result = detail::run_as(detail::current_os_user(), argv, target.environment);
    if (result.exit_code != 0) {
        throw std::runtime_error(what + " failed (exit " + std::to_string(result.exit_code) + "): " + result.output);
    }
}

}  // namespace

void dump_database(const std::string& url, const std::string& out_file, const std::string& bin_dir) {
    const auto target = target_of(url);
    const fs::path out = fs::absolute(out_file);
    const fs::path partial = out.string() + ".partial";
    {
        // Created 0600 before pg_dump writes into it: a dump holds password hashes.
        const int fd = open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) throw std::runtime_error("cannot create " + partial.string());
        close(fd);
    }
    try {
        run_tool("pg_dump",
                 {bin_dir + "/pg_dump", "--format=custom", "--no-password", "--file=" + partial.string(),
                  "--dbname=" + target.dbname},
                 target);
    } catch (...) {
        fs::remove(partial);
        throw;
    }
    fs::rename(partial, out);
}

void restore_database(database& db, const std::string& url, const std::string& in_file, const std::string& bin_dir) {
    const auto target = target_of(url);
    const fs::path in = fs::absolute(in_file);
    if (!fs::is_regular_file(in)) throw std::runtime_error("no backup file " + in.string());
    // Reads the whole table of contents: a file that is no pg_dump archive fails here, with nothing dropped.
    run_tool("pg_restore --list", {bin_dir + "/pg_restore", "--list", in.string()}, target);
    in_transaction(db, [](pqxx::work& tx) {
        tx.exec0("DROP SCHEMA public CASCADE");
        tx.exec0("CREATE SCHEMA public");
    });
    run_tool("pg_restore",
             {bin_dir + "/pg_restore", "--no-password", "--no-owner", "--no-privileges", "--single-transaction",
              "--exit-on-error", "--dbname=" + target.dbname, in.string()},
             target);
}

}  // namespace syncml::persistence
