// Issue 7 benchmark: a slow sync of N contacts into a datastore that already holds N (half of the incoming
// ones are the same people written differently), through the real engine and PostgreSQL store. Prints the
// time of the client's package 3 and the store calls per item, for N = each argument after the URL; then the
// phone takes package 4 to its end (Alert 222, then a Map of every Add), timed apart (issue 8).
// --receive: the phone sends nothing, so package 4 carries all N stored items (a new phone's first sync).
// --max-msg-size BYTES: the phone's MaxMsgSize (default none: the server's 1 MB).
//
// usage: match_bench DATABASE_URL [--receive] [--max-msg-size BYTES] [N ...]   (default N: 1000 10000)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "common/crypto/base64.hpp"
#include "matching/convert/item_convert.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/migrations.hpp"
#include "persistence/sync/sync_store.hpp"
#include "session/engine/engine.hpp"
#include "session/engine/state.hpp"
#include "session/protocol/auth.hpp"

namespace {

using namespace syncml;
using std::int64_t;

constexpr std::size_t k_items_per_message = 100;

std::string stored_contact(int i) {
    return "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Family" + std::to_string(i) + ";Given" + std::to_string(i) +
           ";;;\r\nFN:Given" + std::to_string(i) + " Family" + std::to_string(i) + "\r\nTEL;TYPE=CELL:+49 171 " +
           std::to_string(1000000 + i) + "\r\nEMAIL:p" + std::to_string(i) + "@example.org\r\nEND:VCARD\r\n";
}

// Even i: the stored person as a vCard 2.1 phone writes it ("Family, Given", national number, no email).
// Odd i: a person the server does not know.
std::string incoming_contact(int i) {
    std::string n = std::to_string(i);
    if (i % 2 == 0) {
        return "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Family" + n + ";Given" + n + "\r\nFN:Family" + n + ", Given" + n +
               "\r\nTEL;CELL:0171 " + std::to_string(1000000 + i) + "\r\nEND:VCARD\r\n";
    }
    return "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Other" + n + ";New" + n + "\r\nTEL;HOME:030 " +
           std::to_string(5000000 + i) + "\r\nEND:VCARD\r\n";
}

// Counts the engine's calls into the store (each is one to three SQL statements).
class counting_store final : public persistence::sync_store {
  public:
    explicit counting_store(persistence::sync_store& inner) : in_(inner) {}
    int64_t calls = 0;

#define SYNCML_FORWARD(ret, name, params, args) \
    ret name params override {                  \
        ++calls;                                \
        return in_.name args;                   \
    }
    SYNCML_FORWARD(persistence::device_record, device, (int64_t t, int64_t u, const std::string& d), (t, u, d))
    SYNCML_FORWARD(void, set_device_nonce, (int64_t t, int64_t d, const std::string& n), (t, d, n))
    SYNCML_FORWARD(void, set_device_devinf, (int64_t t, int64_t d, const std::string& n), (t, d, n))
    SYNCML_FORWARD(std::optional<persistence::session_record>, lock_session,
                   (int64_t t, const std::string& d, const std::string& s), (t, d, s))
    SYNCML_FORWARD(std::optional<persistence::session_record>, lock_session_by_key, (int64_t t, int64_t k), (t, k))
    SYNCML_FORWARD(int64_t, create_session, (int64_t t, const std::string& d, const std::string& s), (t, d, s))
    SYNCML_FORWARD(void, save_session, (int64_t t, const persistence::session_record& s), (t, s))
    SYNCML_FORWARD(std::optional<persistence::session_record>, open_message_session,
                   (int64_t t, const persistence::message_session& m), (t, m))
    SYNCML_FORWARD(int64_t, datastore, (int64_t t, int64_t u, persistence::item_kind k), (t, u, k))
    SYNCML_FORWARD(persistence::device_store_record, device_store,
                   (int64_t t, int64_t d, int64_t ds, const std::string& r), (t, d, ds, r))
    SYNCML_FORWARD(void, save_device_store, (int64_t t, const persistence::device_store_record& s), (t, s))
    SYNCML_FORWARD(std::vector<persistence::device_store_view>, device_store_views, (int64_t t, int64_t d), (t, d))
    SYNCML_FORWARD(void, require_slow_sync, (int64_t t, int64_t s), (t, s))
    SYNCML_FORWARD(persistence::item_record, add_item,
                   (int64_t t, int64_t ds, const std::string& c, const std::vector<std::string>& k), (t, ds, c, k))
    SYNCML_FORWARD(std::optional<persistence::item_record>, replace_item,
                   (int64_t t, int64_t ds, const std::string& g, const std::string& c,
                    const std::vector<std::string>& k),
                   (t, ds, g, c, k))
    SYNCML_FORWARD(std::optional<persistence::item_record>, delete_item, (int64_t t, int64_t ds, const std::string& g),
                   (t, ds, g))
    SYNCML_FORWARD(std::optional<persistence::item_record>, find_item, (int64_t t, int64_t ds, const std::string& g),
                   (t, ds, g))
    using written = std::vector<persistence::written_item>;
    SYNCML_FORWARD(written, write_items,
                   (int64_t t, int64_t ds, int64_t s, const std::vector<persistence::item_write>& w), (t, ds, s, w))
    SYNCML_FORWARD(std::vector<persistence::twin_candidate>, twin_candidates,
                   (int64_t t, int64_t ds, int64_t s, const std::vector<std::string>& k), (t, ds, s, k))
    SYNCML_FORWARD(int64_t, current_modseq, (int64_t t, int64_t ds), (t, ds))
    SYNCML_FORWARD(std::vector<persistence::change_record>, changes,
                   (int64_t t, int64_t s, int64_t a, int64_t u, bool d), (t, s, a, u, d))
    SYNCML_FORWARD(persistence::server_changes_record, server_changes,
                   (int64_t t, int64_t ds, int64_t s, bool w, bool f, bool d), (t, ds, s, w, f, d))
    SYNCML_FORWARD(std::vector<persistence::change_record>, held_items, (int64_t t, int64_t s), (t, s))
    SYNCML_FORWARD(std::vector<persistence::change_record>, change_page,
                   (int64_t t, int64_t ds, int64_t s, int64_t a, int64_t u, bool d, std::size_t l),
                   (t, ds, s, a, u, d, l))
    using outgoing = std::vector<persistence::outgoing_item>;
    SYNCML_FORWARD(outgoing, outgoing_items,
                   (int64_t t, int64_t ds, int64_t s, const std::vector<persistence::item_ref>& g, std::size_t b,
                    std::size_t o),
                   (t, ds, s, g, b, o))
    using delivered_items = std::vector<std::pair<persistence::item_ref, int64_t>>;
    SYNCML_FORWARD(void, record_delivery,
                   (int64_t t, int64_t ds, int64_t s, const delivered_items& h,
                    const std::vector<persistence::item_ref>& r),
                   (t, ds, s, h, r))
    SYNCML_FORWARD(int64_t, delete_unheld_items, (int64_t t, int64_t ds, int64_t s, int64_t u), (t, ds, s, u))
    SYNCML_FORWARD(std::optional<persistence::mapping_record>, mapping_of_luid,
                   (int64_t t, int64_t s, const std::string& l), (t, s, l))
    using luid_mappings = std::vector<persistence::luid_mapping>;
    SYNCML_FORWARD(luid_mappings, mappings_of_luids, (int64_t t, int64_t s, const std::vector<std::string>& l),
                   (t, s, l))
    SYNCML_FORWARD(std::optional<std::string>, confirmed_luid, (int64_t t, int64_t s, const std::string& g), (t, s, g))
    SYNCML_FORWARD(void, set_mapping, (int64_t t, int64_t s, const std::string& l, const std::string& g, int64_t m),
                   (t, s, l, g, m))
    SYNCML_FORWARD(void, touch_mapping, (int64_t t, int64_t s, const std::string& g, int64_t m), (t, s, g, m))
    SYNCML_FORWARD(void, remove_mapping, (int64_t t, int64_t s, const std::string& g), (t, s, g))
    SYNCML_FORWARD(void, unconfirm_mappings, (int64_t t, int64_t s), (t, s))
    using short_guids = std::vector<persistence::short_guid>;
    SYNCML_FORWARD(short_guids, short_guids_for, (int64_t t, int64_t s, const std::vector<std::string>& g), (t, s, g))
    SYNCML_FORWARD(short_guids, guids_of_short_ids, (int64_t t, int64_t s, const std::vector<std::string>& i),
                   (t, s, i))
    SYNCML_FORWARD(int64_t, user_stored_bytes, (int64_t t), (t))
    SYNCML_FORWARD(int64_t, live_items, (int64_t t, int64_t ds, int64_t l), (t, ds, l))
    SYNCML_FORWARD(void, append_chunk, (int64_t t, int64_t s, int64_t o, const std::string& d), (t, s, o, d))
    SYNCML_FORWARD(std::optional<std::string>, take_chunks, (int64_t t, int64_t s, int64_t n), (t, s, n))
    SYNCML_FORWARD(void, drop_chunks, (int64_t t, int64_t s), (t, s))
    SYNCML_FORWARD(common::conflict_policy, conflict_policy, (int64_t t), (t))
    SYNCML_FORWARD(std::string, token_secret, (), ())
#undef SYNCML_FORWARD

  private:
    persistence::sync_store& in_;
};

struct bench_user {
    int64_t tenant = 0, user = 0;
    std::string name;
};

bench_user prepare(persistence::database& db, int n) {
    bench_user u;
    u.name = "bench-" + std::to_string(n) + "-" +
             std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    auto info = persistence::add_user(db, persistence::default_tenant, u.name, "pw");
    u.tenant = info.tenant_id;
    u.user = info.id;
    for (int from = 0; from < n; from += 1000) {
        persistence::run_sync_transaction(db, [&](persistence::sync_store& s) {
            auto ds = s.datastore(u.tenant, u.user, common::item_kind::contact);
            // As slow syncs store items: one batch per transaction.
            std::vector<persistence::item_write> writes;
            for (int i = from; i < std::min(n, from + 1000); ++i) {
                auto content = stored_contact(i);
                auto parsed = matching::parse_canonical(content);
                writes.push_back(
                    {{}, content, matching::index_keys(content, parsed ? &*parsed : nullptr), {}, 0, false});
            }
            s.write_items(u.tenant, ds, 0, writes);
        });
    }
    return u;
}

struct bench_options {
    bool receive = false;
    std::uint64_t max_msg_size = 0;
};

session::message blank(const bench_user& u, int msg, const bench_options& opt) {
    session::message m;
    m.header.ver_dtd = "1.2";
    m.header.session_id = "1";
    m.header.msg_id = std::to_string(msg);
    m.header.target.loc_uri = "http://server/sync";
    m.header.source.loc_uri = "bench-phone-" + u.name;
    m.header.cred = session::credentials{session::meta_info{}, common::base64_encode(u.name + ":pw")};
    m.header.cred->meta->type = "syncml:auth-basic";
    if (opt.max_msg_size > 0) {
        m.header.meta = session::meta_info{};
        m.header.meta->max_msg_size = opt.max_msg_size;
    }
    m.body.final = true;
    return m;
}

session::message alert_message(const bench_user& u, const bench_options& opt) {
    auto m = blank(u, 1, opt);
    session::alert a;
    a.cmd_id = "1";
    a.data = "201";
    session::item it;
    it.target = session::location{"contacts", std::nullopt, std::nullopt};
    it.source = session::location{"./contacts", std::nullopt, std::nullopt};
    it.meta = session::meta_info{};
    it.meta->anchor = session::sync_anchor{"", "a1"};
    a.items.push_back(it);
    m.body.commands.push_back(session::command{a});
    return m;
}

session::message items_message(const bench_user& u, int msg, int from, int to, bool final, const bench_options& opt) {
    auto m = blank(u, msg, opt);
    m.body.final = final;
    session::sync s;
    s.cmd_id = "1";
    s.target = session::location{"contacts", std::nullopt, std::nullopt};
    s.source = session::location{"./contacts", std::nullopt, std::nullopt};
    for (int i = from; i < to; ++i) {
        session::item it;
        it.source = session::location{"L" + std::to_string(i), std::nullopt, std::nullopt};
        it.meta = session::meta_info{};
        it.meta->type = "text/x-vcard";
        it.data = session::item_data{incoming_contact(i), std::nullopt, std::nullopt};
        session::item_command c;
        c.cmd_id = std::to_string(i + 2);
        c.items.push_back(it);
        s.commands.push_back(session::command{session::add{c}});
    }
    m.body.commands.push_back(session::command{s});
    return m;
}

struct outcome {
    double seconds = 0;
    int64_t calls = 0;
    int64_t paired = 0, added = 0;  // Add statuses 200 and 201
    // Package 4: time, store calls and messages from the client's last Sync to the end of the session.
    double out_seconds = 0;
    int64_t out_calls = 0, out_messages = 0, received = 0;
    bool done = false;            // the session completed
    std::size_t state_bytes = 0;  // the largest session state stored after a message (the session row's `state`)
};

void count_statuses(const session::message& reply, outcome& o) {
    for (const auto& cmd : reply.body.commands) {
        const auto* s = std::get_if<session::status>(&cmd.value);
        if (!s || s->cmd != "Add") continue;
        if (s->data == "200") ++o.paired;
        if (s->data == "201") ++o.added;
    }
}

// The server's Adds in `reply`, each mapped to a new LUID as a phone that stores them answers.
void map_adds(const session::message& reply, session::map& mp, outcome& o) {
    for (const auto& cmd : reply.body.commands) {
        const auto* s = std::get_if<session::sync>(&cmd.value);
        if (!s) continue;
        for (const auto& inner : s->commands) {
            ++o.received;
            const auto* a = std::get_if<session::add>(&inner.value);
            if (a && a->items[0].source)
                mp.items.push_back({a->items[0].source->loc_uri, "P" + std::to_string(o.received)});
        }
    }
}

session::message more_message(const bench_user& u, int msg, const bench_options& opt) {
    auto m = blank(u, msg, opt);
    m.body.final = false;
    session::alert a;
    a.cmd_id = "1";
    a.data = "222";
    m.body.commands.push_back(session::command{a});
    return m;
}

session::message map_message(const bench_user& u, int msg, session::map mp, const bench_options& opt) {
    auto m = blank(u, msg, opt);
    mp.cmd_id = "1";
    mp.target = session::location{"contacts", std::nullopt, std::nullopt};
    mp.source = session::location{"./contacts", std::nullopt, std::nullopt};
    if (!mp.items.empty()) m.body.commands.push_back(session::command{std::move(mp)});
    return m;
}

class bench_session {
  public:
    bench_session(persistence::database& db, const bench_user& u, const bench_options& opt)
        : db_(db), u_(u), opt_(opt) {
        ctx_.tenant_id = u.tenant;
        ctx_.account = session::account_info{u.user, u.name, true, {}};
    }

    outcome run(int n) {
        send(alert_message(u_, opt_), nullptr);
        auto start = std::chrono::steady_clock::now();
        session::message reply;
        int sent = opt_.receive ? 0 : n;
        for (int from = 0; from < sent || from == 0; from += static_cast<int>(k_items_per_message)) {
            int to = std::min(sent, from + static_cast<int>(k_items_per_message));
            reply = send(items_message(u_, msg_++, from, to, to == sent, opt_), &o_.calls);
            count_statuses(reply, o_);
        }
        auto package4 = std::chrono::steady_clock::now();
        o_.seconds = std::chrono::duration<double>(package4 - start).count();
        session::map mp;
        map_adds(reply, mp, o_);
        for (o_.out_messages = 1; !reply.body.final; ++o_.out_messages) {
            reply = send(more_message(u_, msg_++, opt_), &o_.out_calls);
            map_adds(reply, mp, o_);
        }
        send(map_message(u_, msg_++, std::move(mp), opt_), &o_.out_calls);
        o_.out_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - package4).count();
        return o_;
    }

  private:
    session::message send(const session::message& m, int64_t* calls) {
        session::message reply;
        persistence::run_sync_transaction(db_, [&](persistence::sync_store& inner) {
            counting_store store(inner);
            auto device = store.device(u_.tenant, u_.user, m.header.source.loc_uri);
            auto out = session::process_message(m, state_, device, ctx_, store);
            // Through the encoding as sync_service stores it in the session row between messages.
            auto stored = session::encode_state(state_);
            o_.state_bytes = std::max(o_.state_bytes, stored.size());
            state_ = session::decode_state(stored).value();
            if (calls) *calls += store.calls;
            o_.done = o_.done || out.session_done;
            reply = std::move(out.reply);
        });
        return reply;
    }

    persistence::database& db_;
    const bench_user& u_;
    const bench_options& opt_;
    session::session_state state_;
    session::engine_context ctx_;
    outcome o_;
    int msg_ = 2;
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: match_bench DATABASE_URL [--receive] [--max-msg-size BYTES] [N ...]\n");
        return 2;
    }
    bench_options opt;
    std::vector<int> sizes;
    for (int i = 2; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--receive") {
            opt.receive = true;
        } else if (arg == "--max-msg-size" && i + 1 < argc) {
            opt.max_msg_size = std::stoull(argv[++i]);
        } else {
            sizes.push_back(std::stoi(arg));
        }
    }
    if (sizes.empty()) sizes = {1000, 10000};
    persistence::database db(argv[1]);
    persistence::apply_migrations(db);
    std::printf("%8s %8s %8s %10s %10s %18s %12s | %9s %8s %8s %10s %16s %12s\n", "items", "paired", "added", "seconds",
                "ms/item", "store calls/item", "x first run", "p4 items", "p4 msgs", "p4 s", "p4 ms/item",
                "p4 calls/item", "state bytes");
    double first = 0;
    for (int n : sizes) {
        auto u = prepare(db, n);
        auto o = bench_session(db, u, opt).run(n);
        if (first == 0) first = o.seconds;
        auto per = [&](double v) { return o.received > 0 ? v / static_cast<double>(o.received) : 0.0; };
        std::printf("%8d %8lld %8lld %10.2f %10.3f %18.2f %12.2f | %9lld %8lld %8.2f %10.3f %16.2f %12zu%s\n", n,
                    static_cast<long long>(o.paired), static_cast<long long>(o.added), o.seconds, 1000 * o.seconds / n,
                    static_cast<double>(o.calls) / n, o.seconds / first, static_cast<long long>(o.received),
                    static_cast<long long>(o.out_messages), o.out_seconds, per(1000 * o.out_seconds),
                    per(static_cast<double>(o.out_calls)), o.state_bytes, o.done ? "" : "  (NOT COMPLETED)");
    }
    return 0;
}
