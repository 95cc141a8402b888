#include "persistence/pg/embedded_postgres.hpp"
#include "common/crypto/hex.hpp"
#include "common/log/log_event.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/rand.h>
#include <spdlog/spdlog.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <stdexcept>

#include "persistence/pg/detail/embedded_roles.hpp"
#include "persistence/pg/detail/process.hpp"

namespace syncml::persistence {

namespace fs = std::filesystem;

namespace {

using detail::k_embedded_app_role;
using detail::k_embedded_database;
using detail::k_embedded_superuser;
// sockaddr_un.sun_path is 108 bytes including the terminator.
constexpr std::size_t k_max_socket_path = 107;

unsigned free_loopback_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) throw std::runtime_error("embedded PostgreSQL: cannot open a socket to find a free port");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
                    getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
    close(fd);
    if (!ok) throw std::runtime_error("embedded PostgreSQL: cannot find a free loopback port");
    return ntohs(address.sin_port);
}

std::string random_password() {
    std::array<unsigned char, 24> bytes{};
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
        throw std::runtime_error("embedded PostgreSQL: no random bytes for the password");
    }
    return common::hex_of(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
}

// Mode 0600 from the moment it exists (never readable by others between creation and a chmod), and never
// through a symbolic link planted at path.
void write_private_file(const fs::path& path, const std::string& content, const detail::os_user* owner) {
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) throw std::runtime_error("embedded PostgreSQL: cannot write " + path.string());
    // A file left by an older version may have a wider mode.
    bool ok = fchmod(fd, 0600) == 0;
    for (std::size_t written = 0; ok && written < content.size();) {
        const ssize_t n = write(fd, content.data() + written, content.size() - written);
        ok = n > 0;
        if (ok) written += static_cast<std::size_t>(n);
    }
    const bool handed = !owner || fchown(fd, owner->uid, owner->gid) == 0;
    ok = close(fd) == 0 && ok;
    if (!ok) throw std::runtime_error("embedded PostgreSQL: cannot write " + path.string());
    if (!handed) {
        throw std::runtime_error("embedded PostgreSQL: cannot hand " + path.string() + " to user " + owner->name);
    }
}

std::string tail(const std::string& text, std::size_t bytes) {
    return text.size() <= bytes ? text : "..." + text.substr(text.size() - bytes);
}

struct cluster_layout {
    fs::path data_dir;
    fs::path pgdata;
    fs::path password_file;      // the superuser's
    fs::path app_password_file;  // the application role's
    fs::path log;
    std::string bin_dir;

    std::string tool(const char* name) const { return bin_dir + "/" + name; }
};

detail::process_result run_tool(const detail::os_user& user, const std::vector<std::string>& argv) {
    spdlog::debug("embedded PostgreSQL: running {} as {}", argv.front(), user.name);
    return detail::run_as(user, argv);
}

void check_installation(const cluster_layout& layout) {
    for (const char* name : {"initdb", "pg_ctl", "postgres"}) {
        if (access(layout.tool(name).c_str(), X_OK) != 0) {
            throw std::runtime_error("embedded PostgreSQL: " + layout.tool(name) +
                                     " not found or not executable (install the postgresql-15 package, or "
                                     "configure a database URL to use an existing server)");
        }
    }
    // pg_ctl hands the options to a shell; refuse the characters that would need quoting there.
    if (layout.data_dir.string().find_first_of("'\"\\$`") != std::string::npos) {
        throw std::runtime_error(
            "embedded PostgreSQL: the data directory path must not contain quotes, '\\', '$' "
            "or '`': " +
            layout.data_dir.string());
    }
}

void make_reachable(const cluster_layout& layout, const detail::os_user& user, bool grant) {
    for (const auto& dir : detail::unsearchable_ancestors(layout.pgdata.string(), user)) {
        if (!grant) {
            throw std::runtime_error("embedded PostgreSQL: user " + user.name + " cannot reach " +
                                     layout.pgdata.string() + " because it may not search " + dir + " (chmod o+x " +
                                     dir + ", or choose a data directory elsewhere)");
        }
        fs::permissions(dir, fs::perms::others_exec, fs::perm_options::add);
        spdlog::warn("embedded PostgreSQL: granted search permission (o+x) on {} so that user {} can reach {}", dir,
                     user.name, layout.pgdata.string());
    }
}

void prepare_directories(const cluster_layout& layout, const detail::os_user& user, bool grant) {
    fs::create_directories(layout.data_dir.parent_path());
    // It holds the password files: others may at most pass through it (as root, to reach pgdata/).
    if (mkdir(layout.data_dir.c_str(), geteuid() == 0 ? 0711 : 0700) != 0 && errno != EEXIST) {
        throw std::runtime_error("embedded PostgreSQL: cannot create " + layout.data_dir.string());
    }
    if (fs::create_directory(layout.pgdata)) {
        fs::permissions(layout.pgdata, fs::perms::owner_all);
        if (geteuid() == 0 && chown(layout.pgdata.c_str(), user.uid, user.gid) != 0) {
            throw std::runtime_error("embedded PostgreSQL: cannot hand " + layout.pgdata.string() + " to user " +
                                     user.name);
        }
    }
    if (geteuid() == 0) make_reachable(layout, user, grant);
    struct stat info {};
    if (stat(layout.pgdata.c_str(), &info) != 0 || info.st_uid != user.uid) {
        throw std::runtime_error("embedded PostgreSQL: " + layout.pgdata.string() + " must belong to user " +
                                 user.name + " (it was created by another user?)");
    }
}

void init_cluster(const cluster_layout& layout, const detail::os_user& user, const std::string& password) {
    spdlog::info("embedded PostgreSQL: creating a new cluster in {}", layout.pgdata.string());
    write_private_file(layout.password_file, password + "\n", nullptr);
    // initdb reads the superuser password from a file the PostgreSQL user can read.
    const fs::path pwfile = layout.data_dir / ".initdb-password";
    write_private_file(pwfile, password + "\n", geteuid() == 0 ? &user : nullptr);
    const auto result =
        run_tool(user, {layout.tool("initdb"), "-D", layout.pgdata.string(), "-U", k_embedded_superuser,
                        "--pwfile=" + pwfile.string(), "--auth=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8"});
    fs::remove(pwfile);
    if (result.exit_code != 0) {
        throw std::runtime_error("embedded PostgreSQL: initdb failed (exit " + std::to_string(result.exit_code) +
                                 "): " + tail(result.output, 2000));
    }
}

// A server left running by a process that was killed: stop it cleanly, then start it with our
// settings (the port may differ). A stale postmaster.pid without a server is pg_ctl's business.
void stop_leftover(const cluster_layout& layout, const detail::os_user& user) {
    if (run_tool(user, {layout.tool("pg_ctl"), "status", "-D", layout.pgdata.string()}).exit_code != 0) return;
    spdlog::warn("embedded PostgreSQL: a server from an earlier run is still running in {}; stopping it",
                 layout.pgdata.string());
    const auto result = run_tool(
        user, {layout.tool("pg_ctl"), "stop", "-D", layout.pgdata.string(), "-m", "fast", "-w", "-t", "60", "-s"});
    if (result.exit_code != 0) {
        throw std::runtime_error("embedded PostgreSQL: cannot stop the server left running in " +
                                 layout.pgdata.string() + ": " + tail(result.output, 2000));
    }
}

// pg_ctl appends to the log at every start; keep one previous generation instead of growing forever.
void rotate_log(const fs::path& log) {
    constexpr std::uintmax_t k_max_log_bytes = 16 * 1024 * 1024;
    std::error_code ignored;
    if (fs::exists(log, ignored) && fs::file_size(log, ignored) > k_max_log_bytes) {
        fs::rename(log, fs::path(log).concat(".old"), ignored);
    }
}

void start_server(const cluster_layout& layout, const detail::os_user& user, unsigned port) {
    rotate_log(layout.log);
    std::string options = "-c listen_addresses=127.0.0.1 -p " + std::to_string(port);
    const auto socket_path = layout.pgdata.string() + "/.s.PGSQL." + std::to_string(port);
    if (socket_path.size() <= k_max_socket_path) {
        options += " -k '" + layout.pgdata.string() + "'";
    } else {
        options += " -c unix_socket_directories=";
        spdlog::warn("embedded PostgreSQL: data directory path too long for a unix socket; TCP only");
    }
    const auto result = run_tool(user, {layout.tool("pg_ctl"), "start", "-D", layout.pgdata.string(), "-l",
                                        layout.log.string(), "-w", "-t", "120", "-s", "-o", options});
    if (result.exit_code != 0) {
        throw std::runtime_error("embedded PostgreSQL: pg_ctl start failed (exit " + std::to_string(result.exit_code) +
                                 "): " + tail(result.output, 1000) + "\nserver log " + layout.log.string() + ":\n" +
                                 tail(read_file(layout.log), 2000));
    }
}

// Picks another free port when the first one was taken between choosing and binding it.
unsigned launch(const cluster_layout& layout, const detail::os_user& user, unsigned fixed_port) {
    const int attempts = fixed_port != 0 ? 1 : 3;
    for (int attempt = 1;; ++attempt) {
        const unsigned port = fixed_port != 0 ? fixed_port : free_loopback_port();
        try {
            start_server(layout, user, port);
            return port;
        } catch (const std::runtime_error& error) {
            if (attempt >= attempts) throw;
            common::log_event(spdlog::level::warn, "embedded PostgreSQL: start failed, trying another port",
                              {{"port", port}, {"error", error.what()}});
        }
    }
}

// Held while this process owns the cluster. The kernel drops it when the process dies, so a
// cluster whose owner was killed is taken over, while one in use by a live process is left alone.
int lock_data_dir(const fs::path& data_dir) {
    const auto path = data_dir / "embedded.lock";
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) throw std::runtime_error("embedded PostgreSQL: cannot open " + path.string());
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        throw std::runtime_error("embedded PostgreSQL: another process is using the data directory " +
                                 data_dir.string() + " (it holds " + path.string() + ")");
    }
    return fd;
}

std::string read_password(const fs::path& path) {
    std::string password = read_file(path);
    while (!password.empty() && (password.back() == '\n' || password.back() == '\r')) password.pop_back();
    return password;
}

}  // namespace

embedded_postgres::embedded_postgres(embedded_settings settings) : settings_(std::move(settings)) {
    if (settings_.data_dir.empty()) throw std::invalid_argument("embedded PostgreSQL: empty data directory");
    settings_.data_dir = fs::absolute(settings_.data_dir).lexically_normal().string();
    if (settings_.data_dir.size() > 1 && settings_.data_dir.ends_with('/')) settings_.data_dir.pop_back();
}

embedded_postgres::~embedded_postgres() { stop(); }

std::string embedded_postgres::log_file() const { return settings_.data_dir + "/pgdata/server.log"; }

namespace {

std::string url_for(const char* role, const std::string& password, const std::string& port, const char* database) {
    return "postgresql://" + std::string(role) + ":" + password + "@127.0.0.1:" + port + "/" + database;
}

std::string line_of(const fs::path& path, int number) {
    std::ifstream in(path);
    std::string line;
    for (int i = 0; i < number; ++i) {
        if (!std::getline(in, line)) return {};
    }
    return line;
}

}  // namespace

std::string embedded_postgres::url() const {
    return url_for(k_embedded_app_role, password_, std::to_string(port_), k_embedded_database);
}

std::optional<std::string> embedded_postgres::running_url(const std::string& data_dir) {
    // postmaster.pid line 4 is the port (PostgreSQL's LOCK_FILE_LINE_PORT).
    const auto port = line_of(fs::path(data_dir) / "pgdata" / "postmaster.pid", 4);
    const auto password = line_of(fs::path(data_dir) / "app.password", 1);
    if (port.empty()) return std::nullopt;
    if (!password.empty()) return url_for(k_embedded_app_role, password, port, k_embedded_database);
    // A server of an older version, which knew only the superuser.
    const auto superuser_password = line_of(fs::path(data_dir) / "postgres.password", 1);
    if (superuser_password.empty()) return std::nullopt;
    return url_for(k_embedded_superuser, superuser_password, port, k_embedded_database);
}

namespace {

// Makes sure the application role exists with the password in its file (a new one when there is no file yet:
// first start, or a data directory of an older version) and owns the database. Returns that password.
std::string provision(const cluster_layout& layout, unsigned port) {
    const std::string superuser_password = read_password(layout.password_file);
    std::string app_password = fs::exists(layout.app_password_file) ? read_password(layout.app_password_file) : "";
    if (app_password.empty()) {
        app_password = random_password();
        write_private_file(layout.app_password_file, app_password + "\n", nullptr);
    }
    const std::string port_text = std::to_string(port);
    detail::provision_app_role({url_for(k_embedded_superuser, superuser_password, port_text, "postgres"),
                                url_for(k_embedded_superuser, superuser_password, port_text, k_embedded_database)},
                               app_password);
    return app_password;
}

}  // namespace

void embedded_postgres::start() {
    if (running_) return;
    const cluster_layout layout{settings_.data_dir,
                                fs::path(settings_.data_dir) / "pgdata",
                                fs::path(settings_.data_dir) / "postgres.password",
                                fs::path(settings_.data_dir) / "app.password",
                                log_file(),
                                settings_.pg_bin_dir};
    check_installation(layout);
    const auto user = detail::postgres_os_user();
    prepare_directories(layout, user, settings_.grant_parent_search);
    lock_fd_ = lock_data_dir(layout.data_dir);
    try {
        if (!fs::exists(layout.pgdata / "PG_VERSION")) {
            init_cluster(layout, user, random_password());
        } else if (!fs::exists(layout.password_file)) {
            throw std::runtime_error("embedded PostgreSQL: " + layout.password_file.string() +
                                     " is missing, so the cluster in " + layout.pgdata.string() +
                                     " cannot be reached (restore that file, or remove pgdata to start afresh)");
        }
        stop_leftover(layout, user);
        port_ = launch(layout, user, settings_.port);
    } catch (...) {
        release_lock();
        throw;
    }
    running_ = true;
    spdlog::info("embedded PostgreSQL: running on 127.0.0.1:{} with data in {}", port_, layout.pgdata.string());
    try {
        password_ = provision(layout, port_);
    } catch (...) {
        stop();
        throw;
    }
}

void embedded_postgres::release_lock() {
    if (lock_fd_ >= 0) close(lock_fd_);
    lock_fd_ = -1;
}

void embedded_postgres::stop() {
    if (!running_) return;
    running_ = false;
    try {
        const auto user = detail::postgres_os_user();
        const auto pgdata = settings_.data_dir + "/pgdata";
        const auto result = detail::run_as(
            user, {settings_.pg_bin_dir + "/pg_ctl", "stop", "-D", pgdata, "-m", "fast", "-w", "-t", "60", "-s"});
        if (result.exit_code != 0) {
            common::log_event(spdlog::level::err, "embedded PostgreSQL: pg_ctl stop failed",
                              {{"output", result.output}});
        } else {
            spdlog::info("embedded PostgreSQL: stopped");
        }
    } catch (const std::exception& error) {
        common::log_event(spdlog::level::err, "embedded PostgreSQL: cannot stop", {{"error", error.what()}});
    }
    release_lock();
}

}  // namespace syncml::persistence
