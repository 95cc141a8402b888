// san-decode: a notification decoded by libsynthesis's SanPackage (test builds only: the integration tests read what
// a real SMS gateway delivered with it). Reads the notification as hex on stdin; prints its fields, one per line, and
// "digest ok" or "digest wrong" for the credentials given.
// Usage: san-decode SERVER_ID PASSWORD NONCE < hex
// As in san_libsynthesis_test.cpp, the credentials are hashed whole ("server-id:password"): libsynthesis's own
// B64_H drops the colon of an empty password, the specification does not.

#include <cstdio>
#include <cstring>
#include <iostream>
#include <list>
#include <string>
#include <vector>

// See san_libsynthesis_test.cpp: san.h's `byte` clashes with std::byte.
#define byte synthesis_byte
#include <synthesis/san.h>
#undef byte

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: san-decode SERVER_ID PASSWORD NONCE < hex\n";
        return 2;
    }
    std::string hex, bytes;
    std::cin >> hex;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
        bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    sysync::SanPackage san;
    std::string copy = bytes;
    if (san.PassSan(copy.data(), copy.size(), 2) != 0 || san.GetHeader() != 0) {
        std::cout << "not a notification\n";
        return 1;
    }
    std::cout << "version " << san.fProtocolVersion << "\nui_mode " << san.fUI_Mode << "\ninitiator " << san.fInitiator
              << "\nsession " << san.fSessionID << "\nserver_id " << san.fServerID << "\n";
    for (int nth = 1; nth <= san.fNSync; ++nth) {
        int type = 0;
        sysync::uInt32 content_type = 0;
        std::string uri;
        if (san.GetNthSync(nth, type, content_type, uri) != 0) return 1;
        std::cout << "sync " << type << " " << content_type << " " << uri << "\n";
    }
    sysync::SanPackage check;
    const auto hashed = check.B64_H(std::string(argv[1]) + ":" + argv[2]);
    copy = bytes;
    check.CreateDigest(hashed.c_str(), argv[3], copy.data(), copy.size());
    std::cout << (check.DigestOK(copy.data()) ? "digest ok" : "digest wrong") << "\n";
    return 0;
}
