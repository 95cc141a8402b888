# Shared compile settings: one interface target every module links.
add_library(syncml_options INTERFACE)
target_compile_options(syncml_options INTERFACE -Wall -Wextra)
if(SYNCML_WERROR)
    target_compile_options(syncml_options INTERFACE -Werror)
endif()
# Lets clang-tidy and clangd parse coroutine code (STYLE.md, async rules).
target_compile_definitions(syncml_options INTERFACE BOOST_ASIO_HAS_CO_AWAIT=1 BOOST_ASIO_NO_DEPRECATED=1)
target_include_directories(syncml_options INTERFACE ${PROJECT_SOURCE_DIR})
# lld links the big ASan test binaries in ~3 s where GNU ld takes ~10 s; used when the compiler can.
include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=lld" SYNCML_HAS_LLD)
if(SYNCML_HAS_LLD)
    target_link_options(syncml_options INTERFACE -fuse-ld=lld)
endif()
if(SYNCML_SANITIZE)
    target_compile_options(syncml_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                    -fno-sanitize-recover=undefined)
    target_link_options(syncml_options INTERFACE -fsanitize=address,undefined)
endif()

# Precompiled headers (SYNCML_PCH): the standard headers nearly every file includes cost ~2 s per translation unit
# under ASan with debug info, ~1.5 s of which a precompiled header saves, against ~7 s once per target.
# <utility> first: g++ 12 needs it before Asio. Files still include what they use.
set(SYNCML_PCH_HEADERS <utility> <string> <string_view> <vector> <optional> <algorithm> <map> <memory> <chrono>
    <functional> <cstdint> <stdexcept> <array>)
function(syncml_precompile_headers target)
    if(SYNCML_PCH)
        target_precompile_headers(${target} PRIVATE ${SYNCML_PCH_HEADERS} ${ARGN})
    endif()
endfunction()

# syncml_module_tests(NAME LIB): one gtest binary per module from the *_test.cpp files beside the code.
function(syncml_module_tests name lib)
    if(NOT SYNCML_TESTS)
        return()
    endif()
    file(GLOB_RECURSE test_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cpp)
    if(NOT test_sources)
        return()
    endif()
    add_executable(${name} ${test_sources})
    syncml_precompile_headers(${name} <gtest/gtest.h>)
    target_link_libraries(${name} PRIVATE ${lib} syncml_options GTest::gtest GTest::gtest_main ${ARGN})
    target_compile_definitions(${name} PRIVATE SYNCML_CORPUS_DIR="${PROJECT_SOURCE_DIR}/../shared/corpus"
                                               SYNCML_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
    # Tests create many users: PBKDF2 at the production cost (600,000 iterations) took the persistence suite from
    # 49 s to 2 min 52 s (5 -> 61 s of CPU) without testing anything more.
    # Each binary runs as a few gtest shards, not one process per test: starting an ASan binary costs ~0.35 s,
    # which made 852 one-test processes take 340 s against 83 s for the six binaries run whole. Shards keep both
    # cores busy; run one test with `<binary> --gtest_filter=suite.name`.
    foreach(shard RANGE 0 ${SYNCML_TEST_SHARDS_LAST})
        add_test(NAME ${name}_${shard} COMMAND ${name} --gtest_brief=1)
        set_tests_properties(${name}_${shard} PROPERTIES LABELS unit ENVIRONMENT
            "SYNCML_PASSWORD_HASH_ITERATIONS=1000;GTEST_TOTAL_SHARDS=${SYNCML_TEST_SHARDS};GTEST_SHARD_INDEX=${shard}")
    endforeach()
endfunction()
set(SYNCML_TEST_SHARDS 4)
math(EXPR SYNCML_TEST_SHARDS_LAST "${SYNCML_TEST_SHARDS} - 1")

# syncml_module_sources(VAR): the module's .cpp files except tests, tools, benchmarks and fuzzers.
function(syncml_module_sources var)
    file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
    list(FILTER sources EXCLUDE REGEX "_test\\.cpp$|/tools/|/bench/|/fuzz/|_main\\.cpp$")
    set(${var} ${sources} PARENT_SCOPE)
endfunction()

# syncml_module_library(NAME): static library from the module's sources (INTERFACE while it has none yet).
function(syncml_module_library name)
    syncml_module_sources(sources)
    if(sources)
        add_library(${name} STATIC ${sources})
        syncml_precompile_headers(${name})
        set(scope PUBLIC)
    else()
        add_library(${name} INTERFACE)
        set(scope INTERFACE)
    endif()
    target_link_libraries(${name} ${scope} syncml_options ${ARGN})
endfunction()

# Fuzzing build (clang only): every module is instrumented; syncml_fuzz_target() adds a libFuzzer executable to
# the `fuzz_targets` aggregate that test.sh builds and tests/fuzz/*.sh run.
if(SYNCML_FUZZ)
    target_compile_options(syncml_options INTERFACE -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
    target_link_options(syncml_options INTERFACE -fsanitize=address,undefined)
    add_custom_target(fuzz_targets)
endif()

# syncml_fuzz_target(NAME SOURCE LIB...)
function(syncml_fuzz_target name source)
    if(NOT SYNCML_FUZZ)
        return()
    endif()
    add_executable(${name} ${source})
    target_link_libraries(${name} PRIVATE ${ARGN} syncml_options)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    add_dependencies(fuzz_targets ${name})
endfunction()
