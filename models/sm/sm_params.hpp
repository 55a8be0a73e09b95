// Parameters of one SM (all SMs of a GPU share them): resource limits for
// occupancy, front end, warp schedulers, functional units, writeback.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "common/block_impl.hpp"
#include "common/config.hpp"
#include "gpu/occupancy.hpp"
#include "isa/ir.hpp"

namespace warptlm {

// Opcode classes: each has a latency and an initiation interval. The classes
// follow the rows of GPGPU-Sim's per-opcode tables (ADD, MAX, MUL, MAD, DIV and
// SHFL for integers and FP32; every opcode without a row is a simple ALU op).
enum class OpClass : uint8_t {
  Alu, Simple, Imul, Imad, Imax, Idiv, Shfl, Fp, Fma, Fmax, Fdiv, Sfu, Dp, Mem, Branch, Barrier, Count
};
const char* op_class_name(OpClass c);

namespace op_class_detail {
// The class an opcode has whatever its operand types (Count: its types decide, by_operand_types).
constexpr std::array<OpClass, size_t(Op::Count)> fixed_classes() {
  std::array<OpClass, size_t(Op::Count)> t{};
  for (size_t o = 0; o < t.size(); ++o) t[o] = is_mechanism_op(Op(o)) ? OpClass::Barrier : OpClass::Count;
  for (Op o : {Op::Ld, Op::Ldu, Op::St, Op::Atom, Op::Red, Op::Prefetch}) t[size_t(o)] = OpClass::Mem;
  for (Op o : {Op::Bra, Op::Call, Op::Ret, Op::Exit, Op::Trap}) t[size_t(o)] = OpClass::Branch;
  for (Op o : {Op::Bar, Op::BarArrive, Op::BarRed, Op::Membar, Op::Fence}) t[size_t(o)] = OpClass::Barrier;
  return t;
}
inline constexpr std::array<OpClass, size_t(Op::Count)> kFixedClass = fixed_classes();
OpClass by_operand_types(const Instr& in);
}  // namespace op_class_detail

inline bool float_operands(const Instr& in) { return dtype_float(in.type) || dtype_float(in.type2); }
// Asked at every issue look: the opcode's table first, its operand types only where the table defers.
inline OpClass op_class_of(const Instr& in) {
  const OpClass fixed = op_class_detail::kFixedClass[size_t(in.op)];
  return fixed != OpClass::Count ? fixed : op_class_detail::by_operand_types(in);
}

// Functional-unit kinds (pipelines); a warp instruction holds one unit of its
// kind for ceil(32 / lanes) * initiation-interval cycles.
enum class UnitKind : uint8_t { SP, INT, SFU, DP, LDST, BRANCH, Count };
const char* unit_kind_name(UnitKind k);
// The unit an instruction of class c runs on (a simple op: FP32 operands on
// the SP pipes, others on the integer pipes). With `int_alu_on_sp` (sm.int_alu: sp, Kepler's SPUs with
// their integer ALUs) integer add/subtract, min/max and the simple integer ops run on the SP pipes too,
// and the integer pipes keep multiplies, divides, shuffles and the bit-field ops (the IMU, spec 004 sec. 2.4).
// With `all_on_sp` (sm.int_alu: sp_all, Fermi's CUDA cores and GPGPU-Sim with no integer units) every integer
// instruction runs on the SP pipes; with `control_on_sp` (sm.control_pipe: sp) so do branches and barriers.
// Integer ops the IMU keeps when the SPUs run the integer ALU work (spec 004 sec. 2.4: "complex integer
// operations (e.g., ISCADD, BFE)"); the CUDA guide's CC 3.5 throughput table gives these 32 lanes a cycle.
inline bool complex_integer(Op op) {
  switch (op) {
    case Op::Popc: case Op::Clz: case Op::Brev: case Op::Bfe: case Op::Bfi: case Op::Bfind: case Op::Fns:
    case Op::ShfL: case Op::ShfR:
      return true;
    default: return false;
  }
}
inline UnitKind unit_of(const Instr& in, OpClass c, bool int_alu_on_sp = false, bool all_on_sp = false,
                        bool control_on_sp = false) {
  switch (c) {
    case OpClass::Simple:
      if (float_operands(in) || all_on_sp) return UnitKind::SP;
      return int_alu_on_sp && !complex_integer(in.op) ? UnitKind::SP : UnitKind::INT;
    case OpClass::Alu: case OpClass::Imax:
      return int_alu_on_sp || all_on_sp ? UnitKind::SP : UnitKind::INT;
    case OpClass::Imul: case OpClass::Imad: case OpClass::Idiv: case OpClass::Shfl:
      return all_on_sp ? UnitKind::SP : UnitKind::INT;
    case OpClass::Fp: case OpClass::Fma: case OpClass::Fmax: return UnitKind::SP;
    case OpClass::Fdiv: case OpClass::Sfu: return UnitKind::SFU;
    case OpClass::Dp: return UnitKind::DP;
    case OpClass::Mem: return UnitKind::LDST;
    default: return control_on_sp ? UnitKind::SP : UnitKind::BRANCH;
  }
}

// Operand collector groups: the collector units an instruction may take, by
// the kind of unit it goes to (GPGPU-Sim's SP, SFU and MEM collector sets).
enum class CollectorGroup : uint8_t { Sp, Sfu, Mem, Count };
inline CollectorGroup collector_group_of(UnitKind k) {
  switch (k) {
    case UnitKind::SFU: case UnitKind::DP: return CollectorGroup::Sfu;
    case UnitKind::LDST: return CollectorGroup::Mem;
    default: return CollectorGroup::Sp;
  }
}

// `private_count` of the `count` units are private to the schedulers, private_count / N each (unit j
// belongs to scheduler j % N), with `private_lanes` lanes (0: `lanes`); the others are shared by all.
struct UnitParams { uint32_t count = 1, lanes = 32, private_count = 0, private_lanes = 0; };
// How a read-only cache (instruction or constant) serves a miss: in a fixed
// latency, or by a line fill through the memory hierarchy with MSHRs.
struct FillParams {
  bool from_memory = false;
  uint32_t mshrs = 2, merges = 32;
};
struct OpClassParams { uint32_t latency = 1, ii = 1; };

struct SmParams {
  // resources (occupancy)
  uint32_t max_threads = 1536, max_warps = 48, max_blocks = 8, registers = 32768, shared_mem = 49152;
  uint32_t reg_alloc_unit = 1, smem_alloc_unit = 1;
  // front end
  bool icache_perfect = true;
  uint32_t icache_size = 4096, icache_line = 128, icache_assoc = 4, icache_hit_latency = 1, icache_miss_latency = 20;
  FillParams icache_fill;
  uint32_t ibuffer_entries = 2, fetch_warps_per_cycle = 1;
  // issue
  uint32_t num_schedulers = 2, issue_width = 1;
  std::string warp_scheduler = "lrr";
  BlockImpl issue_select_impl = BlockImpl::Model;  // sm.issue_select.impl: the model, the RTL (gto, lrr) or both
  uint32_t two_level_active = 8;
  std::string two_level_inner = "lrr", two_level_outer = "oldest";
  uint32_t warp_limit = 0;  // static warp limiting: 0 = off
  bool exit_at_decode = false;  // a warp's exit retires it at the instruction buffer, without an issue slot
  // Kepler SMX (spec 004 sec. 2.4, 2.5, 2.14, 2.16)
  bool dual_issue = false;           // a scheduler may issue a second, independent instruction of the warp it issued
  bool fetch_per_scheduler = false;  // each scheduler's warp pool fetches fetch_warps_per_cycle warps a cycle (else the SM's)
  bool shared_even = false;          // shared units are split in N equal lane slices, one per scheduler (else fixed priority)
  bool int_alu_on_sp = false;        // integer add/min/max and simple integer ops run on the SP units (sm.int_alu: sp)
  bool int_all_on_sp = false;        // every integer instruction runs on the SP units (sm.int_alu: sp_all)
  bool control_on_sp = false;        // branches, calls, returns, exits and barriers go down the SP units (sm.control_pipe: sp)
  UnitKind unit_kind(const Instr& in, OpClass c) const {
    return unit_of(in, c, int_alu_on_sp || int_all_on_sp, int_all_on_sp, control_on_sp);
  }
  bool units_partitioned() const {
    if (shared_even) return true;
    for (const UnitParams& u : units)
      if (u.private_count) return true;
    return false;
  }
  // execution
  std::array<UnitParams, size_t(UnitKind::Count)> units{};
  std::array<OpClassParams, size_t(OpClass::Count)> ops{};
  uint32_t writeback_ports = 0;  // 0 = unlimited
  uint32_t regfile_banks = 0;    // 0 = no operand collector
  // Result buses booked when an instruction enters a unit other than the LD/ST unit, and one completion
  // per unit per cycle (with the operand collector; 0 = completions are not booked).
  uint32_t result_buses = 0;
  uint32_t unit_stages = 0;      // registers an instruction passes in a unit besides its latency (not the LD/ST unit)
  std::array<uint32_t, size_t(CollectorGroup::Count)> collectors{{6, 8, 2}};
  std::array<uint32_t, size_t(CollectorGroup::Count)> collector_ports{{0, 0, 0}};  // 0 = unlimited
  // sm.collectors.generic > 0: one set of collector units takes every instruction (GPGPU-Sim's generic set,
  // -gpgpu_enable_specialized_operand_collector 0); its units and ports are kept as the SP group's.
  bool collectors_generic = false;
  CollectorGroup collector_group(UnitKind k) const {
    return collectors_generic ? CollectorGroup::Sp : collector_group_of(k);
  }
  // Sub-cores (sm.sub_cores, GPGPU-Sim's -gpgpu_sub_core_model): scheduler s owns banks [s B/N, (s+1) B/N) of
  // the register file, collector units [s C/N, (s+1) C/N) of each set, and unit j of every kind but the LD/ST
  // unit when j mod N = s (every such unit is private).
  bool sub_cores = false;
  uint32_t mem_line = 128;         // global/local accesses coalesce per line
  bool coalesce_sectors = false;   // one request per 32-byte sector instead of per line
  bool store_segment = false;      // a line store carries its segment's bytes (sm.store_data: segment), else the line's
  bool lines_down = false;         // sm.line_order: address_down: an access's lines (and sectors) highest address first
  uint32_t ldst_queue = 32;
  bool ldst_per_access = false;    // a memory instruction holds the LD/ST unit one cycle per access (else its initiation interval)
  uint32_t ccache_size = 8192, ccache_line = 64, ccache_assoc = 2, ccache_hit_latency = 4, ccache_miss_latency = 200;
  FillParams ccache_fill;
  bool params_in_ccache = false;    // kernel parameters are read through the constant cache (else a parameter buffer)
  bool call_params_local = false;   // a call's parameters live in local memory (else the parameter buffer)
  // Where local memory lies in the timing model's address space: each warp slot's frame in one piece
  // (false), or each local word of every resident thread of the GPU in one region, block slot by block
  // slot across the SMs (true: GPGPU-Sim's -gpgpu_local_mem_map 1); gpu_sms is the GPU's SM count for it.
  bool local_word_major = false;
  uint32_t gpu_sms = 1;
  // In-order stage pipeline (sm.pipeline.model: inorder; inorder_pipeline.hpp)
  bool inorder = false;
  uint32_t front_stages = 18, exe_stages = 1, mem_stages = 4;
  uint32_t simd_width = 32;          // lanes per subwarp: a warp issues as ceil(32 / simd_width) subwarps
  bool return_wb_per_subwarp = true; // data returning from memory takes a writeback slot per subwarp (else one)
  bool strict_barrel = false;        // a warp issues again only after its last subwarp left the pipeline
  std::string pipeline_backend = "unified";  // the stages after EXE: the SM's own, or a mechanism's
  uint32_t subwarps() const { return (32 + simd_width - 1) / simd_width; }

  static void declare(ParamTable& t);
  static SmParams from(const Config& c);
  // These limits as the occupancy calculator takes them (gpu/occupancy.hpp), counted as Sm::can_accept does.
  SmLimits occupancy_limits() const;
  // The shared memory a block takes before rounding: the kernel's static bytes, then the dynamic ones from the
  // next 16-byte boundary.
  static uint32_t block_shared_bytes(uint32_t static_bytes, uint32_t dynamic_bytes) {
    return dynamic_bytes ? ((static_bytes + 15) & ~15u) + dynamic_bytes : static_bytes;
  }
};

}  // namespace warptlm
