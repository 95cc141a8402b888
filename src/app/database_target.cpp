#include "src/app/database_target.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "common/log/log_event.hpp"
#include "persistence/pg/conninfo_list.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/embedded_postgres.hpp"

namespace syncml::server {
namespace {

namespace fs = std::filesystem;
constexpr const char* server_role = "server";
constexpr const char* command_role = "command";
constexpr auto cluster_wait = std::chrono::seconds(60);
constexpr auto poll_interval = std::chrono::milliseconds(200);

// The data directory holds the database password files: others may at most pass through it (as root, so that
// the postgres user reaches pgdata/). An existing directory is the operator's choice and stays as it is.
void create_private_directory(const std::string& dir) {
    const auto parent = fs::path(dir).parent_path();
    if (!parent.empty()) fs::create_directories(parent);
    if (::mkdir(dir.c_str(), geteuid() == 0 ? 0711 : 0700) != 0 && errno != EEXIST) {
        throw std::runtime_error("cannot create " + dir + ": " + std::strerror(errno));
    }
}

std::string read_all(int fd) {
    std::string text(256, '\0');
    const ssize_t n = pread(fd, text.data(), text.size(), 0);
    text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return text;
}

std::string first_line(const fs::path& path, int line_number) {
    std::ifstream in(path);
    std::string line;
    for (int i = 0; i < line_number && std::getline(in, line); ++i) {
    }
    return in ? line : std::string();
}

// The URL of the cluster a running server started: same layout as persistence/pg/embedded_postgres.cpp writes
// (password file beside pgdata; port on line 4 of postmaster.pid).
std::string running_cluster_url(const std::string& data_dir) {
    const auto deadline = std::chrono::steady_clock::now() + cluster_wait;
    const fs::path pid_file = fs::path(data_dir) / "pgdata" / "postmaster.pid";
    std::string port;
    while ((port = first_line(pid_file, 4)).empty()) {
        if (std::chrono::steady_clock::now() > deadline) {
            throw std::runtime_error("the server running on " + data_dir + " has not started its PostgreSQL");
        }
        std::this_thread::sleep_for(poll_interval);
    }
    const auto url = persistence::embedded_postgres::running_url(data_dir);
    if (!url) throw std::runtime_error("cannot read the password files in " + data_dir);
    return *url;
}

}  // namespace

database_target::database_target(const database_config& config, process_role role, spdlog::logger& log)
    : log_(log),
      urls_(persistence::split_conninfo_list(config.url)),
      data_dir_(config.data_dir),
      profile_(std::make_shared<persistence::database_profile>(config.prepared_statements)) {
    if (urls_.empty()) {
        if (config.require_url) {
            throw std::runtime_error(
                "no database URL is configured (SYNCML_DATABASE_URL or database_url) and require_database_url is on: "
                "not starting an embedded PostgreSQL in " +
                config.data_dir + ", whose empty database would serve no one's data");
        }
        use_embedded(config, role);
        urls_ = {url_};
    } else {
        url_ = urls_.front();
    }
}

database_target::~database_target() { stop(); }

std::string database_target::description() const {
    if (embedded_) return "embedded PostgreSQL in " + data_dir_;
    if (reused_) return "embedded PostgreSQL of the server running on " + data_dir_;
    std::string targets;
    for (const auto& url : urls_) targets += (targets.empty() ? "" : " ") + url;
    return mask_database_url(targets);
}

void database_target::use_embedded(const database_config& config, process_role role) {
    create_private_directory(config.data_dir);
    const std::string lock_path = config.data_dir + "/syncml.lock";
    lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_fd_ < 0) throw std::runtime_error("cannot open " + lock_path + ": " + std::strerror(errno));
    if (flock(lock_fd_, LOCK_EX | LOCK_NB) == 0) {
        start_own_cluster(config, role);
        return;
    }
    const std::string holder = read_all(lock_fd_);
    if (holder.find(server_role) != std::string::npos) {
        if (role == process_role::server) {
            throw std::runtime_error("another syncml-server (" + holder.substr(0, holder.find('\n')) +
                                     ") is running on data directory " + config.data_dir);
        }
        ::close(lock_fd_);
        lock_fd_ = -1;
        url_ = running_cluster_url(config.data_dir);
        reused_ = true;
        common::log_event(log_, spdlog::level::info, "using the embedded PostgreSQL of the running server",
                          {{"data_dir", config.data_dir}});
        return;
    }
    // Another migrate/admin owns the cluster for a moment: wait for it rather than fight over pgdata.
    common::log_event(log_, spdlog::level::info, "waiting for another command", {{"data_dir", config.data_dir}});
    if (flock(lock_fd_, LOCK_EX) != 0) throw std::runtime_error("cannot lock " + lock_path);
    start_own_cluster(config, role);
}

void database_target::start_own_cluster(const database_config& config, process_role role) {
    const std::string owner =
        "pid " + std::to_string(getpid()) + " " + (role == process_role::server ? server_role : command_role) + "\n";
    if (ftruncate(lock_fd_, 0) != 0 || pwrite(lock_fd_, owner.data(), owner.size(), 0) < 0) {
        throw std::runtime_error("cannot write " + config.data_dir + "/syncml.lock");
    }
    persistence::embedded_settings settings;
    settings.data_dir = config.data_dir;
    settings.port = config.embedded_port;
    embedded_ = std::make_unique<persistence::embedded_postgres>(settings);
    embedded_->start();
    url_ = embedded_->url();
}

void database_target::stop() {
    if (embedded_) {
        embedded_->stop();
        embedded_.reset();
    }
    if (lock_fd_ >= 0) {
        // Empty the file before unlocking so a waiting command never reads a stale "server".
        if (ftruncate(lock_fd_, 0) != 0) log_.warn("cannot clear {}/syncml.lock", data_dir_);
        ::close(lock_fd_);
        lock_fd_ = -1;
    }
}

}  // namespace syncml::server
