#pragma once
// Command line of syncml-load: `run` (default) and `accounts`. Every run is bounded (duration and/or
// session count) and targets 127.0.0.1 only.

#include <cstdint>
#include <string>
#include <vector>

#include "loadtest/phone.hpp"

namespace syncml::loadtest {

enum class loop_mode { closed, open };

struct population {
    unsigned tenants = 1;
    unsigned users = 10;   // per tenant
    unsigned devices = 1;  // per user
    std::string prefix = "lt";
    std::string password = "pw";
    std::size_t phone_count() const { return std::size_t{tenants} * users * devices; }
};

struct load_options {
    std::string command = "run";  // run | accounts
    population people;
    phone_settings phone;
    loop_mode mode = loop_mode::closed;
    unsigned concurrency = 0;  // closed loop: phones in flight (0: all); open loop: worker threads
    double rate = 0;           // open loop: sessions started per second
    double duration_s = 30;
    std::uint64_t max_sessions = 0;  // measured sessions; 0: until the duration ends
    // The measured phase also ends once this file exists (checked every second), so that a script ends the load
    // when the work it measures is done instead of guessing a duration (citus-shard-move.sh).
    std::string stop_file;
    double think_ms = 0;    // mean pause between two sessions of one phone (exponential)
    double timeout_s = 60;  // per HTTP exchange
    std::vector<int> server_pids;
    std::string json_path;
    bool progress = true;
    std::uint64_t seed = 1;
    // accounts
    std::string server_binary = "syncml-server";
    bool execute = false;
    bool help = false;
};

struct parse_outcome {
    load_options options;
    std::string error;  // empty when the command line is valid
};

parse_outcome parse_options(const std::vector<std::string>& args);
std::string usage();

// "<prefix>-t<i>", "<prefix>-u<i>-<j>", "<prefix>-t<i>-u<j>-d<k>": stable names shared by `accounts` and `run`.
std::string tenant_name(const population& p, unsigned tenant);
std::string user_name(const population& p, unsigned tenant, unsigned user);
std::string device_name(const population& p, unsigned tenant, unsigned user, unsigned device);

}  // namespace syncml::loadtest
