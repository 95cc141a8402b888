#pragma once
// Command line of syncml-server: global options anywhere, then a subcommand (serve by default) and its words.

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
    bool distributed = false;        // migrate --distributed
    std::vector<std::string> words;  // what follows the subcommand (admin, backup and restore arguments)
    std::string error;               // usage error; empty when the command line is fine
};

cli_options parse_cli(const std::vector<std::string>& args);

std::string usage_text();

}  // namespace syncml::server
