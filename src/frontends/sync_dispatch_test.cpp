#include "src/frontends/sync_dispatch.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>

#include <cstdlib>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "persistence/pg/errors.hpp"

namespace syncml::server {
namespace {

struct counting_observer : persistence::pool_observer {
    void queue_length(std::size_t) override {}
    void queue_wait(std::chrono::duration<double>) override {}
    void database_error() override { ++errors; }
    std::atomic<int> errors{0};
};

// Answers by the request body: "ok", "bug" (throws), "lost" (retryable db_error), "bad-sql" (permanent db_error).
class scripted_handler : public session::sync_handler {
  public:
    session::sync_response handle(const session::sync_request& request, persistence::database&) override {
        if (request.body == "bug") throw std::logic_error("bug in engine");
        if (request.body == "lost") throw persistence::db_error("connection lost", true);
        if (request.body == "bad-sql") throw persistence::db_error("syntax error", false);
        session::sync_response response;
        response.body = "handled " + request.tenant;
        return response;
    }
};

class pool_dispatcher_test : public ::testing::Test {
  protected:
    sync_outcome run(const std::string& url, const std::string& body) {
        persistence::worker_pool pool({{url}, 1, 4}, &observer);
        pool_dispatcher dispatcher(pool, handler, observer, log, nullptr);
        std::promise<sync_outcome> result;
        session::sync_request request;
        request.tenant = "acme";
        request.body = body;
        EXPECT_TRUE(dispatcher.submit(request, [&result](sync_outcome outcome) { result.set_value(outcome); }));
        return result.get_future().get();
    }
    static std::string database_url() {
        const char* url = std::getenv("SYNCML_TEST_DATABASE_URL");
        return url != nullptr ? url : "";
    }

    counting_observer observer;
    scripted_handler handler;
    spdlog::logger log{"test", std::make_shared<spdlog::sinks::null_sink_mt>()};
};

TEST_F(pool_dispatcher_test, unreachable_database_is_reported_without_calling_the_handler) {
    // Port 1 on loopback refuses connections at once.
    auto outcome = run("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2", "ok");
    EXPECT_EQ(outcome.result, sync_outcome::kind::database_unavailable);
}

TEST_F(pool_dispatcher_test, handler_results_and_failures_become_outcomes) {
    if (database_url().empty()) GTEST_SKIP() << "SYNCML_TEST_DATABASE_URL not set";
    auto ok = run(database_url(), "ok");
    ASSERT_EQ(ok.result, sync_outcome::kind::answered);
    EXPECT_EQ(ok.response.body, "handled acme");
    auto bug = run(database_url(), "bug");
    EXPECT_EQ(bug.result, sync_outcome::kind::failed);
    EXPECT_EQ(bug.error, "bug in engine");
    EXPECT_EQ(run(database_url(), "lost").result, sync_outcome::kind::database_unavailable);
    EXPECT_EQ(run(database_url(), "bad-sql").result, sync_outcome::kind::failed);
    EXPECT_EQ(observer.errors.load(), 2);
}

TEST(pool_dispatcher, full_queue_refuses_the_request) {
    counting_observer observer;
    scripted_handler handler;
    spdlog::logger log{"test", std::make_shared<spdlog::sinks::null_sink_mt>()};
    persistence::worker_pool pool({{"postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"}, 1, 1}, &observer);
    pool_dispatcher dispatcher(pool, handler, observer, log, nullptr);
    std::promise<void> gate;
    auto opened = gate.get_future().share();
    // The single worker waits on the gate, so the queue (limit 1) fills after one more job.
    ASSERT_TRUE(pool.try_submit([opened](persistence::database&) { opened.wait(); }));
    int refused = 0;
    std::atomic<int> completed{0};
    for (int i = 0; i < 3; ++i) {
        if (!dispatcher.submit({}, [&completed](sync_outcome) { ++completed; })) ++refused;
    }
    EXPECT_GE(refused, 2);
    gate.set_value();
    pool.stop();
    EXPECT_EQ(completed.load() + refused, 3);
}

// A tenant that fills its whole share of the queue does not stand in front of another tenant: the pool takes the
// tenants in turn, so the other tenant's request runs after at most one of the flood's (issue 35).
TEST(pool_dispatcher, another_tenants_request_runs_next_while_one_tenant_floods) {
    counting_observer observer;
    scripted_handler handler;
    spdlog::logger log{"test", std::make_shared<spdlog::sinks::null_sink_mt>()};
    persistence::worker_pool pool({{"postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"}, 1, 256}, &observer);
    pool_dispatcher dispatcher(pool, handler, observer, log, nullptr);
    std::promise<void> gate;
    auto opened = gate.get_future().share();
    ASSERT_TRUE(pool.try_submit([opened](persistence::database&) { opened.wait(); }));  // the worker waits
    std::mutex mutex;
    std::vector<std::string> order;
    const auto record = [&](std::string tenant) {
        return [&, tenant](sync_outcome) {
            std::lock_guard lock(mutex);
            order.push_back(tenant);
        };
    };
    session::sync_request flood;
    flood.tenant = "flood";
    int queued = 0;
    while (dispatcher.submit(flood, record("flood"))) ++queued;
    EXPECT_EQ(queued, static_cast<int>(dispatcher.shares().cap()));
    session::sync_request quiet;
    quiet.tenant = "quiet";
    ASSERT_TRUE(dispatcher.submit(quiet, record("quiet")));
    gate.set_value();
    pool.stop();
    ASSERT_EQ(order.size(), static_cast<std::size_t>(queued) + 1);
    EXPECT_EQ(order[0], "flood");
    EXPECT_EQ(order[1], "quiet");
}

}  // namespace
}  // namespace syncml::server
