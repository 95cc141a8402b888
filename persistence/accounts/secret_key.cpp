#include "persistence/accounts/secret_key.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "common/crypto/base64.hpp"
#include "common/crypto/digest.hpp"
#include "common/text/trim.hpp"

namespace syncml::persistence {
namespace {

constexpr unsigned char k_version = 1;
constexpr std::size_t k_nonce_bytes = 12;
constexpr std::size_t k_tag_bytes = 16;

using cipher_context = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

cipher_context new_context() {
    cipher_context ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
    if (!ctx) throw std::runtime_error("cannot allocate a cipher context");
    return ctx;
}

const unsigned char* bytes(std::string_view text) { return reinterpret_cast<const unsigned char*>(text.data()); }
unsigned char* bytes(std::string& text) { return reinterpret_cast<unsigned char*>(text.data()); }
std::string_view text_of(const secret_key& key) {
    return {reinterpret_cast<const char*>(key.data()), secret_key::size};
}

// Written under a temporary name and linked into place: two processes starting on a fresh data directory must
// neither each keep a key of their own nor read a half-written file. False when the file existed already.
bool create_key_file(const std::string& path, const std::string& text) {
    const auto parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
    const std::string temporary = path + ".new." + std::to_string(::getpid());
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) throw std::runtime_error("cannot create the secret key file " + path + ": " + std::strerror(errno));
    const std::string line = text + "\n";
    const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
    const bool synced = ::fsync(fd) == 0;
    ::close(fd);
    const bool linked = written && synced && ::link(temporary.c_str(), path.c_str()) == 0;
    const int link_error = errno;
    std::filesystem::remove(temporary);
    if (linked) return true;
    if (written && synced && link_error == EEXIST) return false;
    throw std::runtime_error("cannot write the secret key file " + path);
}

}  // namespace

secret_key secret_key::generate() {
    secret_key key;
    if (RAND_bytes(key.bytes_.data(), static_cast<int>(key.bytes_.size())) != 1) {
        throw std::runtime_error("no random bytes for a secret key");
    }
    return key;
}

std::optional<secret_key> secret_key::parse(std::string_view text) {
    const auto decoded = common::base64_decode(common::trim(text, common::k_white_space));
    if (!decoded || decoded->size() != size) return std::nullopt;
    secret_key key;
    std::memcpy(key.bytes_.data(), decoded->data(), size);
    return key;
}

secret_key secret_key::load_or_create(const std::string& path) {
    if (!std::filesystem::exists(path)) {
        auto key = generate();
        if (key.create_file(path)) return key;
    }
    auto key = load(path);
    if (!key) throw std::runtime_error("the secret key file " + path + " disappeared while it was read");
    return *key;
}

std::optional<secret_key> secret_key::load(const std::string& path) {
    // Only a file that is not there is no key; one that is there but cannot be read is an error.
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0 && (errno == ENOENT || errno == ENOTDIR)) return std::nullopt;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) throw std::runtime_error("cannot read the secret key file " + path);
    auto key = parse(text.str());
    if (!key) throw std::runtime_error("the secret key file " + path + " does not hold base64 of 32 bytes");
    return key;
}

bool secret_key::create_file(const std::string& path) const { return create_key_file(path, to_base64()); }

std::string secret_key::to_base64() const { return common::base64_encode(text_of(*this)); }

std::string secret_key::fingerprint() const {
    const auto mac = common::hmac_sha256(text_of(*this), "syncml secret key fingerprint");
    return common::base64_encode(std::string_view(mac).substr(0, 12));
}

secret_key resolve_secret_key(const std::string& text, const std::string& file, const std::string& data_dir) {
    if (!text.empty()) {
        auto key = secret_key::parse(text);
        if (!key) throw std::runtime_error("secret_key must be base64 of 32 bytes (openssl rand -base64 32)");
        return *key;
    }
    return secret_key::load_or_create(secret_key_path(file, data_dir));
}

std::string secret_key_path(const std::string& file, const std::string& data_dir) {
    return file.empty() ? (std::filesystem::path(data_dir) / "secret.key").string() : file;
}

std::string seal(const secret_key& key, std::string_view plaintext, std::string_view context) {
    std::string out(1 + k_nonce_bytes + plaintext.size() + k_tag_bytes, '\0');
    out[0] = static_cast<char>(k_version);
    unsigned char* nonce = bytes(out) + 1;
    if (RAND_bytes(nonce, k_nonce_bytes) != 1) throw std::runtime_error("no random bytes for a nonce");
    auto ctx = new_context();
    unsigned char* cipher = nonce + k_nonce_bytes;
    int length = 0;
    if (EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key.data(), nonce) != 1 ||
        EVP_EncryptUpdate(ctx.get(), nullptr, &length, bytes(context), static_cast<int>(context.size())) != 1 ||
        EVP_EncryptUpdate(ctx.get(), cipher, &length, bytes(plaintext), static_cast<int>(plaintext.size())) != 1 ||
        EVP_EncryptFinal_ex(ctx.get(), cipher + length, &length) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, k_tag_bytes, cipher + plaintext.size()) != 1) {
        throw std::runtime_error("AES-256-GCM encryption failed");
    }
    return out;
}

std::optional<std::string> unseal(const secret_key& key, std::string_view sealed, std::string_view context) {
    if (sealed.size() < 1 + k_nonce_bytes + k_tag_bytes || static_cast<unsigned char>(sealed[0]) != k_version) {
        return std::nullopt;
    }
    const auto nonce = sealed.substr(1, k_nonce_bytes);
    const auto cipher = sealed.substr(1 + k_nonce_bytes, sealed.size() - 1 - k_nonce_bytes - k_tag_bytes);
    std::string tag(sealed.substr(sealed.size() - k_tag_bytes));
    std::string plain(cipher.size(), '\0');
    auto ctx = new_context();
    int length = 0;
    if (EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key.data(), bytes(nonce)) != 1 ||
        EVP_DecryptUpdate(ctx.get(), nullptr, &length, bytes(context), static_cast<int>(context.size())) != 1 ||
        EVP_DecryptUpdate(ctx.get(), bytes(plain), &length, bytes(cipher), static_cast<int>(cipher.size())) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, k_tag_bytes, tag.data()) != 1) {
        return std::nullopt;
    }
    // The final step checks the tag: a wrong key, context or altered byte fails here.
    if (EVP_DecryptFinal_ex(ctx.get(), bytes(plain) + length, &length) != 1) return std::nullopt;
    return plain;
}

}  // namespace syncml::persistence
