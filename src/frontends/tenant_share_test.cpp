#include "src/frontends/tenant_share.hpp"

#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <spdlog/sinks/null_sink.h>

#include <atomic>
#include <future>

#include "session/engine/engine_metrics.hpp"
#include "src/frontends/sync_dispatch.hpp"

namespace syncml::server {
namespace {

struct quiet_observer : persistence::pool_observer {
    void queue_length(std::size_t) override {}
    void queue_wait(std::chrono::duration<double>) override {}
    void database_error() override {}
};

struct echo_handler : session::sync_handler {
    session::sync_response handle(const session::sync_request&, persistence::database&) override { return {}; }
};

session::sync_request for_tenant(const std::string& tenant) {
    session::sync_request request;
    request.tenant = tenant;
    return request;
}

TEST(tenant_share, caps_each_tenant_and_gives_slots_back) {
    tenant_share shares(5, 0.5);
    EXPECT_EQ(shares.cap(), 2u);
    EXPECT_TRUE(shares.try_acquire("acme"));
    EXPECT_TRUE(shares.try_acquire("acme"));
    EXPECT_FALSE(shares.try_acquire("acme"));
    EXPECT_TRUE(shares.try_acquire("other"));
    shares.release("acme");
    EXPECT_TRUE(shares.try_acquire("acme"));
    EXPECT_EQ(tenant_share(1, 0.1).cap(), 1u) << "every tenant may have one request in flight";
}

// One tenant flooding the server fills its share of the queue, not the whole queue: another tenant still gets in.
TEST(pool_dispatcher, one_tenant_cannot_take_the_whole_queue) {
    prometheus::Registry registry;
    session::engine_metrics metrics(registry);
    quiet_observer observer;
    echo_handler handler;
    spdlog::logger log{"test", std::make_shared<spdlog::sinks::null_sink_mt>()};
    // One thread and a queue of 7: 8 places, 4 per tenant at a share of one half.
    persistence::worker_pool pool({{"postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"}, 1, 7}, &observer);
    pool_dispatcher dispatcher(pool, handler, observer, log, &metrics, 0.5);
    std::promise<void> gate;
    auto opened = gate.get_future().share();
    ASSERT_TRUE(pool.try_submit([opened](persistence::database&) { opened.wait(); }));  // the worker waits
    std::atomic<int> completed{0};
    auto count = [&completed](sync_outcome) { ++completed; };
    int accepted = 0;
    for (int i = 0; i < 6; ++i) accepted += dispatcher.submit(for_tenant("flood"), count) ? 1 : 0;
    EXPECT_EQ(accepted, 4) << "the queue had room for 6";
    EXPECT_TRUE(dispatcher.submit(for_tenant("quiet"), count));
    gate.set_value();
    pool.stop();
    EXPECT_EQ(completed.load(), 5);
    double refused = 0;
    for (const auto& family : registry.Collect()) {
        if (family.name != "syncml_limit_refusals_total") continue;
        for (const auto& m : family.metric) {
            if (m.label.at(0).value == "worker_share") refused = m.counter.value;
        }
    }
    EXPECT_EQ(refused, 2);
}

}  // namespace
}  // namespace syncml::server
