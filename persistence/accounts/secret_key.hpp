#pragma once
// The server key that encrypts the stored SyncML md5 secrets (b64(md5(user ":" password)) is a password
// equivalent: whoever reads it can log in with md5 auth). It lives outside the database so that a dump or a
// stolen backup of the database alone reveals nothing: SYNCML_SECRET_KEY (base64 of 32 random bytes, e.g.
// `openssl rand -base64 32`), else the key file (default <data_dir>/secret.key), created with mode 0600 when
// missing. Every instance of one database needs the same key.
//
// seal/unseal: AES-256-GCM with a random 96-bit nonce; the context (tenant and user) is authenticated, so a
// sealed value copied to another user's row does not open.

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace syncml::persistence {

class secret_key {
  public:
    static constexpr std::size_t size = 32;

    static secret_key generate();
    // Base64 of exactly 32 bytes (surrounding whitespace ignored); nullopt otherwise.
    static std::optional<secret_key> parse(std::string_view text);
    // Reads the key from the file, or creates the file (mode 0600, parent directories included) with a new key
    // when it does not exist. Throws std::runtime_error when the file cannot be read, written or parsed.
    static secret_key load_or_create(const std::string& path);
    // Reads the key from the file; nullopt when there is no file. Throws std::runtime_error when it cannot be read
    // or holds no key.
    static std::optional<secret_key> load(const std::string& path);

    // Writes the key to a new file (mode 0600, parent directories included) under a temporary name linked into
    // place, so that no reader sees half a key; false, writing nothing, when a file exists at path already.
    // Throws std::runtime_error when it cannot be written.
    bool create_file(const std::string& path) const;

    std::string to_base64() const;
    // Tells keys apart in logs and in the database's key check without revealing them.
    std::string fingerprint() const;
    const unsigned char* data() const { return bytes_.data(); }

  private:
    std::array<unsigned char, size> bytes_{};
};

// The key as configured: `text` (SYNCML_SECRET_KEY) when not empty, else the file `file`, else
// <data_dir>/secret.key. Throws std::runtime_error for a malformed key or an unusable file.
secret_key resolve_secret_key(const std::string& text, const std::string& file, const std::string& data_dir);

// Where the key file is: `file` when not empty, else <data_dir>/secret.key.
std::string secret_key_path(const std::string& file, const std::string& data_dir);

// version byte | 12-byte nonce | ciphertext | 16-byte tag.
std::string seal(const secret_key& key, std::string_view plaintext, std::string_view context);
// nullopt when the value was sealed with another key or context, or was altered.
std::optional<std::string> unseal(const secret_key& key, std::string_view sealed, std::string_view context);

}  // namespace syncml::persistence
