#include "loadtest/options.hpp"

#include <charconv>
#include <functional>
#include <map>

namespace syncml::loadtest {
namespace {

template <typename T>
bool parse_number(const std::string& text, T& out) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc{} && end == text.data() + text.size();
}

bool parse_double(const std::string& text, double& out) {
    try {
        std::size_t used = 0;
        out = std::stod(text, &used);
        return used == text.size();
    } catch (const std::exception&) {
        return false;
    }
}

using setter = std::function<bool(load_options&, const std::string&)>;

template <typename T>
setter number(T load_options::*field) {
    return [field](load_options& o, const std::string& v) { return parse_number(v, o.*field); };
}

template <typename T>
setter phone_number(T phone_settings::*field) {
    return [field](load_options& o, const std::string& v) { return parse_number(v, o.phone.*field); };
}

template <typename T>
setter people_number(T population::*field) {
    return [field](load_options& o, const std::string& v) {
        return parse_number(v, o.people.*field) && o.people.*field > 0;
    };
}

setter real(double load_options::*field) {
    return [field](load_options& o, const std::string& v) { return parse_double(v, o.*field) && o.*field >= 0; };
}

const std::map<std::string, setter>& value_options() {
    static const std::map<std::string, setter> table = {
        {"--url", [](load_options& o, const std::string& v) { return o.phone.base_url = v, true; }},
        {"--tenants", people_number(&population::tenants)},
        {"--users", people_number(&population::users)},
        {"--devices", people_number(&population::devices)},
        {"--prefix", [](load_options& o, const std::string& v) { return o.people.prefix = v, !v.empty(); }},
        {"--password", [](load_options& o, const std::string& v) { return o.people.password = v, !v.empty(); }},
        {"--items", phone_number(&phone_settings::first_items)},
        {"--adds", phone_number(&phone_settings::adds)},
        {"--replaces", phone_number(&phone_settings::replaces)},
        {"--deletes", phone_number(&phone_settings::deletes)},
        {"--max-msg-size", phone_number(&phone_settings::max_msg_size)},
        {"--encoding",
         [](load_options& o, const std::string& v) {
             o.phone.encoding = v == "xml" ? session::wire_encoding::xml : session::wire_encoding::wbxml;
             return v == "xml" || v == "wbxml";
         }},
        {"--auth",
         [](load_options& o, const std::string& v) {
             o.phone.auth = v == "md5" ? auth_kind::md5 : auth_kind::basic;
             return v == "md5" || v == "basic";
         }},
        {"--concurrency", number(&load_options::concurrency)},
        {"--rate", real(&load_options::rate)},
        {"--duration", real(&load_options::duration_s)},
        {"--sessions", number(&load_options::max_sessions)},
        {"--think-ms", real(&load_options::think_ms)},
        {"--timeout", real(&load_options::timeout_s)},
        {"--seed", number(&load_options::seed)},
        {"--stop-file", [](load_options& o, const std::string& v) { return o.stop_file = v, !v.empty(); }},
        {"--json", [](load_options& o, const std::string& v) { return o.json_path = v, true; }},
        {"--server", [](load_options& o, const std::string& v) { return o.server_binary = v, true; }},
        {"--server-pid",
         [](load_options& o, const std::string& v) {
             int pid = 0;
             o.server_pids.push_back(pid);
             return parse_number(v, o.server_pids.back()) && o.server_pids.back() > 0;
         }},
    };
    return table;
}

std::string validate(const load_options& o) {
    if (o.command == "accounts") return {};
    if (!parse_loopback_url(o.phone.base_url)) return "--url must be http://127.0.0.1:PORT/... (loopback only)";
    if (o.duration_s <= 0 || o.duration_s > 3600) return "--duration must be in (0, 3600] seconds";
    if (o.timeout_s <= 0 || o.timeout_s > 600) return "--timeout must be in (0, 600] seconds";
    if (o.mode == loop_mode::open && o.rate <= 0) return "--open needs --rate SESSIONS_PER_SECOND";
    if (o.concurrency > 5000 || o.people.phone_count() > 1'000'000) return "too many phones or threads";
    if (o.phone.max_msg_size < 4096) return "--max-msg-size must be at least 4096";
    return {};
}

}  // namespace

parse_outcome parse_options(const std::vector<std::string>& args) {
    parse_outcome out;
    auto& o = out.options;
    o.phone.base_url = "http://127.0.0.1:8080/sync";
    std::size_t i = 0;
    if (!args.empty() && (args[0] == "run" || args[0] == "accounts")) o.command = args[i++];
    for (; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            o.help = true;
        } else if (a == "--open") {
            o.mode = loop_mode::open;
        } else if (a == "--closed") {
            o.mode = loop_mode::closed;
        } else if (a == "--no-progress") {
            o.progress = false;
        } else if (a == "--no-get-devinf") {
            o.phone.get_devinf = false;
        } else if (a == "--execute") {
            o.execute = true;
        } else if (auto it = value_options().find(a); it != value_options().end()) {
            if (i + 1 == args.size()) return out.error = a + " needs a value", out;
            if (!it->second(o, args[++i])) return out.error = "bad value for " + a + ": " + args[i], out;
        } else {
            return out.error = "unknown argument: " + a, out;
        }
    }
    o.phone.exclusive_user = o.people.devices == 1;
    out.error = validate(o);
    return out;
}

std::string tenant_name(const population& p, unsigned tenant) { return p.prefix + "-t" + std::to_string(tenant); }

std::string user_name(const population& p, unsigned tenant, unsigned user) {
    return p.prefix + "-u" + std::to_string(tenant) + "-" + std::to_string(user);
}

std::string device_name(const population& p, unsigned tenant, unsigned user, unsigned device) {
    return p.prefix + "-t" + std::to_string(tenant) + "-u" + std::to_string(user) + "-d" + std::to_string(device);
}

std::string usage() {
    return R"(syncml-load: simulated phones running complete SyncML 1.2 sessions against a server on 127.0.0.1

  syncml-load [run] [options]        load run: every phone slow-syncs once (prepare phase), then the
                                     measured phase runs two-way syncs until --duration or --sessions
  syncml-load accounts [options]     print (or --execute) the `syncml-server admin` commands that create
                                     the tenants and users of the population

population:  --tenants T (1) --users U per tenant (10) --devices D per user (1) --prefix P (lt) --password PW (pw)
phones:      --url http://127.0.0.1:PORT/sync (tenant appended) --encoding wbxml|xml (wbxml) --auth basic|md5
             --items K (20, first slow sync) --adds A (2) --replaces R (2) --deletes D (1) per two-way sync
             --max-msg-size BYTES (150000) --no-get-devinf
load:        --closed (default; --concurrency N phones in flight, 0 = all) | --open --rate S sessions/s
             (--concurrency = worker threads) --duration SECONDS (30, max 3600) --sessions N --think-ms MS
             --timeout SECONDS (60) --seed N --stop-file PATH (the measured phase ends once PATH exists)
report:      --json FILE --server-pid PID (repeatable: RSS and CPU time from /proc) --no-progress
accounts:    --server PATH (syncml-server) --execute (run them; needs the server's database settings in the env)
)";
}

}  // namespace syncml::loadtest
