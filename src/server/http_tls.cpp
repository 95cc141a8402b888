#include "src/server/http_tls.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

namespace syncml::server {
namespace {

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

// TLS 1.0/1.1 are broken or deprecated (RFC 8996); compression invites CRIME; client-initiated
// renegotiation is a CPU lever for an attacker and no SyncML client needs it.
void apply_protocol_settings(ssl::context& context) {
    context.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                        ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::no_compression |
                        ssl::context::single_dh_use);
    SSL_CTX* handle = context.native_handle();
    SSL_CTX_set_options(handle, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    if (SSL_CTX_set_min_proto_version(handle, TLS1_2_VERSION) != 1 ||
        SSL_CTX_set_cipher_list(handle, tls12_ciphers) != 1) {
        throw std::runtime_error("tls: OpenSSL refused the protocol or cipher settings");
    }
}

}  // namespace

std::shared_ptr<ssl::context> make_tls_context(const http_config& config) {
    check_readable("tls_cert", config.tls_cert);
    check_readable("tls_key", config.tls_key);
    auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
    apply_protocol_settings(*context);
    error_code ec;
    context->use_certificate_chain_file(config.tls_cert, ec);
    if (ec) throw std::runtime_error(tls_error("tls_cert", config.tls_cert, ec));
    context->use_private_key_file(config.tls_key, ssl::context::pem, ec);
    if (ec) throw std::runtime_error(tls_error("tls_key", config.tls_key, ec));
    if (SSL_CTX_check_private_key(context->native_handle()) != 1) {
        ERR_clear_error();
        throw std::runtime_error("tls_key " + config.tls_key + ": does not match the certificate in " +
                                 config.tls_cert);
    }
    return context;
}

std::optional<double> certificate_not_after(ssl::context& context) {
    X509* certificate = SSL_CTX_get0_certificate(context.native_handle());
    if (certificate == nullptr) return std::nullopt;
    std::tm when{};
    if (ASN1_TIME_to_tm(X509_get0_notAfter(certificate), &when) != 1) return std::nullopt;
    return static_cast<double>(timegm(&when));
}

bool tls_context_store::file_stamp::operator==(const file_stamp& other) const {
    return device == other.device && inode == other.inode && size == other.size &&
           modified.tv_sec == other.modified.tv_sec && modified.tv_nsec == other.modified.tv_nsec;
}

tls_context_store::tls_context_store(const http_config& config) : config_(config) {
    loaded_ = read_stamps();
    current_ = make_tls_context(config_);
    not_after_ = certificate_not_after(*current_);
}

// stat() follows symlinks, so a Kubernetes secret volume's atomic swap of its ..data link shows up as a new
// inode even when size and time happen to match.
tls_context_store::stamps tls_context_store::read_stamps() const {
    auto read = [](const std::string& path) {
        file_stamp stamp;
        struct stat info {};
        if (::stat(path.c_str(), &info) == 0) {
            stamp = {info.st_dev, info.st_ino, info.st_size, info.st_mtim};
        }
        return stamp;
    };
    return {read(config_.tls_cert), read(config_.tls_key)};
}

std::shared_ptr<ssl::context> tls_context_store::current() const {
    std::lock_guard lock(mutex_);
    return current_;
}

std::optional<double> tls_context_store::not_after() const {
    std::lock_guard lock(mutex_);
    return not_after_;
}

std::optional<std::string> tls_context_store::reload() {
    // Stamps first: a change while loading is seen by the next check instead of being lost.
    const stamps before = read_stamps();
    std::shared_ptr<ssl::context> fresh;
    std::optional<double> fresh_not_after;
    std::optional<std::string> error;
    try {
        fresh = make_tls_context(config_);
        fresh_not_after = certificate_not_after(*fresh);
    } catch (const std::exception& e) {
        error = e.what();
    }
    std::lock_guard lock(mutex_);
    loaded_ = before;
    if (fresh) {
        current_ = std::move(fresh);
        not_after_ = fresh_not_after;
    }
    return error;
}

bool tls_context_store::files_changed() const {
    const stamps now = read_stamps();
    std::lock_guard lock(mutex_);
    return !(now == loaded_);
}

}  // namespace syncml::server
