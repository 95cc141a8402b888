// Listeners, io threads and graceful shutdown of the front end.
#include "src/server/http_server.hpp"

#include <atomic>
#include <csignal>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/log/log_event.hpp"
#include "src/server/http_internal.hpp"

namespace syncml::server {
namespace {

constexpr auto drain_poll = std::chrono::milliseconds(20);
constexpr auto accept_retry = std::chrono::milliseconds(100);

struct listener {
    listener(net::io_context& ioc, listener_kind kind_) : acceptor(net::make_strand(ioc)), kind(kind_) {}
    tcp::acceptor acceptor;
    listener_kind kind;
};

tcp::endpoint resolve(net::io_context& ioc, const endpoint& where) {
    error_code ec;
    auto address = net::ip::make_address(where.host, ec);
    if (!ec) return {address, where.port};
    tcp::resolver resolver(ioc);
    auto results = resolver.resolve(where.host, std::to_string(where.port), ec);
    if (ec || results.empty())
        throw std::runtime_error("cannot resolve " + format_endpoint(where) + ": " + ec.message());
    return results.begin()->endpoint();
}

void bind(listener& l, net::io_context& ioc, const endpoint& where) {
    const tcp::endpoint local = resolve(ioc, where);
    error_code ec;
    l.acceptor.open(local.protocol(), ec);
    if (!ec) l.acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) l.acceptor.bind(local, ec);
    if (!ec) l.acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec) throw std::runtime_error("cannot listen on " + format_endpoint(where) + ": " + ec.message());
}

net::awaitable<void> accept_loop(std::shared_ptr<listener> l, std::shared_ptr<front_end_state> state) {
    auto& ioc = static_cast<net::io_context&>(l->acceptor.get_executor().context());
    net::steady_timer pause(co_await net::this_coro::executor);
    while (l->acceptor.is_open()) {
        error_code ec;
        tcp::socket socket =
            co_await l->acceptor.async_accept(net::make_strand(ioc), net::redirect_error(net::use_awaitable, ec));
        if (ec == net::error::operation_aborted || !l->acceptor.is_open()) break;
        if (ec) {
            // Typically out of file descriptors: back off instead of spinning.
            common::log_event(state->services.log, spdlog::level::warn, "accept failed", {{"error", ec.message()}});
            pause.expires_after(accept_retry);
            co_await pause.async_wait(net::redirect_error(net::use_awaitable, ec));
            continue;
        }
        // Each answer goes out in one write: Nagle would only hold back the tail of a large one until the
        // client's delayed ACK (40 ms on Linux).
        socket.set_option(tcp::no_delay(true), ec);
        spawn_connection(std::move(socket), state, l->kind);
    }
}

}  // namespace

struct http_server::impl {
    impl(const server_config& config, http_services services)
        : ioc(static_cast<int>(config.http.io_threads)),
          state(std::make_shared<front_end_state>(config, services)),
          sync_listener(std::make_shared<listener>(ioc, listener_kind::sync)),
          metrics_listener(std::make_shared<listener>(ioc, listener_kind::metrics)),
          admin_listener(std::make_shared<listener>(ioc, listener_kind::admin)),
          control(net::make_strand(ioc)),
          signals(control),
          tls_watch(control) {}

    void begin_drain();
    net::awaitable<void> drain();
    void spawn(net::any_io_executor where, net::awaitable<void> work, const char* what);
    bool reload_tls(const char* why);
    net::awaitable<void> watch_signals();
    net::awaitable<void> watch_tls_files();

    net::io_context ioc;
    std::shared_ptr<front_end_state> state;
    std::shared_ptr<listener> sync_listener;
    std::shared_ptr<listener> metrics_listener;
    std::shared_ptr<listener> admin_listener;  // bound only when the admin API is configured
    // Signals and the certificate watch run on one strand, so drain() can cancel them from any thread.
    net::strand<net::io_context::executor_type> control;
    net::signal_set signals;
    net::steady_timer tls_watch;
    std::atomic<bool> draining{false};
};

void http_server::impl::spawn(net::any_io_executor where, net::awaitable<void> work, const char* what) {
    auto& log = state->services.log;
    net::co_spawn(where, std::move(work), [&log, what](std::exception_ptr error) {
        if (!error) return;
        try {
            std::rethrow_exception(error);
        } catch (const std::exception& e) {
            common::log_event(log, spdlog::level::err, "task failed", {{"task", what}, {"error", e.what()}});
        }
    });
}

void http_server::impl::begin_drain() {
    if (draining.exchange(true)) return;
    spawn(ioc.get_executor(), drain(), "shutdown");
}

net::awaitable<void> http_server::impl::drain() {
    auto& log = state->services.log;
    common::log_event(log, spdlog::level::info, "shutting down: no new connections, waiting for the open ones",
                      {{"open", state->open_connections()}});
    for (auto l : {sync_listener, metrics_listener, admin_listener}) {
        net::post(l->acceptor.get_executor(), [l] {
            error_code ignored;
            l->acceptor.close(ignored);
        });
    }
    net::post(control, [this] {
        error_code ignored;
        signals.cancel(ignored);
        tls_watch.cancel();
    });
    error_code ignored;
    state->sync_connections.begin_shutdown();
    state->metrics_connections.begin_shutdown();
    state->admin_connections.begin_shutdown();
    const auto deadline = std::chrono::steady_clock::now() + state->config.shutdown_deadline;
    net::steady_timer timer(ioc);
    while (state->open_connections() > 0 && std::chrono::steady_clock::now() < deadline) {
        timer.expires_after(drain_poll);
        co_await timer.async_wait(net::redirect_error(net::use_awaitable, ignored));
    }
    if (state->open_connections() > 0) {
        common::log_event(log, spdlog::level::warn, "shutdown deadline reached, dropping connections",
                          {{"open", state->open_connections()}});
    }
    ioc.stop();
}

// Old connections keep the context they started with; a certificate that does not load leaves the current one
// in place, so a bad deploy of the files never takes HTTPS down.
bool http_server::impl::reload_tls(const char* why) {
    auto& log = state->services.log;
    if (!state->tls) {
        common::log_event(log, spdlog::level::info, "tls reload requested: TLS is off, nothing to reload",
                          {{"trigger", why}});
        return false;
    }
    if (auto error = state->tls->reload()) {
        common::log_event(log, spdlog::level::err, "tls reload failed, keeping the current certificate",
                          {{"trigger", why}, {"error", *error}});
        return false;
    }
    common::log_event(log, spdlog::level::info, "tls certificate reloaded",
                      {{"trigger", why}, {"cert", state->config.http.tls_cert}});
    return true;
}

net::awaitable<void> http_server::impl::watch_signals() {
    for (;;) {
        error_code ec;
        const int signal = co_await signals.async_wait(net::redirect_error(net::use_awaitable, ec));
        if (ec) co_return;
        common::log_event(state->services.log, spdlog::level::info, "received signal", {{"signal", signal}});
        if (signal != SIGHUP) break;
        reload_tls("SIGHUP");
    }
    begin_drain();
}

net::awaitable<void> http_server::impl::watch_tls_files() {
    for (;;) {
        error_code ec;
        tls_watch.expires_after(state->config.http.tls_reload_interval);
        co_await tls_watch.async_wait(net::redirect_error(net::use_awaitable, ec));
        if (ec || draining) co_return;
        if (state->tls->files_changed()) reload_tls("file change");
    }
}

http_server::http_server(const server_config& config, http_services services)
    : impl_(std::make_unique<impl>(config, services)) {}

http_server::~http_server() = default;

void http_server::start() {
    const auto& config = impl_->state->config;
    if (config.http.tls_enabled()) impl_->state->tls = std::make_unique<tls_context_store>(config.http);
    bind(*impl_->sync_listener, impl_->ioc, config.http.listen);
    bind(*impl_->metrics_listener, impl_->ioc, config.metrics.listen);
    std::vector<std::shared_ptr<listener>> listeners{impl_->sync_listener, impl_->metrics_listener};
    if (config.admin.listen) {
        if (impl_->state->services.admin == nullptr) throw std::runtime_error("admin_listen set without an admin API");
        bind(*impl_->admin_listener, impl_->ioc, *config.admin.listen);
        listeners.push_back(impl_->admin_listener);
    }
    for (const auto& l : listeners) {
        impl_->spawn(impl_->ioc.get_executor(), accept_loop(l, impl_->state), "accept loop");
    }
    if (impl_->state->tls && config.http.tls_reload_interval.count() > 0) {
        impl_->spawn(impl_->control, impl_->watch_tls_files(), "tls file watch");
    }
}

void http_server::run(bool handle_signals) {
    if (handle_signals) {
        impl_->signals.add(SIGINT);
        impl_->signals.add(SIGTERM);
        impl_->signals.add(SIGHUP);
        impl_->spawn(impl_->control, impl_->watch_signals(), "signal handling");
    }
    std::vector<std::thread> threads;
    for (unsigned i = 1; i < impl_->state->config.http.io_threads; ++i) {
        threads.emplace_back([this] { impl_->ioc.run(); });
    }
    impl_->ioc.run();
    for (auto& thread : threads) thread.join();
}

bool http_server::reload_tls() { return impl_->reload_tls("request"); }

void http_server::stop() {
    net::post(impl_->ioc, [this] { impl_->begin_drain(); });
}

std::uint16_t http_server::sync_port() const {
    error_code ec;
    return impl_->sync_listener->acceptor.local_endpoint(ec).port();
}

std::uint16_t http_server::metrics_port() const {
    error_code ec;
    return impl_->metrics_listener->acceptor.local_endpoint(ec).port();
}

std::uint16_t http_server::admin_port() const {
    error_code ec;
    return impl_->admin_listener->acceptor.is_open() ? impl_->admin_listener->acceptor.local_endpoint(ec).port() : 0;
}

}  // namespace syncml::server
