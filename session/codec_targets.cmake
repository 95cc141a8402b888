# Executables and test dependencies of the SyncML message codec (issue 4). Included from
# session/CMakeLists.txt after the module library and test binary exist.

add_executable(syncml-msg tools/syncml_msg_main.cpp)
target_link_libraries(syncml-msg PRIVATE syncml_session syncml_options)

# libwbxml2 is an independent oracle for our WBXML output: tests only, never the product.
if(TARGET session_tests)
    find_package(PkgConfig REQUIRED)
    pkg_check_modules(LIBWBXML2 REQUIRED IMPORTED_TARGET libwbxml2)
    target_link_libraries(session_tests PRIVATE PkgConfig::LIBWBXML2)
endif()

# The fuzzers compile the codec sources themselves so coverage instrumentation reaches them
# without pulling the engine, persistence and their dependencies into the fuzz binaries.
if(SYNCML_FUZZ)
    file(GLOB codec_fuzz_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/protocol/message.cpp
         ${CMAKE_CURRENT_SOURCE_DIR}/codec/*.cpp)
    list(FILTER codec_fuzz_sources EXCLUDE REGEX "_test\\.cpp$")
    foreach(fuzzer xml_decode_fuzz wbxml_decode_fuzz)
        add_executable(${fuzzer} fuzz/${fuzzer}.cpp ${codec_fuzz_sources})
        target_link_libraries(${fuzzer} PRIVATE syncml_matching syncml_options)
        # -O1: several times the executions per second of an unoptimised build in the same bounded run.
        target_compile_options(${fuzzer} PRIVATE -O1 -fsanitize=fuzzer,address,undefined)
        target_link_options(${fuzzer} PRIVATE -fsanitize=fuzzer,address,undefined)
        add_dependencies(fuzz_targets ${fuzzer})
    endforeach()
    # Issue 15: decode -> engine -> encode against the in-memory store, the path every request takes.
    syncml_fuzz_target(message_handler_fuzz fuzz/message_handler_fuzz.cpp syncml_session)
    target_compile_options(message_handler_fuzz PRIVATE -O1)
endif()

if(SYNCML_BENCHMARKS)
    add_executable(codec_bench bench/codec_bench.cpp)
    target_link_libraries(codec_bench PRIVATE syncml_session syncml_options benchmark::benchmark)
    pkg_check_modules(LIBWBXML2_BENCH IMPORTED_TARGET libwbxml2)
    if(LIBWBXML2_BENCH_FOUND)
        target_link_libraries(codec_bench PRIVATE PkgConfig::LIBWBXML2_BENCH)
        target_compile_definitions(codec_bench PRIVATE SYNCML_BENCH_LIBWBXML2=1)
    endif()
endif()
