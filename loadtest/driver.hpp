#pragma once
// Runs a load: builds the phones, lets each slow-sync once (prepare phase), then drives the measured phase
// in closed loop (N phones in flight) or open loop (sessions started at a fixed rate), with a live progress
// line on stderr.

#include <memory>
#include <vector>

#include "loadtest/options.hpp"
#include "loadtest/stats.hpp"

namespace syncml::loadtest {

struct run_result {
    run_stats::report prepare;
    run_stats::report measured;
    server_usage usage_start;
    server_usage usage_end;
    std::uint64_t peak_rss_sampled = 0;
};

std::vector<std::unique_ptr<phone>> make_phones(const load_options& options);

run_result run_load(const load_options& options);

}  // namespace syncml::loadtest
