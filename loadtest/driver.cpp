#include "loadtest/driver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <latch>
#include <mutex>
#include <thread>

namespace syncml::loadtest {
namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point start) { return std::chrono::duration<double>(clock_type::now() - start).count(); }

// Shared state of one load run.
struct run_context {
    const load_options& options;
    std::vector<std::unique_ptr<phone>>& phones;
    run_stats prepare;
    run_stats measured;
    std::atomic<bool> measuring{false};
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> started{0};
    clock_type::time_point deadline{};
    std::mutex mutex;
    std::condition_variable cv;
    std::deque<std::size_t> queue;  // open loop: phones due for a session
    std::vector<std::atomic<bool>> busy;

    run_context(const load_options& o, std::vector<std::unique_ptr<phone>>& p)
        : options(o), phones(p), busy(p.size()) {}

    bool may_start() {
        if (stop.load() || clock_type::now() >= deadline) return false;
        const auto limit = options.max_sessions;
        return limit == 0 || started.fetch_add(1) < limit;
    }
};

bool stop_requested(const load_options& options) {
    std::error_code ignored;
    return !options.stop_file.empty() && std::filesystem::exists(options.stop_file, ignored);
}

void think(run_context& ctx, std::mt19937_64& rng) {
    if (ctx.options.think_ms <= 0) return;
    std::exponential_distribution<double> pause(1.0 / ctx.options.think_ms);
    auto until = clock_type::now() + std::chrono::microseconds(static_cast<std::int64_t>(pause(rng) * 1000));
    until = std::min(until, ctx.deadline);
    std::unique_lock lock(ctx.mutex);
    ctx.cv.wait_until(lock, until, [&] { return ctx.stop.load(); });
}

void prepare_phones(run_context& ctx, http_client& http, std::size_t worker, std::size_t workers) {
    for (std::size_t i = worker; i < ctx.phones.size() && !ctx.stop.load(); i += workers) {
        ctx.phones[i]->run_session(http, ctx.prepare);
    }
}

void closed_worker(run_context& ctx, std::size_t worker, std::size_t workers, std::latch& prepared) {
    http_client http(std::chrono::milliseconds(static_cast<std::int64_t>(ctx.options.timeout_s * 1000)));
    prepare_phones(ctx, http, worker, workers);
    prepared.count_down();
    {
        std::unique_lock lock(ctx.mutex);
        ctx.cv.wait(lock, [&] { return ctx.measuring.load() || ctx.stop.load(); });
    }
    std::mt19937_64 rng(ctx.options.seed * 7919 + worker);
    // Paced phones start at random points of their first pause instead of all in the first instant, which
    // would measure one burst of every phone at once rather than the steady rate the pause gives.
    think(ctx, rng);
    while (true) {
        for (std::size_t i = worker; i < ctx.phones.size(); i += workers) {
            if (!ctx.may_start()) return;
            ctx.phones[i]->run_session(http, ctx.measured);
            think(ctx, rng);
        }
    }
}

void open_worker(run_context& ctx, std::size_t worker, std::size_t workers, std::latch& prepared) {
    http_client http(std::chrono::milliseconds(static_cast<std::int64_t>(ctx.options.timeout_s * 1000)));
    prepare_phones(ctx, http, worker, workers);
    prepared.count_down();
    while (true) {
        std::size_t index;
        {
            std::unique_lock lock(ctx.mutex);
            ctx.cv.wait(lock, [&] { return !ctx.queue.empty() || ctx.stop.load(); });
            if (ctx.queue.empty()) return;
            index = ctx.queue.front();
            ctx.queue.pop_front();
        }
        ctx.phones[index]->run_session(http, ctx.measured);
        ctx.busy[index].store(false);
    }
}

// Open loop: one session start per 1/rate seconds, whatever the server's speed; a start that finds every
// phone busy or the backlog full is counted as skipped instead of queueing without bound.
void dispatch_open_loop(run_context& ctx, std::size_t workers) {
    const auto interval = std::chrono::duration<double>(1.0 / ctx.options.rate);
    auto next = clock_type::now();
    std::size_t cursor = 0;
    while (ctx.may_start()) {
        std::this_thread::sleep_until(next);
        next += std::chrono::duration_cast<clock_type::duration>(interval);
        std::optional<std::size_t> pick;
        for (std::size_t n = 0; n < ctx.phones.size() && !pick; ++n, cursor = (cursor + 1) % ctx.phones.size()) {
            if (!ctx.busy[cursor].exchange(true)) pick = cursor;
        }
        std::lock_guard lock(ctx.mutex);
        if (!pick || ctx.queue.size() >= workers) {
            if (pick) ctx.busy[*pick].store(false);
            ctx.measured.skipped();
            continue;
        }
        ctx.queue.push_back(*pick);
        ctx.cv.notify_one();
    }
}

void print_progress(run_context& ctx, double seconds, std::uint64_t rss) {
    const bool measuring = ctx.measuring.load();
    const run_stats& s = measuring ? ctx.measured : ctx.prepare;
    const double done = static_cast<double>(s.sessions_ok() + s.sessions_failed());
    std::fprintf(stderr, "\r[%s %5.1fs] sessions %llu ok %llu failed (%.1f/s) msgs %llu errors %llu p99 %s %.0f ms",
                 measuring ? "run" : "prepare", seconds, static_cast<unsigned long long>(s.sessions_ok()),
                 static_cast<unsigned long long>(s.sessions_failed()), seconds > 0 ? done / seconds : 0.0,
                 static_cast<unsigned long long>(s.messages()), static_cast<unsigned long long>(s.errors()),
                 measuring ? "changes" : "init", s.recent_p99(measuring ? msg_kind::changes : msg_kind::init) * 1000);
    if (rss > 0) std::fprintf(stderr, " rss %.0f MB", static_cast<double>(rss) / 1048576.0);
    std::fprintf(stderr, "   ");
    std::fflush(stderr);
}

}  // namespace

std::vector<std::unique_ptr<phone>> make_phones(const load_options& options) {
    std::vector<std::unique_ptr<phone>> phones;
    const auto& p = options.people;
    for (unsigned t = 0; t < p.tenants; ++t) {
        for (unsigned u = 0; u < p.users; ++u) {
            for (unsigned d = 0; d < p.devices; ++d) {
                phone_identity id{tenant_name(p, t), user_name(p, t, u), p.password, device_name(p, t, u, d)};
                phones.push_back(std::make_unique<phone>(id, options.phone, options.seed * 1000003 + phones.size()));
            }
        }
    }
    return phones;
}

run_result run_load(const load_options& options) {
    auto phones = make_phones(options);
    run_context ctx(options, phones);
    std::size_t workers = options.concurrency == 0 ? phones.size() : std::min<std::size_t>(options.concurrency, 5000);
    if (options.mode == loop_mode::closed) workers = std::min(workers, phones.size());
    ctx.deadline = clock_type::time_point::max();
    std::latch prepared(static_cast<std::ptrdiff_t>(workers));
    std::vector<std::thread> threads;
    for (std::size_t w = 0; w < workers; ++w) {
        threads.emplace_back(options.mode == loop_mode::closed ? closed_worker : open_worker, std::ref(ctx), w, workers,
                             std::ref(prepared));
    }
    run_result result;
    const auto prepare_start = clock_type::now();
    std::uint64_t peak = 0;
    auto sample = [&](clock_type::time_point since_start) {
        auto usage = read_server_usage(options.server_pids);
        peak = std::max(peak, usage.rss_bytes);
        if (options.progress) print_progress(ctx, since(since_start), usage.rss_bytes);
    };
    while (!prepared.try_wait()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        if (static_cast<int>(since(prepare_start) * 5) % 5 == 0) sample(prepare_start);
    }
    result.prepare = ctx.prepare.make_report(since(prepare_start));
    if (options.progress) std::fprintf(stderr, "\n");
    result.usage_start = read_server_usage(options.server_pids);
    const auto start = clock_type::now();
    {
        std::lock_guard lock(ctx.mutex);
        ctx.deadline = start + std::chrono::milliseconds(static_cast<std::int64_t>(options.duration_s * 1000));
        ctx.measuring = true;
    }
    ctx.cv.notify_all();
    std::thread dispatcher;
    if (options.mode == loop_mode::open)
        dispatcher = std::thread([&] {
            dispatch_open_loop(ctx, workers);
            std::lock_guard lock(ctx.mutex);
            ctx.stop = true;
            ctx.cv.notify_all();
        });
    std::atomic<bool> finished{false};
    std::thread monitor([&] {
        while (!finished.load()) {
            sample(start);
            if (stop_requested(options)) {
                std::lock_guard lock(ctx.mutex);
                ctx.stop = true;
                ctx.cv.notify_all();
            }
            for (int i = 0; i < 10 && !finished.load(); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });
    if (dispatcher.joinable()) dispatcher.join();
    for (auto& t : threads) t.join();
    const double seconds = since(start);
    finished = true;
    monitor.join();
    if (options.progress) std::fprintf(stderr, "\n");
    result.measured = ctx.measured.make_report(seconds);
    result.usage_end = read_server_usage(options.server_pids);
    result.peak_rss_sampled = std::max(peak, result.usage_end.rss_bytes);
    return result;
}

}  // namespace syncml::loadtest
