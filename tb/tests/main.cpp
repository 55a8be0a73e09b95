// Catch2 runner for SystemC: libsystemc's main() calls sc_main, which hands
// over to Catch. A design can be elaborated once per process, so ctest runs
// each test case in its own process (catch_discover_tests).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

int sc_main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
