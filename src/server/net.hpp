#pragma once
// The only header that includes Asio and Beast, so no other file spells boost::asio or boost::beast.
// <utility> comes first: Boost 1.74's coroutine support needs std::exchange declared before Asio's headers.
#include <utility>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

namespace syncml::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace ssl = boost::asio::ssl;
using tcp = boost::asio::ip::tcp;
using error_code = boost::system::error_code;

}  // namespace syncml::server
