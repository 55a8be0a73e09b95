// libFuzzer entry for fuzz_ptx (fuzz_targets.hpp says what it drives).
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  warptlm::fuzz_ptx(data, size);
  return 0;
}

// libsystemc carries a main that calls sc_main; libFuzzer's main runs instead.
extern "C" int sc_main(int, char**) { return 0; }
