// Listeners, io threads and graceful shutdown of the front end.
#include "src/http_server.hpp"

#include <atomic>
#include <csignal>
#include <stdexcept>
#include <thread>
#include <vector>

#include "persistence/log_value.hpp"
#include "src/http_internal.hpp"

#include <openssl/err.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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
            state->services.log.warn("accept failed error={}", persistence::log_value(ec.message()));
            pause.expires_after(accept_retry);
            co_await pause.async_wait(net::redirect_error(net::use_awaitable, ec));
            continue;
        }
        spawn_connection(std::move(socket), state, l->kind);
    }
}

// OpenSSL's reason ("no such file", "key values mismatch") says more than Asio's generic category message.
std::string tls_error(const std::string& what, const std::string& path, const error_code& ec) {
    const char* reason = ERR_reason_error_string(static_cast<unsigned long>(ec.value()));
    return what + " " + path + ": " + (reason != nullptr ? reason : ec.message());
}

void check_readable(const char* key, const std::string& path) {
    if (access(path.c_str(), R_OK) != 0) {
        throw std::runtime_error(std::string(key) + " " + path + ": " + std::strerror(errno));
    }
}

ssl::context make_tls_context(const http_config& config) {
    check_readable("tls_cert", config.tls_cert);
    check_readable("tls_key", config.tls_key);
    ssl::context context(ssl::context::tls_server);
    context.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                        ssl::context::single_dh_use);
    error_code ec;
    context.use_certificate_chain_file(config.tls_cert, ec);
    if (ec) throw std::runtime_error(tls_error("tls_cert", config.tls_cert, ec));
    context.use_private_key_file(config.tls_key, ssl::context::pem, ec);
    if (ec) throw std::runtime_error(tls_error("tls_key", config.tls_key, ec));
    return context;
}

}  // namespace

struct http_server::impl {
    impl(const server_config& config, http_services services)
        : ioc(static_cast<int>(config.http.io_threads)),
          state(std::make_shared<front_end_state>(config, services)),
          sync_listener(std::make_shared<listener>(ioc, listener_kind::sync)),
          metrics_listener(std::make_shared<listener>(ioc, listener_kind::metrics)),
          signals(ioc) {}

    void begin_drain();
    net::awaitable<void> drain();
    void spawn(net::awaitable<void> work, const char* what);

    net::io_context ioc;
    std::shared_ptr<front_end_state> state;
    std::shared_ptr<listener> sync_listener;
    std::shared_ptr<listener> metrics_listener;
    net::signal_set signals;
    std::atomic<bool> draining{false};
};

void http_server::impl::spawn(net::awaitable<void> work, const char* what) {
    auto& log = state->services.log;
    net::co_spawn(ioc, std::move(work), [&log, what](std::exception_ptr error) {
        if (!error) return;
        try {
            std::rethrow_exception(error);
        } catch (const std::exception& e) {
            log.error("{} failed error={}", what, persistence::log_value(e.what()));
        }
    });
}

void http_server::impl::begin_drain() {
    if (draining.exchange(true)) return;
    spawn(drain(), "shutdown");
}

net::awaitable<void> http_server::impl::drain() {
    auto& log = state->services.log;
    log.info("shutting down: no new connections, waiting for {} open", state->connections.size());
    for (auto l : {sync_listener, metrics_listener}) {
        net::post(l->acceptor.get_executor(), [l] {
            error_code ignored;
            l->acceptor.close(ignored);
        });
    }
    error_code ignored;
    signals.cancel(ignored);
    state->connections.begin_shutdown();
    const auto deadline = std::chrono::steady_clock::now() + state->config.shutdown_deadline;
    net::steady_timer timer(ioc);
    while (state->connections.size() > 0 && std::chrono::steady_clock::now() < deadline) {
        timer.expires_after(drain_poll);
        co_await timer.async_wait(net::redirect_error(net::use_awaitable, ignored));
    }
    if (state->connections.size() > 0) {
        log.warn("shutdown deadline reached, dropping {} connections", state->connections.size());
    }
    ioc.stop();
}

http_server::http_server(const server_config& config, http_services services)
    : impl_(std::make_unique<impl>(config, services)) {}

http_server::~http_server() = default;

void http_server::start() {
    const auto& config = impl_->state->config;
    if (config.http.tls_enabled()) impl_->state->tls.emplace(make_tls_context(config.http));
    bind(*impl_->sync_listener, impl_->ioc, config.http.listen);
    bind(*impl_->metrics_listener, impl_->ioc, config.metrics.listen);
    for (auto l : {impl_->sync_listener, impl_->metrics_listener}) {
        impl_->spawn(accept_loop(l, impl_->state), "accept loop");
    }
}

void http_server::run(bool handle_signals) {
    if (handle_signals) {
        impl_->signals.add(SIGINT);
        impl_->signals.add(SIGTERM);
        impl_->signals.async_wait([this](const error_code& ec, int signal) {
            if (ec) return;
            impl_->state->services.log.info("received signal={}", signal);
            impl_->begin_drain();
        });
    }
    std::vector<std::thread> threads;
    for (unsigned i = 1; i < impl_->state->config.http.io_threads; ++i) {
        threads.emplace_back([this] { impl_->ioc.run(); });
    }
    impl_->ioc.run();
    for (auto& thread : threads) thread.join();
}

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

}  // namespace syncml::server
