#include "persistence/pg/detail/process.hpp"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

extern char** environ;

namespace syncml::persistence::detail {

namespace {

std::string errno_text() { return std::strerror(errno); }

// The current environment without PG* variables, plus `extra`.
std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
    std::vector<std::string> out;
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        if (std::strncmp(*entry, "PG", 2) != 0) out.emplace_back(*entry);
    }
    out.insert(out.end(), extra.begin(), extra.end());
    return out;
}

[[noreturn]] void exec_child(const os_user& user, char* const* argv, char* const* envp, int output_fd) {
    // Only async-signal-safe calls between fork and exec: the parent may have other threads.
    setsid();
    if (geteuid() == 0) {
        if (setgroups(1, &user.gid) != 0 || setgid(user.gid) != 0 || setuid(user.uid) != 0) _exit(126);
    }
    if (chdir("/") != 0) _exit(126);
    const int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(output_fd, 1) < 0 || dup2(output_fd, 2) < 0) _exit(126);
    if (close_range(3, ~0U, 0) != 0) {
        for (int fd = 3, limit = static_cast<int>(sysconf(_SC_OPEN_MAX)); fd < limit && fd < 65536; ++fd) close(fd);
    }
    if (envp != nullptr) {
        execve(argv[0], argv, envp);
    } else {
        execv(argv[0], argv);
    }
    _exit(127);
}

}  // namespace

os_user postgres_os_user() {
    if (geteuid() != 0) {
        const passwd* self = getpwuid(geteuid());
        return {geteuid(), getegid(), self ? self->pw_name : std::to_string(geteuid())};
    }
    const passwd* pg = getpwnam("postgres");
    if (!pg) {
        throw std::runtime_error(
            "running as root, but there is no 'postgres' system user to run the embedded PostgreSQL "
            "(PostgreSQL refuses to run as root; installing the postgresql-15 package creates that user)");
    }
    return {pg->pw_uid, pg->pw_gid, pg->pw_name};
}

os_user current_os_user() {
    const passwd* self = getpwuid(geteuid());
    return {geteuid(), getegid(), self ? self->pw_name : std::to_string(geteuid())};
}

process_result run_as(const os_user& user, const std::vector<std::string>& argv,
                      const std::vector<std::string>& environment) {
    std::vector<char*> args;
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    // Built before fork: the child may only make async-signal-safe calls.
    const auto env_strings = environment.empty() ? std::vector<std::string>{} : child_environment(environment);
    std::vector<char*> env;
    for (const auto& entry : env_strings) env.push_back(const_cast<char*>(entry.c_str()));
    env.push_back(nullptr);
    std::array<int, 2> pipe_fds{};
    if (pipe2(pipe_fds.data(), O_CLOEXEC) != 0) throw std::runtime_error("pipe: " + errno_text());
    const pid_t pid = fork();
    if (pid < 0) {
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        throw std::runtime_error("fork: " + errno_text());
    }
    if (pid == 0) exec_child(user, args.data(), environment.empty() ? nullptr : env.data(), pipe_fds[1]);
    close(pipe_fds[1]);
    process_result result;
    std::array<char, 4096> buffer{};
    for (;;) {
        const ssize_t n = read(pipe_fds[0], buffer.data(), buffer.size());
        if (n > 0) {
            result.output.append(buffer.data(), static_cast<std::size_t>(n));
        } else if (n == 0 || errno != EINTR) {
            break;
        }
    }
    close(pipe_fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) throw std::runtime_error("waitpid: " + errno_text());
    }
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (result.exit_code == 127) result.output += "\ncould not execute " + argv.front();
    if (result.exit_code == 126) result.output += "\ncould not switch to user " + user.name;
    return result;
}

std::vector<std::string> unsearchable_ancestors(const std::string& path, const os_user& user) {
    std::vector<std::string> blocked;
    std::filesystem::path current;
    for (const auto& part : std::filesystem::absolute(path).lexically_normal()) {
        current /= part;
        struct stat info {};
        if (stat(current.c_str(), &info) != 0) break;  // does not exist yet: created later by us
        mode_t needed = S_IXOTH;
        if (info.st_uid == user.uid) {
            needed = S_IXUSR;
        } else if (info.st_gid == user.gid) {
            needed = S_IXGRP;
        }
        if (user.uid != 0 && (info.st_mode & needed) == 0) blocked.push_back(current.string());
    }
    return blocked;
}

}  // namespace syncml::persistence::detail
