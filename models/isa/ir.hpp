// Decoded PTX: one Instr per PTX instruction, resolved at load time into a
// flat per-kernel program (functions linked in, registers numbered, symbols
// turned into addresses, branch targets and reconvergence points computed), so
// the executor does no name or string work while running.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace warptlm {

enum class DType : uint8_t {
  None, Pred,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, F32, F64,
};

inline unsigned dtype_bytes(DType t) {
  switch (t) {
    case DType::B8: case DType::U8: case DType::S8: return 1;
    case DType::B16: case DType::U16: case DType::S16: case DType::F16: case DType::BF16: return 2;
    case DType::B32: case DType::U32: case DType::S32: case DType::F32: case DType::F16x2: return 4;
    case DType::B64: case DType::U64: case DType::S64: case DType::F64: return 8;
    case DType::B128: return 16;
    default: return 0;
  }
}
inline bool dtype_signed(DType t) { return t == DType::S8 || t == DType::S16 || t == DType::S32 || t == DType::S64; }
inline bool dtype_float(DType t) { return t == DType::F16 || t == DType::F32 || t == DType::F64 || t == DType::BF16 || t == DType::F16x2; }
const char* dtype_name(DType t);
bool parse_dtype(const std::string& s, DType& out);

// State spaces of PTX memory. Cbv and Cbh are the communication buffers of a
// mesh of SMs (the spu platform's ld/st.cbv and ld/st.cbh, seed 003 sec. 2.3):
// a load reaches the CB to the north (cbv) or west (cbh), a store the CB to the
// south or east; only a mesh platform's PTX dialect has them.
enum class Space : uint8_t { Generic, Global, Shared, Local, Const, Param, ParamFunc, Cbv, Cbh };
inline bool is_mesh_space(Space s) { return s == Space::Cbv || s == Space::Cbh; }
const char* space_name(Space s);

// Where a value lives for an instruction operand.
enum class OpKind : uint8_t { None, Reg, Pred, Imm, Addr, Vec, Label, Func, Clock };

struct Operand {
  OpKind kind = OpKind::None;
  bool negate = false;       // "!%p" on a predicate source
  uint32_t reg = 0;          // register or predicate slot (Reg, Pred, Addr base); Vec: first entry's index in vec[]
  uint64_t imm = 0;          // Imm bits; Addr: byte offset added to the base
  const uint64_t* immv = nullptr;  // Imm: the value broadcast over 32 lanes (pooled per kernel)
  bool addr_has_reg = false; // Addr: base register present
  bool addr_32 = false;      // Addr: a 32-bit base register: the address wraps at 2^32
  uint8_t nvec = 0;          // Vec: element count
  uint32_t vec[4] = {0, 0, 0, 0};  // Vec: register slots (UINT32_MAX: "_" sink)
  // A special register (%tid.x, %laneid, ...: read-only) read through a register slot: 1 + its SReg
  // (module.hpp), 0 for a register the PTX declared; Reg: special[0], Vec: one per element.
  uint8_t special[4] = {0, 0, 0, 0};
  std::string name;          // Label/Func/symbol name while parsing; unused after link
};

// Opcodes (the base mnemonic); modifiers live in Instr fields.
enum class Op : uint16_t {
  Invalid,
  // integer and bit
  Add, Sub, Mul, Mad, Mul24, Mad24, Addc, Subc, Madc, Sad, Div, Rem, Abs, Neg, Min, Max,
  And, Or, Xor, Not, Cnot, Shl, Shr, Popc, Clz, Brev, Bfe, Bfi, Prmt, Bfind, Fns, ShfL, ShfR,
  // floating point
  Fma, Sqrt, Rsqrt, Rcp, Sin, Cos, Lg2, Ex2, Tanh, Copysign, Testp,
  // compare and select
  Setp, Set, Selp, Slct,
  // data movement and conversion
  Mov, Cvt, Cvta, Ld, Ldu, St, Atom, Red, Prefetch,
  // control
  Bra, Call, Ret, Exit, Bar, BarArrive, BarRed, Membar, Fence, Nanosleep, Trap,
  // warp level
  Shfl, Vote, Activemask, Redux, Match,
  // mechanism instructions
  Relssp,  // scratchpad sharing: release the pair's shared region (seed 000, section 6.2)
  BlockSync,    // bar.blocksync: the block barrier, then the mesh-wide one (seed 003 sec. 2.4)
  UnleashVius,  // bar.unleashvius: release the parked virtual interface units (seed 003 sec. 2.8)
  Count
};
const char* op_name(Op op);
// An instruction a mechanism adds to PTX (listed after the last PTX op): the SM
// issues it like a barrier-class instruction and leaves its effect to the mechanism.
constexpr bool is_mechanism_op(Op op) { return op > Op::Match && op < Op::Count; }

enum class Cmp : uint8_t { None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
enum class Rnd : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };
// setp/set combiner, atom/red operation, shfl mode, vote mode share one field.
enum class SubOp : uint8_t {
  None,
  And, Or, Xor,                                   // boolean combiner / bitwise atom
  Add, Min, Max, Inc, Dec, Exch, Cas,             // atom/red
  Up, Down, Bfly, Idx,                            // shfl
  All, Any, Uni, Ballot,                          // vote
  Finite, Infinite, Number, NotANumber, Normal, Subnormal,  // testp
};

enum InstrFlag : uint16_t {
  F_FTZ = 1 << 0, F_SAT = 1 << 1, F_APPROX = 1 << 2, F_FULL = 1 << 3,
  F_LO = 1 << 4, F_HI = 1 << 5, F_WIDE = 1 << 6, F_UNI = 1 << 7,
  F_TO = 1 << 8, F_SHIFTAMT = 1 << 9, F_CLAMP = 1 << 10, F_VOLATILE = 1 << 11,
  F_CC = 1 << 12,  // .cc: writes the carry flag (add.cc, sub.cc, mad.cc, addc.cc, subc.cc, madc.cc)
  F_PAIR = 1 << 13,  // "d|p" written: the second operand is the instruction's second destination (setp, shfl, match)
  F_NC = 1 << 14,    // ld.global.nc: a load through the non-coherent (read-only) path, kept in the L1 even where global loads bypass it
};

class Warp;
struct ExecCtx;
using ExecFn = void (*)(const struct Instr&, ExecCtx&);

constexpr uint32_t kNamedBarriers = 16;       // barriers per thread block (bar.sync 0..15)
constexpr uint32_t kMeshBarrier = kNamedBarriers;  // the block's own barrier of bar.blocksync (after the named ones)
constexpr uint32_t kNoPc = 0xFFFFFFFFu;       // no reconvergence point known
constexpr uint32_t kFuncExit = 0xFFFFFFFEu;   // reconverge at the function's return

struct Instr {
  Op op = Op::Invalid;
  DType type = DType::None;    // operation type (cvt: destination type)
  DType type2 = DType::None;   // cvt: source type; setp/set: compared type (set: dst is type)
  Space space = Space::Generic;
  Cmp cmp = Cmp::None;
  Rnd rnd = Rnd::None;
  SubOp sub = SubOp::None;     // combiner / atomic op / shfl or vote mode
  uint8_t vec = 1;             // .v2 / .v4
  uint16_t flags = 0;
  int32_t guard = -1;          // predicate slot, -1 when unguarded
  bool guard_neg = false;
  uint8_t nops = 0;
  Operand ops[6];
  ExecFn fn = nullptr;
  bool is_control = false;     // handler sets the warp's next pc itself
  bool is_mem = false;         // produces per-lane addresses
  uint32_t target = kNoPc;     // branch / call target pc
  uint32_t reconv = kNoPc;     // branch: immediate post-dominator pc
  uint32_t call_site = 0;      // call: index into the kernel's call-site table
  uint32_t line = 0;           // PTX source line
  uint32_t pc = 0;             // index in the kernel program
  // Scoreboard view: registers read and written (a predicate p is slot
  // num_regs + p, so one table covers both files).
  uint8_t nreads = 0, nwrites = 0;
  uint32_t reads[12];
  uint32_t writes[4];
  std::string text;            // the PTX source text, for reports
};

// Carry chains: the condition code's carry flag (CC.CF) is a hidden predicate register of the function, which
// the parser appends as the last operand of every instruction that reads or writes it, so registers are
// renumbered at link like any predicate and the scoreboard orders a chain (addc waits for the add.cc before it).
inline bool reads_carry(const Instr& in) { return in.op == Op::Addc || in.op == Op::Subc || in.op == Op::Madc; }
inline bool writes_carry(const Instr& in) { return (in.flags & F_CC) != 0; }
inline bool uses_carry(const Instr& in) { return reads_carry(in) || writes_carry(in); }

// Fill in.reads/in.writes from the operands; `num_regs` offsets predicate slots.
void collect_dependences(Instr& in, uint32_t num_regs);
// How many leading operands of `in` are destinations (0, 1, or 2 for setp p|q and shfl d|p).
unsigned destination_operands(const Instr& in);

// The registers `in`'s operands name, in operand order, the carry flag left out: f(reg, predicate, written)
// for a register or predicate operand, each element of a vector, and an address's base register (read).
template <class F>
void for_each_register_operand(const Instr& in, F&& f) {
  const unsigned ndst = destination_operands(in);
  const unsigned nops = uses_carry(in) ? in.nops - 1u : in.nops;
  for (unsigned i = 0; i < nops; ++i) {
    const Operand& o = in.ops[i];
    const bool written = i < ndst;
    switch (o.kind) {
      case OpKind::Reg: f(o.reg, false, written); break;
      case OpKind::Pred: f(o.reg, true, written); break;
      case OpKind::Vec:
        for (unsigned e = 0; e < o.nvec; ++e)
          if (o.vec[e] != UINT32_MAX) f(o.vec[e], false, written);
        break;
      case OpKind::Addr:
        if (o.addr_has_reg) f(o.reg, false, false);
        break;
      default: break;
    }
  }
}

}  // namespace warptlm
