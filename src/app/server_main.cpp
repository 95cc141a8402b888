#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "common/log/log_event.hpp"
#include "src/app/cli.hpp"
#include "src/app/commands.hpp"
#include "src/config/config.hpp"
#include "src/telemetry/logging.hpp"

namespace {

using namespace syncml::server;

int run(const cli_options& options, const server_config& config, spdlog::logger& log) {
    if (options.command == "migrate") return run_migrate(config, options.distributed, log);
    if (options.command == "admin") return run_admin_command(config, options.words, log);
    if (options.command == "backup") return run_backup_command(config, options.words, log);
    if (options.command == "restore") return run_restore_command(config, options.words, log);
    return run_serve(config, log);
}

// A bad command line, --help and --version are answered before any configuration is read.
std::optional<int> answer_early(const cli_options& options) {
    if (!options.error.empty()) {
        std::cerr << "syncml-server: " << options.error << "\n";
        return 2;
    }
    if (options.help) {
        std::cout << help_text(options);
        return 0;
    }
    if (options.version) {
        std::cout << version_text();
        return 0;
    }
    return std::nullopt;
}

// False when the configuration cannot be used; its errors and warnings go to stderr either way.
bool load_config(const cli_options& options, config_result& config) {
    try {
        config = parse_config(load_config_sources(options.config_file));
    } catch (const std::exception& e) {
        std::cerr << "syncml-server: " << e.what() << "\n";
        return false;
    }
    for (const auto& error : config.errors) std::cerr << "config error: " << error << "\n";
    for (const auto& warning : config.warnings) std::cerr << "config warning: " << warning << "\n";
    return config.ok();
}

int run_logged(const cli_options& options, const server_config& config) {
    auto logger = make_logger(config.log);
    // persistence/ logs through the default logger: give it the same format and destination.
    spdlog::set_default_logger(logger);
    try {
        return run(options, config, *logger);
    } catch (const std::exception& e) {
        // serve logs (operators read the log); the other commands answer the person at the terminal.
        if (options.command == "serve") {
            syncml::common::log_event(*logger, spdlog::level::critical, "serve failed", {{"error", e.what()}});
        } else {
            std::cerr << "syncml-server: " << e.what() << "\n";
        }
        return 1;
    }
}

}  // namespace

int main(int argc, char** argv) {
    const cli_options options = parse_cli(std::vector<std::string>(argv + 1, argv + argc));
    if (const auto early = answer_early(options)) return *early;
    config_result config;
    if (!load_config(options, config)) return 2;
    if (options.print_config) {
        std::cout << print_config(config.config);
        return 0;
    }
    return run_logged(options, config.config);
}
