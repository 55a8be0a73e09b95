// The run YAML, read and checked before anything is built: its run keys
// (workload, size, config, overlays, set, out, vcd) and its bring-your-own
// `kernel:` section (DESIGN.md "Bring-your-own PTX"). Every mistake is an
// InputError naming the file, line and key; nothing here touches a device, so
// the readers are also what the run-file fuzzer drives (tb/fuzz).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>
#include <yaml-cpp/yaml.h>

#include "app.hpp"
#include "isa/ir.hpp"

namespace warptlm {

// Top-level keys of a run file that are not config parameters.
extern const std::vector<std::string> kRunKeys;

struct RunFile {
  YAML::Node root;
  bool has_kernel = false;
  struct Set {
    std::string key, value;
    int line = 0;  // of the value in the run file
  };
  std::vector<Set> sets;  // set: {key: value}, in order
  std::vector<std::string> overlays;
};

// The run keys of `text` (from file `origin`) fill the options the command line
// left empty (flags override the YAML).
RunFile read_run_file(const std::string& text, const std::string& origin, RunOptions& opt);
RunFile load_run_file(const std::string& path, RunOptions& opt);

// One device buffer of a kernel section.
struct ByoBuffer {
  std::string name;
  DType type = DType::F32;
  uint64_t count = 0;
  std::string init = "zeros";  // zeros | sequence | random | file:PATH (PATH resolved against the run file)
  uint64_t seed = 1;
  std::string dump, compare;   // compare resolved against the run file; dump relative to the output folder
  double tolerance = 0;
  int line = 0;                // the buffer's line in the run file
};

// One kernel argument: a buffer's device pointer (`name`, or `name+BYTES` inside it), a number of the
// parameter's PTX type, or a parameter's bytes (a list of 0..255: a struct passed by value).
struct ByoArg {
  std::string text;            // a buffer name, name+offset, or a number
  std::vector<uint8_t> bytes;  // with is_bytes: the parameter's bytes, in order
  bool is_bytes = false;
  int line = 0;
};

// One launch: a kernel of the PTX, its shape and arguments, run `repeat` times in a row.
struct ByoLaunch {
  std::string key;  // where it is in the run file: "kernel" or "kernel.launches[i]" (for messages)
  std::string name;
  int line = 0, name_line = 0, args_line = 0;
  uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  uint32_t shared = 0;
  uint32_t hint = 0;    // the launch's scheduling hint (seed 004 Table 6.1), 0: none
  uint32_t repeat = 1;
  std::vector<ByoArg> args;
};

struct ByoKernel {
  std::string file;  // the run file
  std::string ptx;   // resolved against the run file
  int ptx_line = 0;  // of `ptx:` in the run file
  uint32_t registers = 0;  // 0: not given
  std::vector<ByoBuffer> buffers;  // in the file's order
  // In order, over the same buffers: the section's own name/grid/block/args are one launch; `launches:`
  // lists several (each may leave grid, block, shared and hint to the section's).
  std::vector<ByoLaunch> launches;
};

// The `kernel:` section of a run file (root: the file's document).
ByoKernel read_byo_kernel(const std::string& run_file, const YAML::Node& root);

// A buffer's initial bytes (count x element size); an init file must be a
// regular file of exactly that size.
std::vector<uint8_t> initial_bytes(const ByoKernel& k, const ByoBuffer& b);

}  // namespace warptlm
