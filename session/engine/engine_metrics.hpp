#pragma once
// Prometheus families of the protocol engine, registered on the Registry main owns. Labels are
// bounded sets (modes, operations, outcomes): never device or user ids.

#include <chrono>
#include <string_view>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "session/engine/state.hpp"
#include "session/protocol/message.hpp"

namespace syncml::session {

class engine_metrics {
  public:
    explicit engine_metrics(prometheus::Registry& registry);
    engine_metrics(const engine_metrics&) = delete;
    engine_metrics& operator=(const engine_metrics&) = delete;

    enum class message_result { ok, resend, auth_failed, bad_request, unavailable };
    void message(message_result result, std::chrono::duration<double> duration);
    // A session completed (all stores synced); counts its items and slow syncs.
    void session_end(const session_state& state, std::chrono::duration<double> duration);

    // A conflict the engine decided (it finds this instance in engine_context::metrics).
    // policy: merge, server_wins, ...; resolution: merged, server_won, client_won, duplicated.
    void conflict(std::string_view policy, std::string_view resolution);
    // Every Status of a reply the server sends, by code (to be called once per encoded reply).
    void statuses_sent(const session::message& reply);

    // A request or item refused by a server or tenant limit.
    // client_address: a password check or session lookup refused because the client's address spent its budget, or
    // because too many password checks wait already (auth/login_guard.hpp).
    enum class limit {
        object_bytes,
        items_per_datastore,
        message_bytes,
        worker_share,
        devices_per_user,
        sessions,
        client_address,
        user_bytes
    };
    void limit_refused(limit which);

    // A later message of a session went on by what: its RespURI token, its credentials, or (a tenant's opt-in for
    // phones that ignore RespURI) its client address. Operators watch the last to see who relies on the opt-in.
    enum class continuation { token, credentials, address };
    void continued(continuation by);

  private:
    prometheus::Family<prometheus::Counter>& messages_;
    prometheus::Histogram& message_duration_;
    prometheus::Family<prometheus::Counter>& sessions_;
    prometheus::Family<prometheus::Counter>& items_;
    prometheus::Counter& slow_syncs_;
    prometheus::Counter& filtered_out_;
    prometheus::Counter& auth_failures_;
    prometheus::Histogram& session_duration_;
    prometheus::Family<prometheus::Counter>& conflicts_;
    prometheus::Family<prometheus::Counter>& statuses_;
    prometheus::Family<prometheus::Counter>& limit_refusals_;
    prometheus::Family<prometheus::Counter>& continuations_;
};

}  // namespace syncml::session
