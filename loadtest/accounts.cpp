#include "loadtest/accounts.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace syncml::loadtest {
namespace {

std::string shell_quote(const std::string& word) {
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

pid_t spawn(const std::vector<std::string>& argv) {
    const pid_t pid = ::fork();
    if (pid != 0) return pid;
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // Quiet success lines: thousands of users would drown the summary.
    std::freopen("/dev/null", "w", stdout);
    ::execvp(args[0], args.data());
    std::perror(args[0]);
    ::_exit(127);
}

bool wait_ok(pid_t pid) {
    int status = 0;
    return pid > 0 && ::waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

std::vector<std::vector<std::string>> account_commands(const load_options& options) {
    std::vector<std::vector<std::string>> commands;
    const auto& p = options.people;
    const std::string& server = options.server_binary;
    // Every phone of a tenant may be in a session at once; twice as many places leave room for sessions a timed
    // out phone abandoned (they count until idle for 10 minutes).
    const auto places = std::to_string(std::max(100u, 2 * p.users));
    for (unsigned t = 0; t < p.tenants; ++t) {
        commands.push_back({server, "admin", "tenant", "add", tenant_name(p, t), "--max-sessions", places});
    }
    for (unsigned t = 0; t < p.tenants; ++t) {
        for (unsigned u = 0; u < p.users; ++u) {
            commands.push_back({server, "admin", "user", "add", "--tenant", tenant_name(p, t), "--user",
                                user_name(p, t, u), "--password", p.password});
        }
    }
    return commands;
}

int run_accounts(const load_options& options) {
    const auto commands = account_commands(options);
    if (!options.execute) {
        for (const auto& argv : commands) {
            std::string line;
            for (const auto& word : argv) {
                if (!line.empty()) line += ' ';
                line += shell_quote(word);
            }
            std::cout << line << "\n";
        }
        return 0;
    }
    std::size_t failed = 0;
    std::size_t index = 0;
    const std::size_t tenants = options.people.tenants;
    // Tenants first (users need them), then users two at a time (password hashing is CPU-bound).
    for (; index < tenants; ++index) failed += wait_ok(spawn(commands[index])) ? 0 : 1;
    while (index < commands.size()) {
        const pid_t a = spawn(commands[index++]);
        const pid_t b = index < commands.size() ? spawn(commands[index++]) : -1;
        failed += wait_ok(a) ? 0 : 1;
        if (b > 0) failed += wait_ok(b) ? 0 : 1;
    }
    std::cerr << "accounts: " << commands.size() - failed << " commands ok, " << failed << " failed\n";
    return failed == 0 ? 0 : 1;
}

}  // namespace syncml::loadtest
