#include "session/engine/engine.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "session/codec/codec.hpp"
#include "session/engine/fake_sync_store.hpp"

namespace syncml::session {
namespace {

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// Every SyncML message of the corpus, authenticated or not, gets a reply that encodes and answers the
// SyncHdr: the engine never throws on real-world input.
TEST(engine_corpus, answers_every_corpus_message_with_a_well_formed_reply) {
    std::size_t messages = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(SYNCML_CORPUS_DIR)) {
        auto ext = entry.path().extension();
        if (!entry.is_regular_file() || (ext != ".xml" && ext != ".wbxml")) continue;
        auto decoded = decode(read_file(entry.path()));
        if (!decoded) continue;
        for (bool authenticated : {false, true}) {
            testing::fake_sync_store store;
            session_state state;
            state.authenticated = authenticated;
            state.user_id = authenticated ? 7 : 0;
            auto device = store.device(1, 7, decoded.value().header.source.loc_uri);
            engine_context ctx;
            ctx.tenant_id = 1;
            engine_outcome outcome;
            ASSERT_NO_THROW(outcome = process_message(decoded.value(), state, device, ctx, store)) << entry.path();
            ASSERT_FALSE(outcome.reply.body.commands.empty()) << entry.path();
            auto* hdr = std::get_if<status>(&outcome.reply.body.commands.front().value);
            ASSERT_TRUE(hdr) << entry.path();
            EXPECT_EQ(hdr->cmd, "SyncHdr");
            auto bytes = encode(outcome.reply, decoded.value().encoding);
            EXPECT_TRUE(decode(bytes)) << entry.path();
        }
        ++messages;
    }
    EXPECT_GT(messages, 20u);
}

}  // namespace
}  // namespace syncml::session
