// syncml-load: load generator of simulated SyncML phones (issue 8). See loadtest/README.md.

#include <fstream>
#include <iostream>

#include "loadtest/accounts.hpp"
#include "loadtest/driver.hpp"
#include "loadtest/options.hpp"
#include "loadtest/report.hpp"

int main(int argc, char** argv) {
    using namespace syncml::loadtest;
    const auto parsed = parse_options(std::vector<std::string>(argv + 1, argv + argc));
    if (parsed.options.help) {
        std::cout << usage();
        return 0;
    }
    if (!parsed.error.empty()) {
        std::cerr << "syncml-load: " << parsed.error << "\n" << usage();
        return 2;
    }
    const auto& options = parsed.options;
    if (options.command == "accounts") return run_accounts(options);
    const run_result result = run_load(options);
    print_table(options, result, std::cout);
    if (!options.json_path.empty()) {
        std::ofstream out(options.json_path);
        out << to_json(options, result);
        if (!out) {
            std::cerr << "syncml-load: cannot write " << options.json_path << "\n";
            return 1;
        }
    }
    const auto& m = result.measured;
    const bool clean = m.errors.empty() && m.sessions_failed == 0 && result.prepare.errors.empty();
    return clean ? 0 : 3;
}
