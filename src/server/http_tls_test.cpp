// HTTPS on the SyncML listener: protocol floor and ciphers, certificate reload on request and on file change.
#include "src/server/http_tls.hpp"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>

#include "src/server/http_test_support.hpp"

namespace syncml::server {
namespace {

using namespace http_testing;

// Written to a temporary name and renamed into place, as deployment tools and Kubernetes secrets do.
void write_atomically(const std::string& path, const std::function<void(FILE*)>& write) {
    const std::string temporary = path + ".new";
    FILE* file = std::fopen(temporary.c_str(), "w");
    ASSERT_NE(file, nullptr);
    write(file);
    std::fclose(file);
    std::filesystem::rename(temporary, path);
}

// A self-signed P-256 certificate whose subject CN names it, so a client can tell which one it was served; valid
// for an hour unless not_after (seconds since the epoch) is given.
void write_certificate(const std::string& common_name, const std::string& cert_path, const std::string& key_path,
                       std::optional<std::time_t> not_after = std::nullopt) {
    EVP_PKEY* key = EVP_EC_gen("P-256");
    X509* cert = X509_new();
    X509_set_version(cert, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert), 0);
    if (not_after) {
        ASN1_TIME_set(X509_getm_notAfter(cert), *not_after);
    } else {
        X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
    }
    X509_set_pubkey(cert, key);
    X509_NAME* name = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(common_name.c_str()),
                               -1, -1, 0);
    X509_set_issuer_name(cert, name);
    X509_sign(cert, key, EVP_sha256());
    write_atomically(cert_path, [cert](FILE* f) { PEM_write_X509(f, cert); });
    write_atomically(key_path, [key](FILE* f) { PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr); });
    X509_free(cert);
    EVP_PKEY_free(key);
}

// A blocking TLS client that accepts any certificate; max_version pins an old protocol to test the floor.
class tls_client {
  public:
    explicit tls_client(std::uint16_t port, int max_version = 0) {
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        timeval timeout{10, 0};
        setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        if (connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) ADD_FAILURE() << "connect";
        context_ = SSL_CTX_new(TLS_client_method());
        SSL_CTX_set_verify(context_, SSL_VERIFY_NONE, nullptr);
        if (max_version != 0) {
            // OpenSSL 3 refuses TLS < 1.2 itself above security level 0: lower it so the server has to refuse.
            SSL_CTX_set_security_level(context_, 0);
            SSL_CTX_set_cipher_list(context_, "DEFAULT:@SECLEVEL=0");
            SSL_CTX_set_min_proto_version(context_, max_version);
            SSL_CTX_set_max_proto_version(context_, max_version);
        }
        ssl_ = SSL_new(context_);
        SSL_set_fd(ssl_, fd_);
        connected_ = SSL_connect(ssl_) == 1;
        ERR_clear_error();
    }
    ~tls_client() {
        SSL_free(ssl_);
        SSL_CTX_free(context_);
        close(fd_);
    }
    tls_client(const tls_client&) = delete;
    tls_client& operator=(const tls_client&) = delete;

    bool connected() const { return connected_; }
    std::string peer_name() const {
        X509* cert = SSL_get1_peer_certificate(ssl_);
        if (cert == nullptr) return {};
        char name[256] = {};
        X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, name, sizeof name);
        X509_free(cert);
        return name;
    }
    // Sends one request and returns the status of its response (0 when the connection failed).
    int status_of(const std::string& request) {
        if (!connected_ || SSL_write(ssl_, request.data(), static_cast<int>(request.size())) <= 0) return 0;
        std::string received;
        char chunk[4096];
        std::size_t end = std::string::npos;
        while ((end = received.find("\r\n\r\n")) == std::string::npos) {
            const int n = SSL_read(ssl_, chunk, sizeof chunk);
            if (n <= 0) return 0;
            received.append(chunk, static_cast<std::size_t>(n));
        }
        const auto length_at = received.find("Content-Length: ");
        const std::size_t length = length_at == std::string::npos ? 0 : std::stoul(received.substr(length_at + 16));
        while (received.size() < end + 4 + length) {
            const int n = SSL_read(ssl_, chunk, sizeof chunk);
            if (n <= 0) return 0;
            received.append(chunk, static_cast<std::size_t>(n));
        }
        return std::stoi(received.substr(9, 3));
    }

  private:
    int fd_ = -1;
    SSL_CTX* context_ = nullptr;
    SSL* ssl_ = nullptr;
    bool connected_ = false;
};

class http_tls : public ::testing::Test {
  protected:
    void SetUp() override {
        std::signal(SIGPIPE, SIG_IGN);  // a refused handshake may leave the client writing to a closed socket
        char pattern[] = "/tmp/syncml-tls-test-XXXXXX";
        ASSERT_NE(mkdtemp(pattern), nullptr);
        directory_ = pattern;
        cert_ = directory_ + "/cert.pem";
        key_ = directory_ + "/key.pem";
        write_certificate("cert-a", cert_, key_);
    }
    void TearDown() override { std::filesystem::remove_all(directory_); }

    server_config tls_config() const {
        server_config config = test_config();
        config.http.tls_cert = cert_;
        config.http.tls_key = key_;
        config.http.tls_reload_interval = std::chrono::milliseconds(0);
        return config;
    }

    std::string directory_;
    std::string cert_;
    std::string key_;
};

TEST_F(http_tls, context_has_a_tls_1_2_floor_aead_ciphers_no_compression_and_no_renegotiation) {
    const auto context = make_tls_context(tls_config().http);
    SSL_CTX* handle = context->native_handle();
    EXPECT_EQ(SSL_CTX_get_min_proto_version(handle), TLS1_2_VERSION);
    EXPECT_NE(SSL_CTX_get_options(handle) & SSL_OP_NO_COMPRESSION, 0u);
    EXPECT_NE(SSL_CTX_get_options(handle) & SSL_OP_NO_RENEGOTIATION, 0u);
    STACK_OF(SSL_CIPHER)* ciphers = SSL_CTX_get_ciphers(handle);
    ASSERT_GT(sk_SSL_CIPHER_num(ciphers), 0);
    for (int i = 0; i < sk_SSL_CIPHER_num(ciphers); ++i) {
        const SSL_CIPHER* cipher = sk_SSL_CIPHER_value(ciphers, i);
        const int kx = SSL_CIPHER_get_kx_nid(cipher);
        EXPECT_TRUE(kx == NID_kx_ecdhe || kx == NID_kx_any) << SSL_CIPHER_get_name(cipher);  // any: TLS 1.3
        EXPECT_TRUE(SSL_CIPHER_is_aead(cipher)) << SSL_CIPHER_get_name(cipher);
    }
}

TEST_F(http_tls, a_tls_1_1_client_is_refused_and_a_current_one_served) {
    running_server s(tls_config());
    tls_client old(s.server.sync_port(), TLS1_1_VERSION);
    EXPECT_FALSE(old.connected());
    tls_client current(s.server.sync_port());
    ASSERT_TRUE(current.connected());
    EXPECT_EQ(current.status_of(get("/healthz")), 200);
}

TEST_F(http_tls, reload_gives_new_connections_the_new_certificate_and_keeps_open_ones) {
    running_server s(tls_config());
    tls_client before(s.server.sync_port());
    ASSERT_TRUE(before.connected());
    EXPECT_EQ(before.peer_name(), "cert-a");
    EXPECT_EQ(before.status_of(get("/healthz")), 200);

    write_certificate("cert-b", cert_, key_);
    EXPECT_TRUE(s.server.reload_tls());
    tls_client after(s.server.sync_port());
    ASSERT_TRUE(after.connected());
    EXPECT_EQ(after.peer_name(), "cert-b");
    EXPECT_EQ(after.status_of(get("/healthz")), 200);
    EXPECT_EQ(before.status_of(get("/healthz")), 200);  // the open connection was not dropped
    EXPECT_TRUE(s.logged("tls certificate reloaded"));
}

TEST_F(http_tls, a_bad_new_certificate_keeps_the_old_one_and_logs_an_error) {
    running_server s(tls_config());
    write_atomically(cert_, [](FILE* f) { std::fputs("-----BEGIN CERTIFICATE-----\nnonsense\n", f); });
    EXPECT_FALSE(s.server.reload_tls());
    EXPECT_TRUE(s.logged("tls reload failed, keeping the current certificate"));
    // A valid certificate with somebody else's key is just as bad.
    const std::string other_key = directory_ + "/other-key.pem";
    write_certificate("cert-b", cert_, other_key);
    EXPECT_FALSE(s.server.reload_tls());
    tls_client c(s.server.sync_port());
    ASSERT_TRUE(c.connected());
    EXPECT_EQ(c.peer_name(), "cert-a");
    EXPECT_EQ(c.status_of(get("/healthz")), 200);
}

TEST_F(http_tls, changed_files_are_reloaded_without_a_signal) {
    server_config config = tls_config();
    config.http.tls_reload_interval = std::chrono::milliseconds(20);
    running_server s(config);
    write_certificate("cert-b", cert_, key_);
    // The watch runs on its own schedule: bounded by a number of attempts, not by time.
    std::string served;
    for (int attempt = 0; attempt < 250 && served != "cert-b"; ++attempt) {
        tls_client c(s.server.sync_port());
        served = c.peer_name();
        if (served != "cert-b") std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_EQ(served, "cert-b");
}

constexpr std::time_t jan_1_2030 = 1893456000;
constexpr std::time_t jan_1_2031 = 1924992000;

std::string scrape(std::uint16_t metrics_port) {
    client c(metrics_port);
    return c.request(get("/metrics")).body;
}

TEST_F(http_tls, not_after_is_the_loaded_certificates_and_changes_only_with_a_successful_reload) {
    write_certificate("cert-a", cert_, key_, jan_1_2030);
    const server_config config = tls_config();
    tls_context_store store(config.http);
    EXPECT_EQ(store.not_after(), static_cast<double>(jan_1_2030));
    write_certificate("cert-b", cert_, key_, jan_1_2031);
    EXPECT_EQ(store.reload(), std::nullopt);
    EXPECT_EQ(store.not_after(), static_cast<double>(jan_1_2031));
    const std::string other_key = directory_ + "/other-key.pem";
    write_certificate("cert-c", cert_, other_key, jan_1_2030);
    EXPECT_NE(store.reload(), std::nullopt);
    EXPECT_EQ(store.not_after(), static_cast<double>(jan_1_2031));  // still serving cert-b
}

TEST_F(http_tls, metrics_export_the_served_certificates_expiry_and_follow_a_reload) {
    write_certificate("cert-a", cert_, key_, jan_1_2030);
    running_server s(tls_config());
    EXPECT_NE(scrape(s.server.metrics_port()).find("\nsyncml_tls_certificate_expiry_timestamp_seconds 1893456000\n"),
              std::string::npos)
        << scrape(s.server.metrics_port());
    write_certificate("cert-b", cert_, key_, jan_1_2031);
    ASSERT_TRUE(s.server.reload_tls());
    EXPECT_NE(scrape(s.server.metrics_port()).find("\nsyncml_tls_certificate_expiry_timestamp_seconds 1924992000\n"),
              std::string::npos);
}

TEST_F(http_tls, without_tls_the_expiry_metric_is_declared_without_a_sample) {
    running_server s(test_config());
    const std::string text = scrape(s.server.metrics_port());
    EXPECT_NE(text.find("# TYPE syncml_tls_certificate_expiry_timestamp_seconds gauge\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("\nsyncml_tls_certificate_expiry_timestamp_seconds"), std::string::npos) << text;
}

}  // namespace
}  // namespace syncml::server
