#include "runtime/testbench.hpp"

#include <exception>

#include "common/errors.hpp"
#include "spu/spu_platform.hpp"

namespace warptlm {

namespace {
// A host program parses PTX and builds its inputs on this thread's stack.
constexpr int kHostStackBytes = 16 << 20;
}  // namespace

void run_host_program(const std::function<void()>& program) {
  std::exception_ptr error;
  bool finished = false;
  sc_core::sc_spawn_options opt;
  opt.set_stack_size(kHostStackBytes);
  sc_core::sc_spawn(
      [&] {
        try {
          program();
        } catch (...) {
          error = std::current_exception();
        }
        finished = true;
        sc_core::sc_pause();
      },
      sc_core::sc_gen_unique_name("host_program"), &opt);
  sc_core::sc_start();
  if (error) std::rethrow_exception(error);
  if (!finished) throw RunError("the host program did not finish: the simulation ran out of events while it waited");
}

GpuTestbench::GpuTestbench(const Config& cfg, StatsRegistry& stats, const std::string& platform)
    : platform_(platform == "spu" ? std::make_unique<SpuPlatform>("spu", cfg, stats)
                                  : std::make_unique<GpuPlatform>("gpu", cfg, stats)),
      driver_(std::make_unique<GpuDriver>("host")),
      device_(std::make_unique<Device>(*driver_)) {
  driver_->connect(platform_->host);
}

GpuTestbench::~GpuTestbench() = default;

}  // namespace warptlm
