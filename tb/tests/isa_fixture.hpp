// Shared helpers for the ISA tests (test_isa.cpp): loading our test kernels'
// PTX from tb/tests/kernels/, a fixture that builds one functional GPU and its
// host Device, and small checks on error messages.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "common/config.hpp"
#include "common/errors.hpp"
#include "common/stats.hpp"
#include "gpu/gpu_platform.hpp"
#include "runtime/device.hpp"
#include "runtime/testbench.hpp"

namespace warptlm_test {

// The message of the RunError (a faulting launch) or InputError that f throws;
// the test fails when f throws nothing.
template <class F>
std::string run_error_of(F&& f) {
  try {
    f();
  } catch (const warptlm::RunError& e) {
    return e.what();
  }
  FAIL("expected warptlm::RunError, but the launch completed");
  return "";
}
template <class F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const warptlm::InputError& e) {
    return e.what();
  }
  FAIL("expected warptlm::InputError, but none was thrown");
  return "";
}

// Whole file as text; throws std::runtime_error naming the path if unreadable.
std::string read_text(const std::string& path);

// PTX of tb/tests/kernels/NAME.ptx (generated from NAME.cu by nvcc -ptx -arch=compute_75 -O3).
std::string kernel_ptx(const char* name);

// One functional-mode GPU with its Device. Declares the GPU parameters into the
// global table before the Config is built. Extra settings are applied as --set.
struct IsaFixture {
  using Settings = std::vector<std::pair<std::string, std::string>>;  // key, value
  warptlm::Config cfg;
  warptlm::StatsRegistry stats;
  std::unique_ptr<warptlm::GpuTestbench> tb;
  warptlm::GpuPlatform* gpu = nullptr;
  warptlm::Device* dev = nullptr;

  explicit IsaFixture(const Settings& settings = {});
  ~IsaFixture();

  // Load tb/tests/kernels/NAME.ptx with origin "NAME.ptx".
  void load_kernel(const char* name);
};

// 1-based number of the first line of `text` containing `needle`; 0 if none.
int line_of(const std::string& text, const std::string& needle);

// True if `msg` names "file:line" (the line not followed by another digit).
bool names_file_line(const std::string& msg, const std::string& file, int line);

// True if some hex number "0x..." in `msg` (any case, any zero padding) equals `addr`.
bool mentions_address(const std::string& msg, uint64_t addr);

// Lower-cased copy; and a copy with all whitespace removed (so "block (1, 2, 3)"
// and "block (1,2,3)" both become "block(1,2,3)").
std::string lower(const std::string& s);
std::string squeeze(const std::string& s);

// True if `msg` names block (bx,by,bz) and thread (tx,ty,tz), spacing-insensitive.
bool names_block_thread(const std::string& msg, uint32_t bx, uint32_t by, uint32_t bz, uint32_t tx, uint32_t ty,
                        uint32_t tz);

}  // namespace warptlm_test
