// A mechanism as the GPU platform sees it: a published design change (scratchpad
// sharing, an elastic shared-memory pipeline, CIAO, hint-assisted scheduling)
// that plugs into the platform without the platform or the SM naming it.
//
// A mechanism is registered by name with its own parameter section. The
// platform builds each registered mechanism the config asks for, and calls it
//   - inside each SM's construction (build_in_sm): it adds its SM part
//     (SmMechanism: admission, arrival and retirement, an issue gate, side
//     effects at issue, warp classes, the shared-memory address map, warp
//     orderings by name), its own blocks as children of the SM, their socket
//     bindings, and observers on the SM's L1 (fills, evictions, hits);
//   - when the host loads a PTX module (module_loaded): it may keep its own
//     version of the code (compiler passes), which a launch can then run;
//   - before each timing launch (plan_launch): it plans the launch (how many
//     blocks, which share what) and names the code version the launch runs;
//   - for the thread-block placement policy gpu.placement names.
// docs/mechanisms.md walks through adding one, scratchpad sharing as the case.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "common/config.hpp"
#include "common/gpu_payload.hpp"
#include "common/stats.hpp"
#include "gpu/host_interface.hpp"
#include "gpu/placement.hpp"
#include "isa/memory.hpp"
#include "isa/module.hpp"
#include "sm/sm.hpp"

namespace warptlm {

class BlockSchedule;
class ClockDomain;
class L1DataCache;
class SharedMemory;

// What a mechanism may use while it builds its part of SM `index`.
struct SmSite {
  Sm& sm;
  uint32_t index;
  sc_core::sc_time period;  // core clock
  const Config& cfg;
  StatsRegistry& stats;
  PayloadPool& pool;
  L1DataCache* l1;  // the SM's L1 data cache; null with mem.model: flat
  SharedMemory& smem;  // the SM's banked shared memory
  // Record a socket binding and a block of the core clock domain (warptlm topology lists them).
  std::function<void(const sc_core::sc_object& initiator, const sc_core::sc_object& target)> bound;
  std::function<void(const sc_core::sc_object& block)> in_core_clock;
};

// What a mechanism may use while it builds its platform-wide blocks, once every
// SM is built and on the core clock (a mesh's CB ports and barrier): its
// blocks are children of the platform, and a clocked one that joins
// `core_clock` here takes each edge after the SMs and before the dispatcher.
struct PlatformSite {
  std::vector<Sm*> sms;
  ClockDomain& core_clock;
  sc_core::sc_time period;
  const Config& cfg;
  StatsRegistry& stats;
  PayloadPool& pool;
  std::function<void(const sc_core::sc_object& initiator, const sc_core::sc_object& target)> bound;
  std::function<void(const sc_core::sc_object& block)> in_core_clock;
  std::function<void(const std::string&)> fault;  // a RunError found inside the simulation: the GPU halts
  // Binds a mechanism's initiator to the memory below the SMs (the crossbar's next SM-side port, after the
  // SMs' L1s; or the flat memory), as an L1 is bound.
  std::function<void(tlm::tlm_initiator_socket<>&)> bind_below;
};

// What the platform knows of a launch when it asks a mechanism to plan it.
struct LaunchPlanRequest {
  const KernelInfo& kernel;  // as the host named it
  const BlockUsage& usage;   // per block
  const SmParams& sm;        // every SM's resources
  uint32_t num_sms = 0;
  uint32_t launch_hint = 0;  // the host's scheduling hint (LaunchDims::hint)
};

class Mechanism {
 public:
  virtual ~Mechanism() = default;
  virtual const char* name() const = 0;

  // Timing mode: build this mechanism's part of one SM (runs inside the SM's
  // constructor, so modules made here are the SM's children: gpu.sm3.ssp).
  virtual void build_in_sm(SmSite&) {}
  // Timing mode: build this mechanism's platform-wide blocks (after every SM's).
  virtual void build_in_platform(PlatformSite&) {}
  // The parts it builds in an SM touch that SM's state alone while the SM issues (no state or stat shared
  // across SMs), so the SMs' own parts of an edge may run on several threads (sim.threads). A mechanism that
  // says no runs every edge on one thread, with the same results.
  virtual bool sm_parts_private() const { return false; }

  // Code versions: the host loaded `as_written` from `ptx`; a mechanism may
  // compile its own version of it (same device variables: globals_of).
  virtual void module_loaded(const std::string& /*ptx*/, const std::string& /*origin*/, GlobalMemory&,
                             const Module& /*as_written*/) {}
  // The version of `k` functional mode runs (it has no launch plan), or null.
  virtual const KernelInfo* functional_version(const KernelInfo&) const { return nullptr; }
  // Timing mode, before a launch starts: plan it; return the code version it
  // runs, or null for the code as the host named it. An impossible plan throws RunError.
  virtual const KernelInfo* plan_launch(const LaunchPlanRequest&) { return nullptr; }
  // Timing mode, after planning: a mechanism that places a launch's blocks its
  // own way (the mesh's passes) returns the schedule the dispatcher follows
  // (owned by the mechanism), or null for the dispatcher's block-by-block placement.
  virtual BlockSchedule* schedule_launch(const KernelInfo&, LaunchState&) { return nullptr; }

  // The block placement policy called `name` (gpu.placement), or null.
  virtual std::unique_ptr<PlacementPolicy> make_placement(const std::string& /*name*/) { return nullptr; }
  // What this mechanism adds to the platform's PTX (instructions, state spaces, registers).
  virtual void widen_dialect(PtxDialect&) const {}
  // Functional mode: a mechanism that runs launches its own way (the SPU mesh's
  // passes) runs all of `L` and fills `r`'s instruction counts, returning true;
  // false leaves the launch to the platform's block-by-block executor.
  virtual bool run_functional(const KernelInfo&, LaunchState&, LaunchResult&) { return false; }
  // A launch stopped without finishing (the watchdog, a run limit): what this mechanism's blocks wait
  // for, for the message (e.g. which units a barrier waits for); empty when it has nothing to say.
  virtual std::string describe_stop() const { return {}; }
  // A device attribute the host may ask for by name (Device::attribute), or false.
  virtual bool attribute(const std::string& /*name*/, uint64_t& /*value*/) const { return false; }
};

// The mechanisms a platform can build, by name.
struct MechanismInfo {
  std::string name;
  std::string folder;                                 // where it lives: models/<folder>
  std::function<void(ParamTable&)> declare;           // its parameter section
  std::function<bool(const Config&)> wanted;          // does this config ask for it?
  std::function<std::unique_ptr<Mechanism>(const Config&, StatsRegistry&)> make;
};

class MechanismRegistry {
 public:
  // Register a mechanism (again with the same name: ignored). Before the
  // parameters are declared, so its section is known to the config.
  static void add(MechanismInfo info);
  static const std::vector<MechanismInfo>& all();
  static const MechanismInfo* find(const std::string& name);
  // Every registered mechanism's parameter section.
  static void declare_all(ParamTable& t);
  // One instance of each mechanism `cfg` asks for, in registration order.
  static std::vector<std::unique_ptr<Mechanism>> build(const Config& cfg, StatsRegistry& stats);

 private:
  static std::vector<MechanismInfo>& list();
};

// Registers mechanism class M (static declare(ParamTable&) and wanted(const Config&), a constructor from
// (const Config&, StatsRegistry&)) under `name`, living in models/<folder>.
template <class M>
void register_mechanism(const char* name, const char* folder) {
  MechanismInfo m;
  m.name = name;
  m.folder = folder;
  m.declare = M::declare;
  m.wanted = M::wanted;
  m.make = [](const Config& c, StatsRegistry& s) { return std::make_unique<M>(c, s); };
  MechanismRegistry::add(std::move(m));
}

// The mechanisms that ship with WarpTLM (each folder that declares one with
// warptlm_mechanism() in its CMakeLists.txt); generated by the build.
void register_builtin_mechanisms();

}  // namespace warptlm
