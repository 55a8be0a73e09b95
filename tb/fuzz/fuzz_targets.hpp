// The fuzz targets: what each libFuzzer binary (fuzz_*.cpp) feeds its inputs
// to, and what the regression test (tb/tests/test_fuzz_regressions.cpp) runs
// every kept input and seed through. Each returns true when the input was
// accepted and false when it was refused with an input error, the expected
// answer to a bad input; any other exception, a crash or a sanitizer report is
// a bug.
#pragma once
#include <cstddef>
#include <cstdint>

namespace warptlm {

// The PTX front end: lexer, parser, linker and load-time verifier, then (when
// the module loads) the scratchpad-sharing compiler passes and a second link.
bool fuzz_ptx(const uint8_t* data, size_t size);
// The config loader: one config layer (strict YAML, known keys, typed and
// ranged values), checked as the platform checks it before building
// (GpuPlatform::check_config), then resolved as config.resolved.yaml is.
bool fuzz_config(const uint8_t* data, size_t size);
// The run-YAML reader: run keys and set: section, the file merged as a config
// layer with its settings on top and checked, the kernel: section read and each
// small buffer's initial bytes built. The file sits in a folder that does not
// exist, so relative paths name nothing.
bool fuzz_run_file(const uint8_t* data, size_t size);

}  // namespace warptlm
