#include "sm/sm_params.hpp"

#include "sm/sched/scheduler.hpp"

#include <array>

namespace warptlm {

static const char* const kOpClassNames[] = {"alu", "simple", "imul", "imad", "imax", "idiv", "shfl", "fp",
                                            "fma", "fmax", "fdiv", "sfu",  "dp",   "mem",  "branch", "barrier"};
static const char* const kUnitNames[] = {"sp", "int", "sfu", "dp", "ldst", "branch"};

const char* op_class_name(OpClass c) { return kOpClassNames[size_t(c)]; }
const char* unit_kind_name(UnitKind k) { return kUnitNames[size_t(k)]; }

namespace op_class_detail {
OpClass by_operand_types(const Instr& in) {
  const bool f64 = in.type == DType::F64 || in.type2 == DType::F64;
  const bool fp = float_operands(in);
  switch (in.op) {
    case Op::Sqrt: case Op::Rsqrt: case Op::Rcp: case Op::Sin: case Op::Cos: case Op::Lg2: case Op::Ex2: case Op::Tanh:
      return f64 ? OpClass::Dp : OpClass::Sfu;
    case Op::Div: case Op::Rem:
      return f64 ? OpClass::Dp : fp ? OpClass::Fdiv : OpClass::Idiv;
    default: break;
  }
  if (f64) return OpClass::Dp;
  switch (in.op) {
    case Op::Add: case Op::Sub: return fp ? OpClass::Fp : OpClass::Alu;
    case Op::Addc: case Op::Subc: return OpClass::Alu;
    case Op::Madc: return OpClass::Imad;
    case Op::Mul: case Op::Mul24: return fp ? OpClass::Fp : OpClass::Imul;
    case Op::Mad: case Op::Mad24: case Op::Fma: return fp ? OpClass::Fma : OpClass::Imad;
    case Op::Min: case Op::Max: return fp ? OpClass::Fmax : OpClass::Imax;
    case Op::Shfl: case Op::Match: case Op::Redux: return OpClass::Shfl;  // lanes exchange values
    default: return OpClass::Simple;  // moves, conversions, compares, selects, logic, shifts, bit ops
  }
}
}  // namespace op_class_detail

namespace {
// sm.<cache>.fill, .mshr_entries and .mshr_merges of a read-only cache (declare() names each key
// literally: scripts/check-config-keys finds parameters that way).
FillParams fill_from(const Config& c, const std::string& pre) {
  FillParams f;
  f.from_memory = c.get_string(pre + ".fill") == "memory";
  f.mshrs = uint32_t(c.get_int(pre + ".mshr_entries"));
  f.merges = uint32_t(c.get_int(pre + ".mshr_merges"));
  return f;
}
}  // namespace

void SmParams::declare(ParamTable& t) {
  t.int_param("sm.max_threads", 1536, 32, 65536, "resident threads per SM (occupancy limit)");
  t.int_param("sm.max_warps", 48, 1, 2048, "resident warps per SM (occupancy limit)");
  t.int_param("sm.max_blocks", 8, 1, 256, "resident thread blocks per SM (occupancy limit)");
  t.int_param("sm.registers", 32768, 0, 1 << 24, "32-bit registers per SM (occupancy limit)");
  t.int_param("sm.reg_alloc_unit", 1, 1, 1024, "registers are allocated per warp in multiples of this many per thread");
  t.int_param("sm.shared_mem", 49152, 0, 1 << 24, "bytes of shared memory per SM (occupancy limit)");
  t.int_param("sm.smem_alloc_unit", 1, 1, 65536, "a block's shared memory is rounded up to a multiple of this many bytes");
  t.bool_param("sm.icache.perfect", true, "instruction fetch always hits (no instruction cache model)");
  t.int_param("sm.icache.size", 4096, 64, 1 << 20, "instruction cache bytes");
  t.int_param("sm.icache.line", 128, 8, 4096, "instruction cache line bytes");
  t.int_param("sm.icache.assoc", 4, 1, 64, "instruction cache ways");
  t.int_param("sm.icache.hit_latency", 1, 1, 1000, "cycles from fetch to an instruction in the buffer on a hit");
  t.int_param("sm.icache.miss_latency", 20, 1, 10000, "cycles for an instruction cache miss (sm.icache.fill: fixed)");
  t.enum_param("sm.icache.fill", "fixed", {"fixed", "memory"},
               "how an instruction-cache miss is served: in sm.icache.miss_latency cycles, or by a line read through the "
               "L1's port, the crossbar, L2 and DRAM (warps missing on the same line wait for one fill)");
  t.int_param("sm.icache.mshr_entries", 2, 1, 64, "instruction-cache lines in flight at once (sm.icache.fill: memory)");
  t.int_param("sm.icache.mshr_merges", 32, 1, 1024, "fetches that may wait on one line in flight (sm.icache.fill: memory)");
  t.int_param("sm.ibuffer_entries", 2, 1, 64, "decoded instructions buffered per warp (one fetch fills them)");
  t.int_param("sm.fetch_warps_per_cycle", 1, 1, 64, "warps the fetch stage serves per cycle");
  t.int_param("sm.num_schedulers", 2, 1, 16, "warp schedulers per SM; scheduler i owns the warps with slot % N == i");
  t.int_param("sm.issue_width", 1, 1, 8, "instructions each scheduler may issue per cycle (from different warps)");
  t.enum_param("sm.warp_scheduler", "lrr", {"lrr", "gto", "two_level", "oldest"},
               "warp ordering: loose round robin, greedy-then-oldest, two-level, oldest first, or an ordering a mechanism "
               "provides (docs/mechanisms.md)");
  declare_block_impl(t, "sm.issue_select", "the warp schedulers' issue selection (sched/rtl/warp_select.sv: gto and lrr)");
  t.int_param("sm.two_level.active", 8, 1, 256, "two-level: warps in the active set of each scheduler");
  t.enum_param("sm.two_level.inner", "lrr", {"lrr", "gto", "oldest"}, "two-level: ordering inside the active set");
  t.enum_param("sm.two_level.outer", "oldest", {"lrr", "oldest"}, "two-level: which pending warp is promoted");
  t.int_param("sm.warp_limit", 0, 0, 2048, "static warp limiting: only the N oldest resident warps may issue, and a held warp whose block waits at a barrier (0 = off)");
  t.enum_param("sm.exit", "issue", {"issue", "decode"},
               "a warp's exit: issued like any instruction on the branch unit, or retired at the instruction buffer "
               "without an issue slot (the timing some seed papers' worked examples assume)");
  struct UnitDef { UnitKind k; uint32_t count, lanes; const char* what; };
  const UnitDef units[] = {{UnitKind::SP, 2, 16, "single-precision FP"}, {UnitKind::INT, 2, 16, "integer"},
                           {UnitKind::SFU, 1, 4, "special-function"}, {UnitKind::DP, 1, 4, "double-precision"},
                           {UnitKind::LDST, 1, 16, "load/store"}, {UnitKind::BRANCH, 1, 32, "branch/barrier"}};
  for (auto& u : units) {
    std::string p = std::string("sm.unit.") + unit_kind_name(u.k);
    t.int_param(p + ".count", u.count, 1, 64, std::string("number of ") + u.what + " pipelines");
    t.int_param(p + ".lanes", u.lanes, 1, 32, std::string("lanes of each ") + u.what + " pipeline (a warp holds it ceil(32/lanes) cycles)");
    t.int_param(p + ".private", 0, 0, 64,
                std::string("of the ") + u.what + " pipelines, how many are private to the warp schedulers (a multiple "
                "of sm.num_schedulers, unit j belonging to scheduler j mod N; a scheduler takes its own first); the "
                "others are shared by all (sm.shared_units)");
    t.int_param(p + ".private_lanes", 0, 0, 32,
                std::string("lanes of each private ") + u.what + " pipeline (0 = sm.unit.<kind>.lanes; a warp holds it "
                "ceil(32/lanes) cycles)");
  }
  t.bool_param("sm.dual_issue", false,
               "a scheduler that issued an instruction of a warp may issue the warp's next one in the same cycle when "
               "it depends on nothing in flight (the scoreboard), is buffered and finds a free unit (Kepler's two "
               "dispatch units per scheduler)");
  t.enum_param("sm.fetch_scope", "sm", {"sm", "scheduler"},
               "which warps sm.fetch_warps_per_cycle counts: the SM's, round robin over all warps, or each scheduler's "
               "own pool, round robin inside it (Kepler: one warp per pool per cycle)");
  t.enum_param("sm.shared_units", "priority", {"priority", "even"},
               "how the schedulers share the units that are not private: fixed priority (the lowest-numbered scheduler "
               "with an instruction for a unit takes it whole) or even partitioning (each scheduler owns lanes / N of "
               "every shared unit, which a warp holds ceil(32 / (lanes / N)) cycles)");
  t.enum_param("sm.int_alu", "int", {"int", "sp", "sp_all"},
               "where integer add/subtract, min/max, compares, moves, logic and shifts run: on the integer units, on "
               "the SP units' integer ALUs (Kepler), the integer units keeping multiplies, divides, shuffles and "
               "bit-field ops, or every integer instruction on the SP units (sp_all: Fermi's CUDA cores)");
  t.enum_param("sm.control_pipe", "branch", {"branch", "sp"},
               "the unit branches, calls, returns, exits and barriers take: the branch unit, or the SP units (GPGPU-Sim "
               "sends them down its SP pipeline)");
  struct OpDef { OpClass c; uint32_t lat, ii; const char* what; };
  const OpDef ops[] = {{OpClass::Alu, 4, 1, "integer add/subtract"},
                       {OpClass::Simple, 4, 1, "move, conversion, compare, select, logic, shift and bit operation"},
                       {OpClass::Imul, 5, 1, "integer multiply"}, {OpClass::Imad, 5, 1, "integer multiply-add"},
                       {OpClass::Imax, 4, 1, "integer minimum/maximum"}, {OpClass::Idiv, 40, 8, "integer divide/remainder"},
                       {OpClass::Shfl, 4, 1, "warp shuffle"}, {OpClass::Fp, 4, 1, "FP32 add/subtract/multiply"},
                       {OpClass::Fma, 4, 1, "FP32 fused multiply-add"}, {OpClass::Fmax, 4, 1, "FP32 minimum/maximum"},
                       {OpClass::Fdiv, 20, 4, "FP32 divide"}, {OpClass::Sfu, 8, 1, "transcendental and reciprocal"},
                       {OpClass::Dp, 8, 2, "FP64 arithmetic"}, {OpClass::Mem, 1, 1, "address generation of a memory instruction"},
                       {OpClass::Branch, 1, 1, "branch/call/return/exit"}, {OpClass::Barrier, 1, 1, "barrier and fence"}};
  for (auto& o : ops) {
    std::string p = std::string("sm.op.") + op_class_name(o.c);
    t.int_param(p + ".latency", o.lat, 1, 100000, std::string("cycles until the result of ") + o.what + " can be read");
    t.int_param(p + ".ii", o.ii, 1, 1000, std::string("initiation interval of ") + o.what + " (cycles per lane group)");
  }
  t.int_param("sm.writeback_ports", 0, 0, 64, "register-file writes per cycle, shared by ALU results and returning loads (0 = unlimited)");
  t.int_param("sm.regfile_banks", 0, 0, 64,
              "register-file banks behind an operand collector: an issued instruction takes a collector unit, reads "
              "each source register from bank (register + warp slot) mod banks, one read per bank per cycle, and "
              "goes to its unit the cycle after its last read (0 = no collector: operands read at issue)");
  t.int_param("sm.result_buses", 0, 0, 64,
              "with the operand collector: result buses from the units other than the LD/ST unit to the register file. "
              "An instruction enters its unit only at a cycle when a bus is free at the cycle its result is written and "
              "no earlier instruction of that unit completes that cycle; it waits in its collector unit until then "
              "(0 = completions are not booked; sm.writeback_ports limits writes as they happen)");
  t.int_param("sm.unit_stages", 0, 0, 16,
              "cycles every instruction spends in a unit other than the LD/ST unit besides its class's latency: the "
              "unit's dispatch register and the register before writeback (GPGPU-Sim's pipelined units: 2); its result "
              "is written latency + this many cycles after the unit takes it");
  t.int_param("sm.collectors.sp", 6, 1, 64, "operand collector units for SP, INT and branch instructions (with sm.regfile_banks)");
  t.int_param("sm.collectors.sfu", 8, 1, 64, "operand collector units for SFU and DP instructions (with sm.regfile_banks)");
  t.int_param("sm.collectors.mem", 2, 1, 64, "operand collector units for memory instructions (with sm.regfile_banks)");
  t.int_param("sm.collectors.generic", 0, 0, 64,
              "with a value above 0, one set of that many operand collector units takes every instruction, whatever "
              "its unit (GPGPU-Sim's generic set: -gpgpu_enable_specialized_operand_collector 0, "
              "-gpgpu_operand_collector_num_units_gen); sm.collectors.sp, .sfu and .mem are then unused");
  t.int_param("sm.collector_ports.generic", 0, 0, 64,
              "with sm.collectors.generic: instructions per cycle the generic set's ports take into its collector units "
              "and dispatch from them (GPGPU-Sim's -gpgpu_operand_collector_num_in_ports_gen / _out_ports_gen; 0 = unlimited)");
  t.bool_param("sm.sub_cores", false,
               "sub-cores (GPGPU-Sim's -gpgpu_sub_core_model): scheduler s of N owns banks s x B/N to (s+1) x B/N - 1 "
               "of the register file (a register of its warp in slot w lives in bank (register + w) mod B/N of them), "
               "collector units s x C/N to (s+1) x C/N - 1 of each set, and unit j of every kind but the LD/ST unit "
               "when j mod N = s; the LD/ST unit stays shared. Needs the operand collector, and banks, collector units "
               "and those units' counts multiples of N");
  t.int_param("sm.collector_ports.sp", 0, 0, 64,
              "instructions per cycle the SP group's ports take into its collector units and dispatch from them to "
              "the units (GPGPU-Sim's -gpgpu_operand_collector_num_in_ports_sp / _out_ports_sp; 0 = unlimited)");
  t.int_param("sm.collector_ports.sfu", 0, 0, 64,
              "instructions per cycle the SFU group's ports take into its collector units and dispatch from them "
              "(0 = unlimited)");
  t.int_param("sm.collector_ports.mem", 0, 0, 64,
              "instructions per cycle the memory group's ports take into its collector units and dispatch from them "
              "(0 = unlimited)");
  t.int_param("sm.mem_line", 128, 32, 4096, "bytes of a cache line: global and local accesses coalesce per line");
  t.enum_param("sm.coalesce", "line", {"line", "sector"},
               "coalescing: one request per line with a sector mask (Fermi, L1-cached) or one per 32-byte sector (Kepler global loads)");
  t.enum_param("sm.line_order", "lanes", {"lanes", "address_down"},
               "the order the LD/ST unit sends a warp access's lines (and a line's sectors): as the lanes first reach "
               "them, or by address from the highest (GPGPU-Sim's coalescer lists them in address order and its LD/ST "
               "unit takes them from the back, accessq_back)");
  t.enum_param("sm.store_data", "line", {"line", "segment"},
               "with sm.coalesce: line, the data a store request carries to memory: the whole line, or the smallest "
               "aligned segment of 32 B times a power of two holding every sector it writes (32, 64 or 128 B in a "
               "128 B line: the compute capability 2.x transaction sizes, GPGPU-Sim's "
               "memory_coalescing_arch_reduce_and_send)");
  t.int_param("sm.ldst_queue", 32, 1, 4096, "line requests the LD/ST unit holds before it stops taking memory instructions");
  t.enum_param("sm.ldst_occupancy", "interval", {"interval", "accesses"},
               "how long a memory instruction holds the LD/ST unit: its class's initiation interval, or one cycle per "
               "access it makes and at least that interval (global and local: a request per line or sector; shared: "
               "the cycles its bank conflicts hold the array; constant: a lookup per line), so that the next memory "
               "instruction of any space waits behind it");
  t.enum_param("sm.pipeline.model", "decoupled", {"decoupled", "inorder"},
               "timing of issue and execution: decoupled (an instruction's result is ready its class's latency after "
               "issue; memory instructions wait only on the LD/ST unit) or inorder (seed 001's in-order stage "
               "pipeline: subwarps walk front, EXE, MEM and WB stages in lockstep; a bank conflict at MEM0 or a "
               "writeback conflict at WB holds every stage before it; needs one scheduler issuing one instruction "
               "per cycle and no operand collector)");
  t.int_param("sm.pipeline.front_stages", 18, 1, 256, "inorder: stages before EXE, the issue stage first (fetch, decode, operand read)");
  t.int_param("sm.pipeline.exe_stages", 1, 1, 64, "inorder: EXE stages");
  t.int_param("sm.pipeline.mem_stages", 4, 1, 64, "inorder: memory stages MEM0 .. MEM(n-1), after EXE and before the one WB stage");
  t.int_param("sm.pipeline.simd_width", 32, 1, 32,
              "inorder: lanes of the datapath (1, 2, 4, 8, 16 or 32); a warp instruction issues as ceil(32 / simd_width) "
              "subwarps on consecutive issue cycles");
  t.enum_param("sm.pipeline.backend", "unified", {"unified"},
               "inorder: the pipeline after the front end: unified (every subwarp passes the memory stages in lockstep, "
               "spec 001 sec. 1.4) or one a mechanism provides by name");
  t.enum_param("sm.pipeline.return_wb_slots", "subwarps", {"subwarps", "one"},
               "inorder: writeback slots a load's data returning from memory takes: one per subwarp (the datapath "
               "writes simd_width lanes per cycle) or one");
  t.enum_param("sm.barrel", "relaxed", {"relaxed", "strict"},
               "inorder: relaxed (the scoreboard alone orders a warp's instructions) or strict barrel processing (a "
               "warp issues again only after its last subwarp left the pipeline: every instruction in flight is from "
               "a different warp)");
  t.int_param("sm.ccache.size", 8192, 64, 1 << 20, "constant cache bytes");
  t.int_param("sm.ccache.line", 64, 8, 4096, "constant cache line bytes");
  t.int_param("sm.ccache.assoc", 2, 1, 64, "constant cache ways");
  t.int_param("sm.ccache.hit_latency", 4, 1, 10000, "cycles of a constant-cache hit or a kernel-parameter read");
  t.int_param("sm.ccache.miss_latency", 200, 1, 100000, "cycles of a constant-cache miss (sm.ccache.fill: fixed)");
  t.enum_param("sm.ccache.fill", "fixed", {"fixed", "memory"},
               "how a constant-cache miss is served: in sm.ccache.miss_latency cycles, or by a line read through the L1's "
               "port, the crossbar, L2 and DRAM (accesses missing on the same line wait for one fill)");
  t.int_param("sm.ccache.mshr_entries", 2, 1, 64, "constant-cache lines in flight at once (sm.ccache.fill: memory)");
  t.int_param("sm.ccache.mshr_merges", 32, 1, 1024, "accesses that may wait on one line in flight (sm.ccache.fill: memory)");
  t.bool_param("sm.ccache.params", false,
               "kernel parameters (ld.param) are read through the constant cache, from a parameter buffer in memory; "
               "otherwise a parameter buffer in the SM answers in sm.ccache.hit_latency cycles");
  t.enum_param("sm.local_layout", "warp_slot", {"warp_slot", "word_major"},
               "where local memory lies in the addresses the caches and DRAM see: warp_slot (each warp slot's frame in "
               "one piece, its threads' words interleaved) or word_major (each local word of every resident thread of "
               "the GPU in one region, threads of a block together, block slots of successive SMs next to each other: "
               "GPGPU-Sim's -gpgpu_local_mem_map 1)");
  t.enum_param("sm.call_params", "buffer", {"buffer", "local"},
               "where ld.param and st.param of a device function's parameters and of a call's arguments and results "
               "go: the parameter buffer (sm.ccache.hit_latency cycles), or the thread's local memory through the L1 "
               "data cache, each parameter a word of the call frame laid out after the thread's local variables");
}

SmLimits SmParams::occupancy_limits() const {
  SmLimits l;
  l.max_threads = max_threads;
  l.max_warps = max_warps;
  l.max_blocks = max_blocks;
  l.registers = registers;
  l.reg_alloc_unit = reg_alloc_unit;
  l.shared_mem = shared_mem;
  l.smem_alloc_unit = smem_alloc_unit;
  return l;
}

SmParams SmParams::from(const Config& c) {
  SmParams p;
  p.max_threads = uint32_t(c.get_int("sm.max_threads"));
  p.max_warps = uint32_t(c.get_int("sm.max_warps"));
  p.max_blocks = uint32_t(c.get_int("sm.max_blocks"));
  p.registers = uint32_t(c.get_int("sm.registers"));
  p.reg_alloc_unit = uint32_t(c.get_int("sm.reg_alloc_unit"));
  p.shared_mem = uint32_t(c.get_int("sm.shared_mem"));
  p.smem_alloc_unit = uint32_t(c.get_int("sm.smem_alloc_unit"));
  p.icache_perfect = c.get_bool("sm.icache.perfect");
  p.icache_size = uint32_t(c.get_int("sm.icache.size"));
  p.icache_line = uint32_t(c.get_int("sm.icache.line"));
  p.icache_assoc = uint32_t(c.get_int("sm.icache.assoc"));
  p.icache_hit_latency = uint32_t(c.get_int("sm.icache.hit_latency"));
  p.icache_miss_latency = uint32_t(c.get_int("sm.icache.miss_latency"));
  p.icache_fill = fill_from(c, "sm.icache");
  p.ibuffer_entries = uint32_t(c.get_int("sm.ibuffer_entries"));
  p.fetch_warps_per_cycle = uint32_t(c.get_int("sm.fetch_warps_per_cycle"));
  p.num_schedulers = uint32_t(c.get_int("sm.num_schedulers"));
  p.issue_width = uint32_t(c.get_int("sm.issue_width"));
  p.warp_scheduler = c.get_string("sm.warp_scheduler");
  p.issue_select_impl = block_impl(c, "sm.issue_select", IssueSelectRtl::make != nullptr);
  if (p.issue_select_impl != BlockImpl::Model && p.warp_scheduler != "gto" && p.warp_scheduler != "lrr")
    throw InputError(Place{"", 0, "sm.issue_select.impl"},
                     std::string(block_impl_name(p.issue_select_impl)) + " (set at " + c.origin("sm.issue_select.impl") +
                         ") needs an ordering the issue selection's RTL has, gto or lrr; sm.warp_scheduler is '" +
                         p.warp_scheduler + "' (set at " + c.origin("sm.warp_scheduler") + ")");
  p.two_level_active = uint32_t(c.get_int("sm.two_level.active"));
  p.two_level_inner = c.get_string("sm.two_level.inner");
  p.two_level_outer = c.get_string("sm.two_level.outer");
  p.warp_limit = uint32_t(c.get_int("sm.warp_limit"));
  p.exit_at_decode = c.get_string("sm.exit") == "decode";
  for (size_t k = 0; k < size_t(UnitKind::Count); ++k) {
    std::string pre = std::string("sm.unit.") + unit_kind_name(UnitKind(k));
    p.units[k].count = uint32_t(c.get_int(pre + ".count"));
    p.units[k].lanes = uint32_t(c.get_int(pre + ".lanes"));
    p.units[k].private_count = uint32_t(c.get_int(pre + ".private"));
    p.units[k].private_lanes = uint32_t(c.get_int(pre + ".private_lanes"));
  }
  p.dual_issue = c.get_bool("sm.dual_issue");
  p.fetch_per_scheduler = c.get_string("sm.fetch_scope") == "scheduler";
  p.shared_even = c.get_string("sm.shared_units") == "even";
  p.int_alu_on_sp = c.get_string("sm.int_alu") == "sp";
  p.int_all_on_sp = c.get_string("sm.int_alu") == "sp_all";
  p.control_on_sp = c.get_string("sm.control_pipe") == "sp";
  for (size_t k = 0; k < size_t(OpClass::Count); ++k) {
    std::string pre = std::string("sm.op.") + op_class_name(OpClass(k));
    p.ops[k].latency = uint32_t(c.get_int(pre + ".latency"));
    p.ops[k].ii = uint32_t(c.get_int(pre + ".ii"));
  }
  p.writeback_ports = uint32_t(c.get_int("sm.writeback_ports"));
  p.regfile_banks = uint32_t(c.get_int("sm.regfile_banks"));
  p.result_buses = uint32_t(c.get_int("sm.result_buses"));
  p.unit_stages = uint32_t(c.get_int("sm.unit_stages"));
  p.collectors[size_t(CollectorGroup::Sp)] = uint32_t(c.get_int("sm.collectors.sp"));
  p.collectors[size_t(CollectorGroup::Sfu)] = uint32_t(c.get_int("sm.collectors.sfu"));
  p.collectors[size_t(CollectorGroup::Mem)] = uint32_t(c.get_int("sm.collectors.mem"));
  p.collector_ports[size_t(CollectorGroup::Sp)] = uint32_t(c.get_int("sm.collector_ports.sp"));
  p.collector_ports[size_t(CollectorGroup::Sfu)] = uint32_t(c.get_int("sm.collector_ports.sfu"));
  p.collector_ports[size_t(CollectorGroup::Mem)] = uint32_t(c.get_int("sm.collector_ports.mem"));
  if (const uint32_t gen = uint32_t(c.get_int("sm.collectors.generic"))) {
    p.collectors_generic = true;
    p.collectors = {{gen, 0, 0}};
    p.collector_ports = {{uint32_t(c.get_int("sm.collector_ports.generic")), 0, 0}};
  }
  p.sub_cores = c.get_bool("sm.sub_cores");
  p.mem_line = uint32_t(c.get_int("sm.mem_line"));
  p.coalesce_sectors = c.get_string("sm.coalesce") == "sector";
  p.store_segment = c.get_string("sm.store_data") == "segment";
  p.lines_down = c.get_string("sm.line_order") == "address_down";
  p.ldst_queue = uint32_t(c.get_int("sm.ldst_queue"));
  p.ldst_per_access = c.get_string("sm.ldst_occupancy") == "accesses";
  p.ccache_size = uint32_t(c.get_int("sm.ccache.size"));
  p.ccache_line = uint32_t(c.get_int("sm.ccache.line"));
  p.ccache_assoc = uint32_t(c.get_int("sm.ccache.assoc"));
  p.ccache_hit_latency = uint32_t(c.get_int("sm.ccache.hit_latency"));
  p.ccache_miss_latency = uint32_t(c.get_int("sm.ccache.miss_latency"));
  p.ccache_fill = fill_from(c, "sm.ccache");
  p.params_in_ccache = c.get_bool("sm.ccache.params");
  p.call_params_local = c.get_string("sm.call_params") == "local";
  p.local_word_major = c.get_string("sm.local_layout") == "word_major";
  p.inorder = c.get_string("sm.pipeline.model") == "inorder";
  p.front_stages = uint32_t(c.get_int("sm.pipeline.front_stages"));
  p.exe_stages = uint32_t(c.get_int("sm.pipeline.exe_stages"));
  p.mem_stages = uint32_t(c.get_int("sm.pipeline.mem_stages"));
  p.simd_width = uint32_t(c.get_int("sm.pipeline.simd_width"));
  p.return_wb_per_subwarp = c.get_string("sm.pipeline.return_wb_slots") == "subwarps";
  p.strict_barrel = c.get_string("sm.barrel") == "strict";
  p.pipeline_backend = c.get_string("sm.pipeline.backend");
  auto fail = [&c](const char* key, const std::string& why) {
    throw InputError(Place{"", 0, key}, why + " (set at " + c.origin(key) + ")");
  };
  for (size_t k = 0; k < size_t(UnitKind::Count); ++k) {
    const UnitParams& u = p.units[k];
    const std::string pre = std::string("sm.unit.") + unit_kind_name(UnitKind(k));
    if (u.private_count > u.count)
      fail((pre + ".private").c_str(), std::to_string(u.private_count) + " private units is more than the " +
                                           std::to_string(u.count) + " of " + pre + ".count");
    if (u.private_count % p.num_schedulers)
      fail((pre + ".private").c_str(), "must be a multiple of sm.num_schedulers (" + std::to_string(p.num_schedulers) +
                                           "): each scheduler owns the same number of private units");
    if (p.shared_even && u.count > u.private_count && u.lanes % p.num_schedulers)
      fail((pre + ".lanes").c_str(), "must be a multiple of sm.num_schedulers (" + std::to_string(p.num_schedulers) +
                                         ") with sm.shared_units: even (each scheduler owns lanes / N of a shared unit)");
  }
  if (p.sub_cores) {
    const uint32_t N = p.num_schedulers;
    const std::string per = " with sm.sub_cores (each of the sm.num_schedulers = " + std::to_string(N) + " sub-cores owns ";
    if (!p.regfile_banks)
      fail("sm.sub_cores", "needs the operand collector (sm.regfile_banks > 0): a sub-core is its scheduler's banks, "
                           "collector units and units");
    if (p.regfile_banks % N) fail("sm.regfile_banks", "must be a multiple of sm.num_schedulers" + per + "B/N banks)");
    for (size_t g = 0; g < size_t(CollectorGroup::Count); ++g) {
      if (p.collectors_generic && g) break;
      static const char* const kCollectorKeys[] = {"sm.collectors.sp", "sm.collectors.sfu", "sm.collectors.mem"};
      if (p.collectors[g] % N)
        fail(p.collectors_generic ? "sm.collectors.generic" : kCollectorKeys[g],
             "must be a multiple of sm.num_schedulers" + per + "C/N collector units of each set)");
    }
    if (p.shared_even) fail("sm.shared_units", "must be priority with sm.sub_cores (every unit but the LD/ST unit is private)");
    for (size_t k = 0; k < size_t(UnitKind::Count); ++k) {
      if (UnitKind(k) == UnitKind::LDST) continue;
      UnitParams& u = p.units[k];
      const std::string pre = std::string("sm.unit.") + unit_kind_name(UnitKind(k));
      if (u.count % N) fail((pre + ".count").c_str(), "must be a multiple of sm.num_schedulers" + per + "unit j when j mod N is its index)");
      u.private_count = u.count;
    }
  }
  if (p.result_buses && !p.regfile_banks)
    fail("sm.result_buses", "needs the operand collector (sm.regfile_banks > 0): buses are booked when a collector unit "
                            "dispatches");
  if (p.inorder && (p.units_partitioned() || p.dual_issue))
    fail(p.dual_issue ? "sm.dual_issue" : "sm.shared_units",
         "private units, even partitioning and dual issue need sm.pipeline.model: decoupled");
  if (p.simd_width & (p.simd_width - 1))
    fail("sm.pipeline.simd_width", "must be 1, 2, 4, 8, 16 or 32, not " + std::to_string(p.simd_width));
  if (p.inorder) {
    if (p.num_schedulers != 1) fail("sm.num_schedulers", "must be 1 with sm.pipeline.model: inorder (one in-order pipeline)");
    if (p.issue_width != 1) fail("sm.issue_width", "must be 1 with sm.pipeline.model: inorder (single issue)");
    if (p.regfile_banks) fail("sm.regfile_banks", "must be 0 with sm.pipeline.model: inorder (operands are read in the front stages)");
    if (p.exit_at_decode) fail("sm.exit", "must be issue with sm.pipeline.model: inorder");
  }
  return p;
}

}  // namespace warptlm
