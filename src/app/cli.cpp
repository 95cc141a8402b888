#include "src/app/cli.hpp"

#include <algorithm>

#include "common/text/closest_word.hpp"

namespace syncml::server {
namespace {

const std::vector<std::string>& commands() {
    static const std::vector<std::string> names = {"serve", "migrate", "admin", "backup", "restore"};
    return names;
}

// "unknown command 'amdin'; did you mean admin?" for a word where the command belongs.
std::string unknown_word(const std::string& word) {
    static const std::vector<std::string> options = {"--help", "--version", "--print-config", "--config"};
    const bool option = word.starts_with("-");
    const auto match = common::closest_word(word, option ? options : commands());
    return std::string(option ? "unknown option '" : "unknown command '") + word + "'" +
           (match ? "; did you mean " + *match + "?" : std::string()) + " (see --help)";
}

}  // namespace

cli_options parse_cli(const std::vector<std::string>& args) {
    cli_options options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--help" || arg == "-h") {
            options.help = true;
        } else if (arg == "--version") {
            options.version = true;
        } else if (arg == "--print-config") {
            options.print_config = true;
        } else if (arg == "--config") {
            if (i + 1 == args.size()) {
                options.error = "--config needs a file name";
                return options;
            }
            options.config_file = args[++i];
        } else if (arg.starts_with("--config=")) {
            options.config_file = arg.substr(9);
        } else if (options.command_given) {
            options.words.push_back(arg);
        } else if (std::find(commands().begin(), commands().end(), arg) != commands().end()) {
            options.command = arg;
            options.command_given = true;
        } else {
            options.error = unknown_word(arg);
            return options;
        }
    }
    if (options.command == "migrate" && options.words == std::vector<std::string>{"--distributed"}) {
        options.distributed = true;
        options.words.clear();
    }
    const bool takes_words = options.command == "admin" || options.command == "backup" || options.command == "restore";
    if (!takes_words && !options.words.empty()) {
        options.error = options.command + " takes no arguments, got '" + options.words.front() + "'";
    }
    return options;
}

}  // namespace syncml::server
