// A workload: our own CUDA kernel (NAME.cu, compiled to NAME.ptx) plus the host
// driver that builds seeded inputs, launches, and checks the results against a
// CPU reference.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "runtime/device.hpp"

namespace warptlm {

enum class Size { Tiny, Small, Medium, Large };
const char* size_name(Size s);
bool parse_size(const std::string& s, Size& out);

struct WorkloadResult {
  bool verified = false;
  std::string detail;  // first mismatch, or a one-line summary of the check
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual const char* name() const = 0;
  virtual const char* description() const = 0;
  // Its PTX module, tb/workloads/MODULE/MODULE.ptx: its own name unless the
  // folder holds several workloads' kernels.
  virtual const char* module() const { return name(); }
  // The platform it runs on: gpu, or spu (the Stencil Processing Unit's mesh: its
  // PTX uses the mesh's instructions, which only that platform accepts).
  virtual const char* platform() const { return "gpu"; }
  // Builds inputs from `seed`, loads its PTX into `dev`, launches, checks.
  virtual WorkloadResult run(Device& dev, Size size, uint64_t seed) = 0;
};

// The PTX text of module NAME, embedded into the binary at build time from
// tb/workloads/NAME/NAME.ptx (see tb/workloads/CMakeLists.txt).
const std::string& embedded_ptx(const std::string& name);
// Its ptxas register table (tb/workloads/NAME/NAME.regs, scripts/gen-ptx);
// empty when the folder has none.
const std::string& embedded_registers(const std::string& name);
// Loads workload NAME's PTX into `dev` with its ptxas register counts, so its
// launches take the real compiler's registers for occupancy.
void load_workload_ptx(Device& dev, const std::string& name);

// All workloads, in a fixed order.
const std::vector<std::function<std::unique_ptr<Workload>()>>& workload_factories();
std::unique_ptr<Workload> make_workload(const std::string& name);
std::vector<std::string> workload_names();

}  // namespace warptlm
