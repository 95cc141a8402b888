#pragma once
// Command line of syncml-server: global options anywhere, then a subcommand (serve by default) and its words.
// --help prints the help of the command given (`admin --help`, `backup --help`; `admin user --help` only the user
// commands), or without one the overview with every setting (cli_help.cpp).

#include <optional>
#include <string>
#include <vector>

namespace syncml::server {

struct cli_options {
    std::optional<std::string> config_file;
    bool print_config = false;
    bool help = false;
    bool version = false;
    std::string command = "serve";   // serve | migrate | admin | backup | restore
    bool command_given = false;      // serve named on the command line, not taken by default
    bool distributed = false;        // migrate --distributed
    std::vector<std::string> words;  // what follows the subcommand (admin, backup and restore arguments)
    std::string error;               // usage error; empty when the command line is fine
};

cli_options parse_cli(const std::vector<std::string>& args);

// The overview: commands, options, settings, exit status.
std::string usage_text();

// What --help prints for this command line: the overview, or the named command's own help.
std::string help_text(const cli_options& options);

// "syncml-server VERSION (revision REV)".
std::string version_text();

}  // namespace syncml::server
