// A loaded PTX module: its functions as parsed, its module-scope variables
// placed in device memory, and each kernel linked into one flat program with
// everything resolved (see ir.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <unordered_map>
#include <memory>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "isa/ir.hpp"

namespace warptlm {

class GlobalMemory;

// Special registers; the per-warp constant ones are materialised into hidden
// register slots when a warp starts.
enum class SReg : uint8_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
  LaneId, WarpId, NWarpId, SmId, NSmId, GridId,
  LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt,
  Clock, Clock64, GlobalTimer,
  // The registers a mesh's run-time sets in each unit (seed 003 sec. 2.9): only a
  // mesh platform's PTX dialect has them; their values live in the block (Block::mesh_regs).
  MeshIu, MeshVirIu, MeshIuDir, MeshIuId, MeshCPassX, MeshPassX, MeshCPassY, MeshSpillNb, MeshCSpillNb,
  MeshRestart, MeshLast,
  Count
};
constexpr uint32_t kMeshRegs = uint32_t(SReg::Count) - uint32_t(SReg::MeshIu);
inline bool is_mesh_sreg(SReg s) { return s >= SReg::MeshIu && s < SReg::Count; }
bool parse_sreg(const std::string& name, SReg& out);
const char* sreg_name(SReg s);  // its PTX spelling, "%tid.x"
// A special register of the PTX ISA that WarpTLM does not model (%envreg<32>, %pm0..%pm7, %dynamic_smem_size,
// the cluster registers, ...): not a name a kernel can read, nor one it may declare.
bool is_reserved_sreg(const std::string& name);

// What a platform's PTX has beyond the base ISA.
struct PtxDialect {
  bool mesh = false;  // the mesh's CB spaces, block synchronisation and unit registers (the spu platform)
};

struct ParamInfo {
  std::string name;
  DType type = DType::B32;
  uint32_t size = 4, align = 4, offset = 0;
};

// One byte-copy between per-thread parameter-frame locations at a call or return.
struct FrameCopy { uint32_t src, dst, size; };
struct CallSite {
  uint32_t callee_pc = 0;
  std::vector<FrameCopy> args;     // caller's argument params -> callee's formal params, at the call
  std::vector<FrameCopy> results;  // callee's return params -> caller's result params, at the return
};

struct KernelInfo {
  std::string name;
  uint32_t uid = 0;                // kernels loaded in this process, numbered in load order
  std::string origin;              // PTX file, for reports
  uint32_t decl_line = 0;
  std::vector<Instr> prog;
  std::vector<ParamInfo> params;
  uint32_t param_bytes = 0;
  uint32_t num_regs = 0;           // 64-bit register slots per lane (incl. hidden special-register slots)
  uint32_t num_preds = 0;
  uint32_t regs_per_thread = 0;    // 32-bit registers a thread needs: max live words + 2 (occupancy estimate)
  uint32_t declared_regs = 0;      // 32-bit words of all PTX virtual registers declared
  uint32_t static_smem = 0;        // bytes of .shared declared
  uint32_t local_bytes = 0;        // per-thread .local bytes
  uint32_t frame_bytes = 0;        // per-thread parameter frame for .func calls
  std::vector<std::pair<uint32_t, SReg>> sreg_slots;  // declared slots
  // Where a warp stores each register (register_storage.hpp): registers never live at once share a storage
  // slot. prog's register operands name storage slots; its scoreboard view (Instr::reads/writes), num_regs
  // and sreg_slots keep the declared ones. Empty storage_of: every register in its declared slot.
  std::vector<uint32_t> storage_of;  // declared slot -> storage slot
  uint32_t storage_regs = 0;         // storage slots (with storage_of)
  std::vector<Instr> declared_prog;  // prog with declared slots (with storage_of)
  uint32_t storage_slot(uint32_t declared) const { return storage_of.empty() ? declared : storage_of[declared]; }
  uint32_t stored_regs() const { return storage_of.empty() ? num_regs : storage_regs; }
  const Instr& declared_instr(uint32_t pc) const { return storage_of.empty() ? prog[pc] : declared_prog[pc]; }
  // Back to one slot per declared register, for a pass that renames registers by their declarations.
  void use_declared_slots() {
    if (storage_of.empty()) return;
    prog = std::move(declared_prog);
    declared_prog.clear();
    storage_of.clear();
    storage_regs = 0;
  }
  std::vector<CallSite> call_sites;
  std::deque<std::array<uint64_t, 32>> imm_pool;
  uint32_t reqntid = 0, maxntid = 0;
};

class Module {
 public:
  // Parse PTX text and link its kernels; module-scope .global/.const variables
  // are allocated in `mem`. Throws InputError naming origin, line and opcode.
  // With `globals_of`, module-scope variables bind to that module's copies by
  // name instead (a second compilation of the same source, e.g. after the
  // scratchpad-sharing passes, must see the same device variables).
  // `dialect`: what the platform's PTX has beyond the base ISA; anything else is refused at its line.
  Module(const std::string& text, const std::string& origin, GlobalMemory& mem, const Module* globals_of = nullptr,
         PtxDialect dialect = {});
  ~Module();

  const std::string& origin() const { return origin_; }
  const KernelInfo* find_kernel(const std::string& name) const;
  std::vector<std::string> kernel_names() const;
  // A kernel that could not be linked (an instruction, call or symbol of it or of a function it calls the
  // front end refused): its error, naming file and line; null for a kernel that loaded or is not here.
  // A module loads while one of its kernels does; only these are refused.
  const InputError* refusal(const std::string& name) const;
  // A module-scope .global or .const variable: its device address and bytes; false if there is none.
  bool symbol(const std::string& name, uint64_t& address, uint64_t& bytes) const;
  const std::map<std::string, InputError>& refused() const { return refused_; }

 private:
  std::string origin_;
  std::map<std::string, std::unique_ptr<KernelInfo>> kernels_;
  std::map<std::string, InputError> refused_;
  std::unordered_map<std::string, uint64_t> global_syms_;  // module-scope .global/.const: name -> address
  std::unordered_map<std::string, uint64_t> global_bytes_; // and its size
};

}  // namespace warptlm
