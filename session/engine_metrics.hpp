#pragma once
// Prometheus families of the protocol engine, registered on the Registry main owns. Labels are
// bounded sets (modes, operations, outcomes): never device or user ids.

#include <chrono>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "session/state.hpp"

namespace syncml::session {

class engine_metrics {
  public:
    explicit engine_metrics(prometheus::Registry& registry);

    enum class message_result { ok, resend, auth_failed, bad_request, unavailable };
    void message(message_result result, std::chrono::duration<double> duration);
    // A session completed (all stores synced); counts its items and slow syncs.
    void session_end(const session_state& state, std::chrono::duration<double> duration);

  private:
    prometheus::Family<prometheus::Counter>& messages_;
    prometheus::Histogram& message_duration_;
    prometheus::Family<prometheus::Counter>& sessions_;
    prometheus::Family<prometheus::Counter>& items_;
    prometheus::Counter& slow_syncs_;
    prometheus::Counter& auth_failures_;
    prometheus::Histogram& session_duration_;
};

}  // namespace syncml::session
