#pragma once
// The SyncML listener's TLS context: protocol floor and ciphers, and the certificate, replaceable while the
// server runs. Each new connection takes the current context; connections already open keep the one they
// started with (it lives as long as they hold it), so a reload drops nobody.

#include <sys/types.h>

#include <ctime>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "src/config/config.hpp"
#include "src/server/net.hpp"

namespace syncml::server {

// TLS 1.2 suites: ECDHE key exchange with AEAD ciphers only. TLS 1.3 keeps OpenSSL's defaults (all AEAD).
inline constexpr const char* tls12_ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

// A new server context with our settings and the configured certificate and key; throws std::runtime_error
// naming the file and OpenSSL's reason.
std::shared_ptr<ssl::context> make_tls_context(const http_config& config);

// The not-after time of the certificate a context serves, in seconds since the Unix epoch; nullopt when the
// context has no certificate.
std::optional<double> certificate_not_after(ssl::context& context);

class tls_context_store {
  public:
    // Loads the certificate; throws like make_tls_context.
    explicit tls_context_store(const http_config& config);

    std::shared_ptr<ssl::context> current() const;
    // certificate_not_after() of the current context (the one new connections get).
    std::optional<double> not_after() const;
    // Loads the files again. On success new connections get the new context; on failure the current one
    // stays and the error is returned.
    std::optional<std::string> reload();
    // True when either file was replaced or modified since the last (successful or failed) load.
    bool files_changed() const;

  private:
    struct file_stamp {
        dev_t device = 0;
        ino_t inode = 0;
        off_t size = 0;
        timespec modified{};
        bool operator==(const file_stamp& other) const;
    };
    struct stamps {
        file_stamp cert;
        file_stamp key;
        bool operator==(const stamps& other) const = default;
    };
    stamps read_stamps() const;

    const http_config& config_;
    mutable std::mutex mutex_;
    std::shared_ptr<ssl::context> current_;
    std::optional<double> not_after_;
    stamps loaded_;
};

}  // namespace syncml::server
