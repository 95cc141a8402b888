#include "persistence/pg/worker_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <latch>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

using worker_pool_test = testing::database_test;

struct counting_observer : pool_observer {
    std::atomic<int> lengths{0};
    std::atomic<int> waits{0};
    std::atomic<int> errors{0};
    std::atomic<std::size_t> max_length{0};
    void queue_length(std::size_t length) override {
        ++lengths;
        auto seen = max_length.load();
        while (length > seen && !max_length.compare_exchange_weak(seen, length)) {
        }
    }
    void queue_wait(std::chrono::duration<double>) override { ++waits; }
    void database_error() override { ++errors; }
};

TEST_F(worker_pool_test, gives_every_worker_the_profile_it_was_built_with) {
    auto profile = std::make_shared<database_profile>(false);
    std::atomic<int> shared{0};
    {
        worker_pool pool({{url()}, 2, 10}, nullptr, profile);
        for (int i = 0; i < 4; ++i) {
            ASSERT_TRUE(pool.try_submit([&](database& db) { shared += &db.profile() == profile.get() ? 1 : 0; }));
        }
    }
    EXPECT_EQ(shared, 4);
}

TEST_F(worker_pool_test, runs_jobs_on_each_threads_own_connection) {
    counting_observer observer;
    std::mutex mutex;
    std::set<int> pids;
    std::atomic<int> done{0};
    {
        worker_pool pool({{url()}, 3, 100}, &observer);
        EXPECT_EQ(pool.threads(), 3u);
        for (int i = 0; i < 30; ++i) {
            ASSERT_TRUE(pool.try_submit([&](database& db) {
                const int pid = in_transaction(db, [](pqxx::work& tx) {
                    tx.exec("SELECT pg_sleep(0.005)");
                    return tx.exec1("SELECT pg_backend_pid()")[0].as<int>();
                });
                std::lock_guard lock(mutex);
                pids.insert(pid);
                ++done;
            }));
        }
    }  // the destructor drains the queue
    EXPECT_EQ(done, 30);
    EXPECT_GE(pids.size(), 2u);
    EXPECT_LE(pids.size(), 3u);
    EXPECT_EQ(observer.waits, 30);
    EXPECT_EQ(observer.errors, 0);
}

TEST(worker_pool, refuses_jobs_beyond_the_queue_limit) {
    // No database needed: jobs here never touch it (the unreachable URL fails fast).
    counting_observer observer;
    worker_pool pool({{"postgresql://nobody@127.0.0.1:1/none"}, 1, 2}, &observer);
    std::promise<void> started;
    std::promise<void> release;
    auto gate = release.get_future().share();
    std::atomic<int> ran{0};
    ASSERT_TRUE(pool.try_submit([&](database&) {
        started.set_value();
        gate.wait();
        ++ran;
    }));
    started.get_future().wait();
    EXPECT_TRUE(pool.try_submit([&](database&) { ++ran; }));
    EXPECT_TRUE(pool.try_submit([&](database&) { ++ran; }));
    EXPECT_EQ(pool.queue_length(), 2u);
    EXPECT_FALSE(pool.try_submit([&](database&) { ++ran; }));
    EXPECT_EQ(observer.max_length, 2u);
    release.set_value();
    pool.stop();
    EXPECT_EQ(ran, 3);
    EXPECT_FALSE(pool.try_submit([&](database&) { ++ran; }));
    // Each job found the database unreachable.
    EXPECT_EQ(observer.errors, 3);
}

// One key's backlog does not stand in front of another key's job (issue 35), and stop() still runs every job.
// An observer that is slow to record the first length of one: the submitting thread is still in queue_length(1)
// when the worker could take the job and report 0.
struct slow_first_observer : pool_observer {
    std::mutex mutex;
    std::vector<std::size_t> lengths;
    bool slowed = false;
    void queue_length(std::size_t length) override {
        bool slow = false;
        {
            std::lock_guard lock(mutex);
            slow = length == 1 && !std::exchange(slowed, true);
        }
        if (slow) std::this_thread::sleep_for(std::chrono::milliseconds(200));
        std::lock_guard lock(mutex);
        lengths.push_back(length);
    }
    void queue_wait(std::chrono::duration<double>) override {}
    void database_error() override {}
};

// The gauge of an idle server read 1 until the next job: the submitter reported its length after the worker had
// reported the shorter one.
TEST(worker_pool, reports_an_empty_queue_last_once_its_job_was_taken) {
    slow_first_observer observer;
    std::promise<void> ran;
    {
        worker_pool pool({{"postgresql://nobody@127.0.0.1:1/none"}, 1, 10}, &observer);
        ASSERT_TRUE(pool.try_submit([&](database&) { ran.set_value(); }));
        ran.get_future().wait();
    }
    std::lock_guard lock(observer.mutex);
    ASSERT_FALSE(observer.lengths.empty());
    EXPECT_EQ(observer.lengths.back(), 0u);
}

TEST(worker_pool, serves_the_keys_of_queued_jobs_in_turn) {
    worker_pool pool({{"postgresql://nobody@127.0.0.1:1/none"}, 1, 200});
    std::promise<void> started;
    std::promise<void> release;
    auto gate = release.get_future().share();
    ASSERT_TRUE(pool.try_submit([&](database&) {
        started.set_value();
        gate.wait();
    }));
    started.get_future().wait();
    std::mutex mutex;
    std::vector<std::string> order;
    const auto record = [&](std::string name) {
        return [&, name](database&) {
            std::lock_guard lock(mutex);
            order.push_back(name);
        };
    };
    for (int i = 0; i < 100; ++i) ASSERT_TRUE(pool.try_submit("flood", record("flood")));
    ASSERT_TRUE(pool.try_submit("quiet", record("quiet")));
    ASSERT_TRUE(pool.try_submit(record("keyless")));
    EXPECT_EQ(pool.queue_length(), 102u);
    release.set_value();
    pool.stop();
    ASSERT_EQ(order.size(), 102u);
    EXPECT_EQ(std::vector<std::string>(order.begin(), order.begin() + 3),
              (std::vector<std::string>{"flood", "quiet", "keyless"}));
}

TEST(worker_pool, survives_jobs_that_throw) {
    counting_observer observer;
    std::atomic<int> ran{0};
    {
        worker_pool pool({{"postgresql://nobody@127.0.0.1:1/none"}, 1, 10}, &observer);
        pool.try_submit([](database&) { throw std::runtime_error("bug"); });
        pool.try_submit([](database&) { throw 42; });
        pool.try_submit([](database& db) { in_transaction(db, [](pqxx::work& tx) { tx.exec("SELECT 1"); }); });
        pool.try_submit([&](database&) { ++ran; });
    }
    EXPECT_EQ(ran, 1);
    // Four jobs found the database unreachable; the one that then failed with a db_error is not
    // counted twice.
    EXPECT_EQ(observer.errors, 4);
}

// Two workers, two targets: each worker holds one job at the same time (the latch), so both connections show.
TEST_F(worker_pool_test, spreads_its_workers_over_the_database_targets) {
    const auto named = [&](const std::string& name) {
        return url() + (url().find('?') == std::string::npos ? "?" : "&") + "application_name=" + name;
    };
    std::mutex mutex;
    std::set<std::string> seen;
    std::latch both(2);
    {
        worker_pool pool({{named("node-a"), named("node-b")}, 2, 10});
        for (int i = 0; i < 2; ++i) {
            ASSERT_TRUE(pool.try_submit([&](database& db) {
                both.arrive_and_wait();
                auto name = in_transaction(db, [](pqxx::work& tx) {
                    return tx.exec1("SELECT current_setting('application_name')")[0].as<std::string>();
                });
                std::lock_guard lock(mutex);
                seen.insert(name);
            }));
        }
    }
    EXPECT_EQ(seen, (std::set<std::string>{"node-a", "node-b"}));
}

TEST_F(worker_pool_test, counts_database_errors_that_escape_jobs) {
    counting_observer observer;
    {
        worker_pool pool({{url()}, 1, 10}, &observer);
        pool.try_submit([](database& db) { in_transaction(db, [](pqxx::work& tx) { tx.exec("SELEC 1"); }); });
        pool.try_submit([](database& db) { in_transaction(db, [](pqxx::work& tx) { tx.exec("SELECT 1"); }); });
    }
    EXPECT_EQ(observer.errors, 1);
}

TEST_F(worker_pool_test, recovers_when_its_connections_were_terminated) {
    worker_pool pool({{url()}, 1, 10});
    auto run = [&](auto fn) {
        std::promise<int> result;
        pool.try_submit([&](database& db) {
            try {
                result.set_value(fn(db));
            } catch (...) {
                result.set_exception(std::current_exception());
            }
        });
        return result.get_future().get();
    };
    auto pid_of = [](database& db) {
        return in_transaction(db, [](pqxx::work& tx) { return tx.exec1("SELECT pg_backend_pid()")[0].as<int>(); });
    };
    const int first = run(pid_of);
    database killer(url());
    in_transaction(killer, [&](pqxx::work& tx) { tx.exec_params("SELECT pg_terminate_backend($1, 10000)", first); });
    const int second = run(pid_of);
    EXPECT_NE(first, second);
}

}  // namespace
}  // namespace syncml::persistence
