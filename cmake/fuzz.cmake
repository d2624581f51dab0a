# Fuzz targets, all made the same way (tests/fuzz/<area>/):
#   - an entry `fuzz_one(data, size)` in a small library that every build compiles;
#   - a seed corpus in the tree, replayed through the entry by a unit test in every build;
#   - with -DFLAKESCAN_FUZZ=ON and clang (>= 19, for std::expected) a libFuzzer target
#     `fuzz_<name>` (ASan + UBSan, UB aborts) and a short fixed-seed CTest run
#     `fuzz_<name>_short` (seconds) on a copy of the corpus.
# bench/fuzz/run runs every libFuzzer target for minutes.
include_guard(GLOBAL)

set(FLAKESCAN_FUZZ_SHORT_RUNS 20000 CACHE STRING "executions of each fuzz_<name>_short test")
set(FLAKESCAN_FUZZ_SHORT_SECONDS 15 CACHE STRING "time bound of each fuzz_<name>_short test")

# flakescan_fuzzer(NAME name CORPUS dir MAX_LEN n SOURCES target sources... LIBS libs...)
# SOURCES: the fuzz_one file and the product sources under test; they are compiled into the
# fuzzer itself so that they carry the coverage hooks and the sanitizers (a library's object
# of the same name is then never pulled in). LIBS: what else they need, uninstrumented.
function(flakescan_fuzzer)
  cmake_parse_arguments(F "" "NAME;CORPUS;MAX_LEN" "SOURCES;LIBS" ${ARGN})
  if(NOT (FLAKESCAN_FUZZ AND CMAKE_CXX_COMPILER_ID MATCHES "Clang"))
    return()
  endif()
  set(exe fuzz_${F_NAME})
  add_executable(${exe} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_main.cpp ${F_SOURCES})
  target_include_directories(${exe} PRIVATE ${PROJECT_SOURCE_DIR}/daemon ${PROJECT_SOURCE_DIR}/tests
                                            ${CMAKE_CURRENT_SOURCE_DIR})
  set(sanitize -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined)
  target_compile_options(${exe} PRIVATE ${sanitize})
  target_link_options(${exe} PRIVATE ${sanitize})
  target_link_libraries(${exe} PRIVATE ${F_LIBS})
  # Runs on a copy: libFuzzer adds the inputs it finds to the first corpus directory.
  set(copy ${CMAKE_CURRENT_BINARY_DIR}/${F_NAME}-corpus)
  add_test(NAME ${exe}_short
           COMMAND sh -c "rm -rf '${copy}' && cp -r '${F_CORPUS}' '${copy}' && '$<TARGET_FILE:${exe}>' -seed=1 -runs=${FLAKESCAN_FUZZ_SHORT_RUNS} -max_total_time=${FLAKESCAN_FUZZ_SHORT_SECONDS} -max_len=${F_MAX_LEN} -rss_limit_mb=2048 -timeout=10 '${copy}'")
  set_tests_properties(${exe}_short PROPERTIES LABELS "unit;fuzz" TIMEOUT 120)
  # What bench/fuzz/run needs to run it longer.
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/${exe}.fuzz "corpus=${F_CORPUS}\nmax_len=${F_MAX_LEN}\n")
endfunction()
