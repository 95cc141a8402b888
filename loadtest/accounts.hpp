#pragma once
// `syncml-load accounts`: the `syncml-server admin` commands that create a population's tenants and users.

#include <string>
#include <vector>

#include "loadtest/options.hpp"

namespace syncml::loadtest {

// One argv per command: {server, "admin", "tenant", "add", NAME} and {server, "admin", "user", "add", ...}.
std::vector<std::vector<std::string>> account_commands(const load_options& options);

// Prints the commands as shell lines, or runs them (two at a time) when options.execute; returns the exit status.
int run_accounts(const load_options& options);

}  // namespace syncml::loadtest
