// Throughput of the SyncML codec on a ~150 KB Sync message carrying 100 vCard contacts, and of
// libwbxml2's converters on the same message for comparison (when built with libwbxml2).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "session/codec/codec.hpp"

#ifdef SYNCML_BENCH_LIBWBXML2
#include <wbxml/wbxml.h>
#endif

namespace {

using namespace syncml::session;

std::string contact(int i) {
    std::string v = "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Name" + std::to_string(i) + ";Given;;;\r\nFN:Given Name" +
                    std::to_string(i) + "\r\nTEL;CELL:+49 170 " + std::to_string(1000000 + i) +
                    "\r\nEMAIL;INTERNET:given.name" + std::to_string(i) + "@example.com\r\nADR;HOME:;;Street " +
                    std::to_string(i) + ";Town;;12345;Country\r\nNOTE:";
    // Padding so 100 contacts make a ~150 KB message, like a phone's first slow sync.
    for (int k = 0; k < 24; ++k) v += "Notes & <remarks> about the contact, line " + std::to_string(k) + ". ";
    v += "\r\nEND:VCARD\r\n";
    return v;
}

const message& sample() {
    static const message msg = [] {
        message m;
        m.version = syncml_version::v1_2;
        m.header.ver_dtd = "1.2";
        m.header.ver_proto = "SyncML/1.2";
        m.header.session_id = "1234";
        m.header.msg_id = "3";
        m.header.target.loc_uri = "http://sync.example.com/sync";
        m.header.source.loc_uri = "IMEI:490154203237518";
        syncml::session::sync s;
        s.cmd_id = "2";
        s.target = location{"./contacts", std::nullopt, std::nullopt};
        s.source = location{"./C:Contacts.cdb", std::nullopt, std::nullopt};
        s.number_of_changes = 100;
        for (int i = 0; i < 100; ++i) {
            add a;
            a.cmd_id = std::to_string(3 + i);
            a.meta = meta_info{};
            a.meta->type = "text/x-vcard";
            item it;
            it.source = location{std::to_string(1000 + i), std::nullopt, std::nullopt};
            it.data = item_data{contact(i), std::nullopt, std::nullopt};
            a.items.push_back(std::move(it));
            s.commands.push_back(command{std::move(a)});
        }
        m.body.commands.push_back(command{std::move(s)});
        m.body.final = true;
        return m;
    }();
    return msg;
}

void decode_bench(benchmark::State& state, wire_encoding e) {
    const auto bytes = encode(sample(), e);
    for (auto _ : state) {
        auto r = decode(bytes);
        if (!r) state.SkipWithError("decode failed");
        benchmark::DoNotOptimize(r);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
    state.counters["message_bytes"] = static_cast<double>(bytes.size());
}

void encode_bench(benchmark::State& state, wire_encoding e) {
    std::size_t size = 0;
    for (auto _ : state) {
        auto bytes = encode(sample(), e);
        size = bytes.size();
        benchmark::DoNotOptimize(bytes);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
    state.counters["message_bytes"] = static_cast<double>(size);
}

void BM_decode_xml(benchmark::State& state) { decode_bench(state, wire_encoding::xml); }
void BM_decode_wbxml(benchmark::State& state) { decode_bench(state, wire_encoding::wbxml); }
void BM_encode_xml(benchmark::State& state) { encode_bench(state, wire_encoding::xml); }
void BM_encode_wbxml(benchmark::State& state) { encode_bench(state, wire_encoding::wbxml); }
BENCHMARK(BM_decode_xml);
BENCHMARK(BM_decode_wbxml);
BENCHMARK(BM_encode_xml);
BENCHMARK(BM_encode_wbxml);

#ifdef SYNCML_BENCH_LIBWBXML2
// Bytes processed = the input of each conversion, as for our decoders.
void BM_libwbxml2_wbxml2xml(benchmark::State& state) {
    auto bytes = encode(sample(), wire_encoding::wbxml);
    for (auto _ : state) {
        WBXMLConvWBXML2XML* conv = nullptr;
        wbxml_conv_wbxml2xml_create(&conv);
        wbxml_conv_wbxml2xml_set_gen_type(conv, WBXML_GEN_XML_COMPACT);
        WB_UTINY* xml = nullptr;
        WB_ULONG len = 0;
        if (wbxml_conv_wbxml2xml_run(conv, reinterpret_cast<WB_UTINY*>(bytes.data()),
                                     static_cast<WB_ULONG>(bytes.size()), &xml, &len) != WBXML_OK)
            state.SkipWithError("wbxml2xml failed");
        wbxml_conv_wbxml2xml_destroy(conv);
        std::free(xml);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}

void BM_libwbxml2_xml2wbxml(benchmark::State& state) {
    auto bytes = encode(sample(), wire_encoding::xml);
    for (auto _ : state) {
        WBXMLConvXML2WBXML* conv = nullptr;
        wbxml_conv_xml2wbxml_create(&conv);
        wbxml_conv_xml2wbxml_enable_preserve_whitespaces(conv);
        WB_UTINY* wbxml = nullptr;
        WB_ULONG len = 0;
        if (wbxml_conv_xml2wbxml_run(conv, reinterpret_cast<WB_UTINY*>(bytes.data()),
                                     static_cast<WB_ULONG>(bytes.size()), &wbxml, &len) != WBXML_OK)
            state.SkipWithError("xml2wbxml failed");
        wbxml_conv_xml2wbxml_destroy(conv);
        std::free(wbxml);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_libwbxml2_wbxml2xml);
BENCHMARK(BM_libwbxml2_xml2wbxml);
#endif

}  // namespace

BENCHMARK_MAIN();
