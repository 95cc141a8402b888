#pragma once
// The HTTP admin API without the HTTP: routing (admin_api_routes.hpp), bearer tokens, tenant scope, request bodies,
// the one place where failures become status codes with a JSON error body, the audit log and the request metrics.
// The front end (http_connection.cpp) hands it requests on the admin listener; database work runs on the worker
// pool, never on an io thread.

#include <functional>
#include <optional>
#include <string>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/registry.h>
#include <spdlog/logger.h>

#include "persistence/accounts/secret_key.hpp"
#include "src/admin/api/admin_api_handlers.hpp"
#include "src/admin/api/admin_api_routes.hpp"
#include "src/http/failure_reply.hpp"
#include "src/http/routing.hpp"

namespace syncml::persistence {
class database;
class worker_pool;
}  // namespace syncml::persistence

namespace syncml::server {

// Request bodies above this size are refused with 413 before they are read; the import routes take larger ones
// (admin_body_limit).
inline constexpr std::size_t k_admin_body_limit = 64 * 1024;
// The body limit of a request: k_admin_import_body_limit (admin_api_transfer.hpp) for an import, else
// k_admin_body_limit.
std::size_t admin_body_limit(std::string_view method, std::string_view target);

struct admin_api_request {
    std::string method;
    std::string target;  // path and query
    std::string content_type;
    std::string authorization;
    std::string body;
};

class admin_dispatcher {
  public:
    using completion = std::function<void(http_reply)>;
    virtual ~admin_dispatcher() = default;
    // The reply when the head alone decides it (the OpenAPI document, an unknown path or method, no token);
    // nullopt when the request needs the database: submit it.
    virtual std::optional<http_reply> answer_now(const admin_api_request& request) = 0;
    // False when the worker queue is full; done is then never called.
    virtual bool submit(admin_api_request request, completion done) = 0;
};

class admin_api : public admin_dispatcher {
  public:
    // md5_key seals the md5 secrets of the users it creates (null: the database's own key); `instance` is what
    // GET /admin/v1/status and the activity routes tell.
    admin_api(persistence::worker_pool& pool, prometheus::Registry& registry, spdlog::logger& log,
              std::optional<persistence::secret_key> md5_key, admin_instance instance = {});

    std::optional<http_reply> answer_now(const admin_api_request& request) override;
    bool submit(admin_api_request request, completion done) override;
    // What a worker does with a submitted request.
    http_reply answer(persistence::database& db, const admin_api_request& request);

  private:
    http_reply counted(const admin_route* route, http_reply reply);

    persistence::worker_pool& pool_;
    spdlog::logger& log_;
    std::optional<persistence::secret_key> md5_key_;
    admin_instance instance_;
    prometheus::Family<prometheus::Counter>& requests_;
};

// 415 for a write (POST, PUT, PATCH, DELETE) with a body that is not application/json: a web page can make a
// browser send text/plain or form bodies anywhere without asking first, never JSON. Imports take their own types
// (admin_api_transfer.hpp). nullopt when the request may go on.
std::optional<http_reply> refuse_body_type(const admin_api_request& request, const admin_route& route);

// {"error": message} or, naming the member at fault, {"error": message, "field": field}.
http_reply admin_error_reply(int status, const std::string& message, const std::string& field = {});

// The admin port's form of a refusal (failure_reply.hpp): the same status, words and Retry-After in a JSON error
// body. A body over the limit names the limit, since the import routes take larger ones (admin_body_limit).
http_reply admin_failure_reply(http_failure failure, std::size_t body_limit = k_admin_body_limit);

}  // namespace syncml::server
