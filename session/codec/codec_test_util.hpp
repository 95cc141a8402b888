#pragma once
// Helpers shared by the codec tests: corpus file lists and reading.

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace syncml::session::test {

inline std::filesystem::path corpus_dir() { return SYNCML_CORPUS_DIR; }

inline std::string read_bytes(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Folders of SyncML traffic (SOURCES.md part A). Item payloads (vCard/iCal/SIF) are not messages.
inline std::vector<std::filesystem::path> message_files() {
    static const char* k_dirs[] = {
        "horde-xml-wbxml/doc/Horde/Xml/Wbxml/examples",
        "txsyncml/txsyncml/tests/fixtures",
        "devaspot-syncml/apps/simple_sync/test",
        "syncgw/test/mimedata/wbxml",
        "buteo-syncml/tests_meego/data",
        "funambol-cpp-client-api/test/testcases",
        "funambol-cpp-client-api/test/testcases/testLargeObject2",
        "wbxml-stream/src/test/examples/syncml10",
        "wbxml-stream/src/test/examples/syncml11",
        "wbxml-stream/src/test/examples/syncml12",
        "wbxml-stream/src/test/examples/devinf",
    };
    std::vector<std::filesystem::path> out;
    for (const char* dir : k_dirs) {
        for (const auto& entry : std::filesystem::directory_iterator(corpus_dir() / dir)) {
            if (!entry.is_regular_file()) continue;
            const auto ext = entry.path().extension().string();
            if (ext == ".vcf" || ext == ".ics") continue;
            out.push_back(entry.path());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

inline std::string relative_name(const std::filesystem::path& p) {
    return std::filesystem::relative(p, corpus_dir()).string();
}

}  // namespace syncml::session::test
