#include "isa/ir.hpp"

#include <unordered_map>

namespace warptlm {

const char* dtype_name(DType t) {
  switch (t) {
    case DType::None: return "none"; case DType::Pred: return "pred";
    case DType::B8: return "b8"; case DType::B16: return "b16"; case DType::B32: return "b32";
    case DType::B64: return "b64"; case DType::B128: return "b128";
    case DType::U8: return "u8"; case DType::U16: return "u16"; case DType::U32: return "u32"; case DType::U64: return "u64";
    case DType::S8: return "s8"; case DType::S16: return "s16"; case DType::S32: return "s32"; case DType::S64: return "s64";
    case DType::F16: return "f16"; case DType::F16x2: return "f16x2"; case DType::BF16: return "bf16";
    case DType::F32: return "f32"; case DType::F64: return "f64";
  }
  return "?";
}

bool parse_dtype(const std::string& s, DType& out) {
  static const std::unordered_map<std::string, DType> t = {
      {"pred", DType::Pred}, {"b8", DType::B8}, {"b16", DType::B16}, {"b32", DType::B32}, {"b64", DType::B64},
      {"b128", DType::B128}, {"u8", DType::U8}, {"u16", DType::U16}, {"u32", DType::U32}, {"u64", DType::U64},
      {"s8", DType::S8}, {"s16", DType::S16}, {"s32", DType::S32}, {"s64", DType::S64}, {"f16", DType::F16},
      {"f16x2", DType::F16x2}, {"bf16", DType::BF16}, {"f32", DType::F32}, {"f64", DType::F64}};
  auto it = t.find(s);
  if (it == t.end()) return false;
  out = it->second;
  return true;
}

const char* space_name(Space s) {
  switch (s) {
    case Space::Generic: return "generic"; case Space::Global: return "global"; case Space::Shared: return "shared";
    case Space::Local: return "local"; case Space::Const: return "const"; case Space::Param: return "param";
    case Space::ParamFunc: return "param";
    case Space::Cbv: return "cbv"; case Space::Cbh: return "cbh";
  }
  return "?";
}

const char* op_name(Op op) {
  static const char* names[] = {
      "invalid", "add", "sub", "mul", "mad", "mul24", "mad24", "addc", "subc", "madc", "sad", "div", "rem", "abs", "neg", "min", "max",
      "and", "or", "xor", "not", "cnot", "shl", "shr", "popc", "clz", "brev", "bfe", "bfi", "prmt", "bfind", "fns",
      "shf.l", "shf.r", "fma", "sqrt", "rsqrt", "rcp", "sin", "cos", "lg2", "ex2", "tanh", "copysign", "testp",
      "setp", "set", "selp", "slct", "mov", "cvt", "cvta", "ld", "ldu", "st", "atom", "red", "prefetch",
      "bra", "call", "ret", "exit", "bar.sync", "bar.arrive", "bar.red", "membar", "fence", "nanosleep", "trap",
      "shfl", "vote", "activemask", "redux", "match", "relssp", "bar.blocksync", "bar.unleashvius"};
  static_assert(sizeof(names) / sizeof(names[0]) == size_t(Op::Count), "op names out of step with Op");
  return names[size_t(op)];
}

static bool writes_first_operand(Op op) {
  switch (op) {
    case Op::St: case Op::Red: case Op::Bra: case Op::Call: case Op::Ret: case Op::Exit: case Op::Bar: case Op::Relssp:
    case Op::BlockSync: case Op::UnleashVius:
    case Op::BarArrive: case Op::Membar: case Op::Fence: case Op::Trap: case Op::Prefetch: case Op::Nanosleep:
      return false;
    default: return true;
  }
}

unsigned destination_operands(const Instr& in) {
  unsigned ndst = writes_first_operand(in.op) ? 1 : 0;
  // Second destinations: setp p|q, shfl d|p, match.all d|p.
  if (ndst && in.nops >= 2 && in.ops[1].kind == OpKind::Pred && !in.ops[1].negate &&
      ((in.op == Op::Setp && in.nops >= 4 && in.ops[2].kind != OpKind::Pred) || in.op == Op::Shfl ||
       in.op == Op::Match))
    ndst = 2;
  return ndst;
}

void collect_dependences(Instr& in, uint32_t num_regs) {
  in.nreads = in.nwrites = 0;
  auto rd = [&](uint32_t s) { if (in.nreads < 12) in.reads[in.nreads++] = s; };
  auto wr = [&](uint32_t s) { if (in.nwrites < 4) in.writes[in.nwrites++] = s; };
  if (in.guard >= 0) rd(num_regs + uint32_t(in.guard));
  const unsigned nops = uses_carry(in) ? in.nops - 1u : in.nops;  // the carry flag last, read and/or written
  if (reads_carry(in)) rd(num_regs + in.ops[nops].reg);
  if (writes_carry(in)) wr(num_regs + in.ops[nops].reg);
  for_each_register_operand(in, [&](uint32_t r, bool predicate, bool written) {
    const uint32_t slot = predicate ? num_regs + r : r;
    written ? wr(slot) : rd(slot);
  });
}

}  // namespace warptlm
