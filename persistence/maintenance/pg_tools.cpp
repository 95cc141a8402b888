#include "persistence/maintenance/pg_tools.hpp"

#include <libpq-fe.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <vector>

#include "common/files/operator_file.hpp"
#include "persistence/pg/detail/process.hpp"

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
    // Absolute: pg_dump runs in "/". The file is 0600 before pg_dump writes into it: a dump holds password hashes.
    common::output_file out(fs::absolute(out_file).string());
    run_tool("pg_dump",
             {bin_dir + "/pg_dump", "--format=custom", "--no-password", "--file=" + out.temporary_path(),
              "--dbname=" + target.dbname},
             target);
    out.commit();
}

namespace {

// A directory only this user can enter, removed with what it holds.
class private_directory {
  public:
    private_directory() {
        std::string pattern = (fs::temp_directory_path() / "syncml-restore-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a directory in " + pattern);
        path_ = pattern;
    }
    ~private_directory() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    private_directory(const private_directory&) = delete;
    private_directory& operator=(const private_directory&) = delete;
    const fs::path& path() const { return path_; }

  private:
    fs::path path_;
};

}  // namespace

void restore_database(const std::string& url, const std::string& in_file, const std::string& bin_dir) {
    const auto target = target_of(url);
    // The tools read the file this process opened and checked, by a name no link planted later can redirect.
    const common::input_file in(in_file);
    const std::string in_name = in.name_for_child();
    // Reads the table of contents: a file that is no pg_dump archive fails here, cheaply.
    run_tool("pg_restore --list", {bin_dir + "/pg_restore", "--list", in_name}, target);
    // Reads every data block into one SQL script (it holds password hashes: a 0700 directory): a damaged or
    // truncated archive fails here, with the database untouched.
    const private_directory scratch;
    const fs::path script = scratch.path() / "restore.sql";
    run_tool("pg_restore",
             {bin_dir + "/pg_restore", "--no-owner", "--no-privileges", "--exit-on-error", "--file=" + script.string(),
              in_name},
             target);
    // The drop and the whole restore in one transaction (PostgreSQL's DDL is transactional): a statement that
    // fails, a lost connection or a killed process leaves the previous contents as they were. Without notices
    // (the drop's cascade lists every table), so that an error reads as one.
    auto quiet = target;
    quiet.environment.push_back("PGOPTIONS=-c client_min_messages=warning");
    run_tool("psql",
             {bin_dir + "/psql", "--no-psqlrc", "--quiet", "--no-password", "--output=/dev/null",
              "--single-transaction", "--set", "ON_ERROR_STOP=1", "--command", "DROP SCHEMA public CASCADE",
              "--command", "CREATE SCHEMA public", "--file", script.string(), "--dbname=" + target.dbname},
             quiet);
}

}  // namespace syncml::persistence
