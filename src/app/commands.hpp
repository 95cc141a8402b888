#pragma once
// The subcommands of syncml-server. Each returns the process exit status; failures that stop a command
// are thrown as std::runtime_error and reported by main.

#include <string>
#include <vector>

#include <spdlog/logger.h>

#include "src/config/config.hpp"

namespace syncml::server {

int run_serve(const server_config& config, spdlog::logger& log);
int run_migrate(const server_config& config, bool distributed, spdlog::logger& log);
int run_admin_command(const server_config& config, const std::vector<std::string>& words, spdlog::logger& log);
// backup --out FILE | restore FILE (src/app/backup_command.cpp)
int run_backup_command(const server_config& config, const std::vector<std::string>& words, spdlog::logger& log);
int run_restore_command(const server_config& config, const std::vector<std::string>& words, spdlog::logger& log);

}  // namespace syncml::server
