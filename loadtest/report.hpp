#pragma once
// The final table (stdout) and the JSON report of a load run.

#include <iosfwd>
#include <string>

#include "loadtest/driver.hpp"

namespace syncml::loadtest {

void print_table(const load_options& options, const run_result& result, std::ostream& out);
std::string to_json(const load_options& options, const run_result& result);

}  // namespace syncml::loadtest
