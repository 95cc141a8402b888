// libFuzzer target: the whole message handler, as a request from the Internet meets it: decode, then the
// session engine (process_message) against the in-memory store, reply encoded, session state saved and
// loaded between messages. An input is up to k_max_messages messages split at k_separator, all of one
// session, so that the fuzzer reaches the states after authentication (the account accepts any basic
// Cred). It must never crash, hang or allocate without bound; it asserts nothing about the replies.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "session/codec/codec.hpp"
#include "session/engine/engine.hpp"
#include "session/engine/fake_sync_store.hpp"
#include "session/engine/state.hpp"

namespace {

using namespace syncml::session;

constexpr std::string_view k_separator = "\n#--#\n";
constexpr std::size_t k_max_messages = 6;

std::vector<std::string_view> split_messages(std::string_view bytes) {
    std::vector<std::string_view> out;
    while (out.size() + 1 < k_max_messages) {
        const auto at = bytes.find(k_separator);
        if (at == std::string_view::npos) break;
        out.push_back(bytes.substr(0, at));
        bytes.remove_prefix(at + k_separator.size());
    }
    out.push_back(bytes);
    return out;
}

engine_context context_for(std::int64_t now_ms) {
    engine_context ctx;
    ctx.tenant_id = 1;
    ctx.account = account_info{7, "u1", true, {}};
    ctx.now_ms = now_ms;
    ctx.make_nonce = [n = 0]() mutable { return "nonce" + std::to_string(++n); };
    ctx.max_obj_size = 64 * 1024;  // large objects assembled across messages stay small
    ctx.max_items_per_datastore = 1000;
    return ctx;
}

// One message through decode and the engine, as the service runs it: the session row is found by the
// header's device and SessionID, its state decoded, the reply encoded, the new state stored.
void handle(std::string_view bytes, testing::fake_sync_store& store, std::int64_t now_ms) {
    decode_limits limits;
    limits.max_input_bytes = 1 << 20;
    auto decoded = decode(bytes, limits);
    if (!decoded) {
        const auto& err = decoded.error();
        if (err.header && err.encoding) {
            auto reply = error_reply(*err.header, err.version.value_or(syncml_version::v1_2), *err.encoding, 400);
            (void)encode(reply, *err.encoding);
        }
        return;
    }
    const auto& in = decoded.value();
    const auto& uri = in.header.source.loc_uri;
    auto record = store.lock_session(1, uri, in.header.session_id);
    if (!record) {
        record = syncml::persistence::session_record{};
        record->id = store.create_session(1, uri, in.header.session_id);
        record->session_id = in.header.session_id;
        record->device_uri = uri;
    }
    auto state = decode_state(record->state);
    if (!state) return;
    auto device = store.device(1, 7, uri);
    auto outcome = process_message(in, *state, device, context_for(now_ms), store);
    (void)encode(outcome.reply, in.encoding);
    record->user_id = state->user_id;
    record->state = encode_state(*state);
    store.save_session(1, *record);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    testing::fake_sync_store store;
    std::int64_t now_ms = 1'000'000;
    for (auto message : split_messages(bytes)) {
        handle(message, store, now_ms);
        now_ms += 1000;
    }
    return 0;
}
