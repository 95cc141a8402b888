#include "src/server/http_client.hpp"

#include <memory>

#include "src/server/net.hpp"

namespace syncml::server {
namespace {

// What one exchange returns: the status, or the step that failed.
struct outcome {
    push::http_response response;
};

http::request<http::string_body> beast_request(const url_parts& url, const push::http_request& request) {
    http::request<http::string_body> out{http::string_to_verb(request.method), url.target, 11};
    out.set(http::field::host, url.host);
    out.set(http::field::user_agent, "syncml-server");
    for (const auto& [name, value] : request.headers) out.set(name, value);
    out.body() = request.body;
    out.prepare_payload();
    return out;
}

template <class Stream>
net::awaitable<void> write_and_read(Stream& stream, http::request<http::string_body> request,
                                    std::size_t max_response_bytes, std::shared_ptr<outcome> result) {
    error_code ec;
    co_await http::async_write(stream, request, net::redirect_error(net::use_awaitable, ec));
    if (ec) {
        result->response.error = "sending: " + ec.message();
        co_return;
    }
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(max_response_bytes);
    co_await http::async_read(stream, buffer, parser, net::redirect_error(net::use_awaitable, ec));
    if (ec) {
        result->response.error = "reading the answer: " + ec.message();
        co_return;
    }
    result->response.status = static_cast<int>(parser.get().result_int());
}

// One exchange; every step under the deadline of the stream.
net::awaitable<void> exchange(url_parts url, push::http_request request, std::chrono::milliseconds timeout,
                              std::size_t max_response_bytes, std::shared_ptr<outcome> result) {
    auto executor = co_await net::this_coro::executor;
    error_code ec;
    tcp::resolver resolver(executor);
    const auto endpoints =
        co_await resolver.async_resolve(url.host, url.port, net::redirect_error(net::use_awaitable, ec));
    if (ec) {
        result->response.error = "resolving " + url.host + ": " + ec.message();
        co_return;
    }
    auto message = beast_request(url, request);
    if (!url.tls) {
        beast::tcp_stream stream(executor);
        stream.expires_after(timeout);
        co_await stream.async_connect(endpoints, net::redirect_error(net::use_awaitable, ec));
        if (ec) {
            result->response.error = "connecting to " + url.host + ": " + ec.message();
            co_return;
        }
        co_await write_and_read(stream, std::move(message), max_response_bytes, result);
        stream.socket().shutdown(tcp::socket::shutdown_both, ec);
        co_return;
    }
    ssl::context context(ssl::context::tls_client);
    context.set_default_verify_paths();
    context.set_verify_mode(ssl::verify_peer);
    beast::ssl_stream<beast::tcp_stream> stream(executor, context);
    stream.set_verify_callback(ssl::host_name_verification(url.host));
    // SNI: gateways behind shared front ends pick their certificate by it.
    SSL_set_tlsext_host_name(stream.native_handle(), url.host.c_str());
    beast::get_lowest_layer(stream).expires_after(timeout);
    co_await beast::get_lowest_layer(stream).async_connect(endpoints, net::redirect_error(net::use_awaitable, ec));
    if (!ec) co_await stream.async_handshake(ssl::stream_base::client, net::redirect_error(net::use_awaitable, ec));
    if (ec) {
        result->response.error = "connecting to " + url.host + ": " + ec.message();
        co_return;
    }
    co_await write_and_read(stream, std::move(message), max_response_bytes, result);
}

}  // namespace

std::optional<url_parts> parse_http_url(std::string_view url) {
    url_parts out;
    if (url.starts_with("https://")) {
        out.tls = true;
        url.remove_prefix(8);
    } else if (url.starts_with("http://")) {
        url.remove_prefix(7);
    } else {
        return std::nullopt;
    }
    const auto path = url.find_first_of("/?");
    auto authority = url.substr(0, path);
    out.target = path == std::string_view::npos ? "/" : std::string(url.substr(path));
    if (out.target.front() == '?') out.target.insert(out.target.begin(), '/');
    if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;
    if (authority.front() == '[') {  // [IPv6]:port
        const auto end = authority.find(']');
        if (end == std::string_view::npos) return std::nullopt;
        out.host = std::string(authority.substr(1, end - 1));
        authority.remove_prefix(end + 1);
        if (!authority.empty() && authority.front() != ':') return std::nullopt;
    } else {
        const auto colon = authority.find(':');
        out.host = std::string(authority.substr(0, colon));
        authority.remove_prefix(colon == std::string_view::npos ? authority.size() : colon);
    }
    if (!authority.empty()) {
        out.port = std::string(authority.substr(1));
        if (out.port.empty() || out.port.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    } else {
        out.port = out.tls ? "443" : "80";
    }
    if (out.host.empty()) return std::nullopt;
    return out;
}

push::http_response blocking_http_client::send(const push::http_request& request) {
    const auto url = parse_http_url(request.url);
    if (!url) return {0, "not an http(s) URL"};
    net::io_context io;
    auto result = std::make_shared<outcome>();
    net::co_spawn(io, exchange(*url, request, timeout_, max_response_bytes_, result), [result](std::exception_ptr e) {
        if (!e) return;
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& error) {
            result->response.error = error.what();
        }
    });
    io.run();
    return result->response;
}

}  // namespace syncml::server
