#include "isa/verify.hpp"

#include <cctype>

#include "isa/module.hpp"

namespace warptlm {

namespace {

// What one operand position holds. The DataDst and PredDst positions of an
// instruction's shape (shape_of) are its table of written operands: only a
// register the PTX declared may stand there, never a special register, an
// immediate, a symbol or an address.
enum class Want : uint8_t {
  DataDst,   // a data register written
  DataSrc,   // a data register or an immediate read
  PredDst,   // a predicate written
  PredSrc,   // a predicate (possibly negated) or an immediate read
  Address,   // [reg+imm] or [symbol]
  Any,       // checked by the instruction's own handler selection
};

const char* kind_name(OpKind k) {
  switch (k) {
    case OpKind::Reg: return "a data register";
    case OpKind::Pred: return "a predicate";
    case OpKind::Imm: return "an immediate";
    case OpKind::Addr: return "an address";
    case OpKind::Vec: return "a vector";
    case OpKind::Label: return "a label";
    case OpKind::Func: return "a function";
    case OpKind::Clock: return "a clock register";
    default: return "nothing";
  }
}

const char* want_name(Want w) {
  switch (w) {
    case Want::DataDst: return "a data register";
    case Want::DataSrc: return "a data register or an immediate";
    case Want::PredDst: return "a predicate";
    case Want::PredSrc: return "a predicate or an immediate";
    case Want::Address: return "an address";
    default: return "an operand";
  }
}

bool fits(Want w, const Operand& o, bool vec_ok) {
  if (o.negate && w != Want::PredSrc) return false;
  switch (w) {
    case Want::DataDst: return o.kind == OpKind::Reg || (vec_ok && o.kind == OpKind::Vec);
    case Want::DataSrc: return o.kind == OpKind::Reg || o.kind == OpKind::Imm || (vec_ok && o.kind == OpKind::Vec);
    case Want::PredDst: return o.kind == OpKind::Pred;
    case Want::PredSrc: return o.kind == OpKind::Pred || o.kind == OpKind::Imm;
    case Want::Address: return o.kind == OpKind::Addr;
    default: return true;
  }
}

const char* ordinal(unsigned i) {
  static const char* n[] = {"first", "second", "third", "fourth", "fifth", "sixth"};
  return i < 6 ? n[i] : "last";
}

struct Shape {
  unsigned min = 0, max = 0;
  Want w[6] = {Want::Any, Want::Any, Want::Any, Want::Any, Want::Any, Want::Any};
  bool vec_ok = false;  // vector operands allowed (mov pack/unpack, ld/st, atom)
};

Shape data_op(unsigned n) {  // d, a[, b[, c[, e]]]
  Shape s;
  s.min = s.max = n;
  s.w[0] = Want::DataDst;
  for (unsigned i = 1; i < n; ++i) s.w[i] = Want::DataSrc;
  return s;
}

// The shape the executor reads for this instruction; false for an
// instruction the handler selection checks alone.
bool shape_of(const Instr& in, Shape& s) {
  const bool pred = in.type == DType::Pred;
  switch (in.op) {
    case Op::Abs: case Op::Neg: case Op::Cnot: case Op::Popc: case Op::Clz: case Op::Brev: case Op::Bfind:
    case Op::Sqrt: case Op::Rsqrt: case Op::Rcp: case Op::Sin: case Op::Cos: case Op::Lg2: case Op::Ex2:
    case Op::Tanh: case Op::Cvta:
      s = data_op(2);
      return true;
    case Op::Cvt:  // cvt d, a; the packing forms (cvt.f16x2.f32 d, a, b) take two sources
      s = data_op(3);
      s.min = 2;
      return true;
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Mul24: case Op::Div: case Op::Rem: case Op::Min:
    case Op::Max: case Op::Shl: case Op::Shr: case Op::Copysign: case Op::Addc: case Op::Subc:
      s = data_op(3);
      return true;
    case Op::Mad: case Op::Mad24: case Op::Sad: case Op::Fma: case Op::Bfe: case Op::Prmt: case Op::Slct:
    case Op::ShfL: case Op::ShfR: case Op::Fns: case Op::Madc:
      s = data_op(4);
      return true;
    case Op::Bfi:
      s = data_op(5);
      return true;
    case Op::And: case Op::Or: case Op::Xor: case Op::Not: {
      s = data_op(in.op == Op::Not ? 2 : 3);
      if (pred) {
        s.w[0] = Want::PredDst;
        for (unsigned i = 1; i < s.max; ++i) s.w[i] = Want::PredSrc;
      }
      return true;
    }
    case Op::Mov:
      s = data_op(2);
      if (pred) { s.w[0] = Want::PredDst; s.w[1] = Want::PredSrc; }
      else if (in.ops[1].kind == OpKind::Clock) s.w[1] = Want::Any;
      s.vec_ok = !pred;
      return true;
    case Op::Setp: {
      // p[|q], a, b[, {!}c]: a second destination shows as a predicate in the
      // second position followed by a data source (the executor's reading)
      const bool q = (in.flags & F_PAIR) ||
                     (in.nops >= 4 && in.ops[1].kind == OpKind::Pred && !in.ops[1].negate && in.ops[2].kind != OpKind::Pred);
      const unsigned first = q ? 2 : 1;
      const bool comb = in.sub != SubOp::None;
      s.min = s.max = first + 2 + (comb ? 1 : 0);
      s.w[0] = Want::PredDst;
      if (q) s.w[1] = Want::PredDst;
      s.w[first] = s.w[first + 1] = Want::DataSrc;
      if (comb) s.w[first + 2] = Want::PredSrc;
      return true;
    }
    case Op::Set:
      s = data_op(in.sub != SubOp::None ? 4 : 3);
      if (in.sub != SubOp::None) s.w[3] = Want::PredSrc;
      return true;
    case Op::Selp:
      s = data_op(4);
      s.w[3] = Want::PredSrc;
      return true;
    case Op::Testp:
      s = data_op(2);
      s.w[0] = Want::PredDst;
      return true;
    case Op::Activemask:
      s = data_op(1);
      return true;
    case Op::Vote:
      s.min = 2;
      s.max = 3;
      s.w[0] = in.sub == SubOp::Ballot ? Want::DataDst : Want::PredDst;
      s.w[1] = Want::PredSrc;
      s.w[2] = Want::DataSrc;
      return true;
    case Op::Shfl: {
      const bool p = (in.flags & F_PAIR) || (in.nops >= 2 && in.ops[1].kind == OpKind::Pred);
      s.min = p ? 5 : 4;
      s.max = p ? 6 : 5;
      s.w[0] = Want::DataDst;
      if (p) s.w[1] = Want::PredDst;
      for (unsigned i = p ? 2 : 1; i < 6; ++i) s.w[i] = Want::DataSrc;
      return true;
    }
    case Op::Match: {  // match.any d, a, membermask; match.all d[|p], a, membermask
      const bool p = (in.flags & F_PAIR) || (in.nops >= 2 && in.ops[1].kind == OpKind::Pred);
      s.min = s.max = p ? 4 : 3;
      s.w[0] = Want::DataDst;
      if (p) s.w[1] = Want::PredDst;
      s.w[p ? 2 : 1] = s.w[p ? 3 : 2] = Want::DataSrc;
      return true;
    }
    case Op::Redux:  // redux.sync.op.type d, a, membermask
      s = data_op(3);
      return true;
    case Op::Ld: case Op::Ldu:
      s.min = s.max = 2;
      s.w[0] = Want::DataDst;
      s.w[1] = Want::Address;
      s.vec_ok = true;
      return true;
    case Op::St:
      s.min = s.max = 2;
      s.w[0] = Want::Address;
      s.w[1] = Want::DataSrc;
      s.vec_ok = true;
      return true;
    case Op::Atom:
      s.min = 3;
      s.max = 4;
      s.w[0] = Want::DataDst;
      s.w[1] = Want::Address;
      s.w[2] = s.w[3] = Want::DataSrc;
      return true;
    case Op::Red:
      s.min = 2;
      s.max = 3;
      s.w[0] = Want::Address;
      s.w[1] = s.w[2] = Want::DataSrc;
      return true;
    case Op::Prefetch:
      s.min = s.max = 1;
      s.w[0] = Want::Address;
      return true;
    case Op::Bar: case Op::BarArrive:
      s.min = 1;
      s.max = 2;
      s.w[0] = s.w[1] = Want::DataSrc;
      return true;
    case Op::BarRed:
      // d, a{, b}, {!}c
      s.min = 3;
      s.max = 4;
      s.w[0] = in.sub == SubOp::Add ? Want::DataDst : Want::PredDst;
      s.w[1] = Want::DataSrc;
      s.w[2] = in.nops == 4 ? Want::DataSrc : Want::PredSrc;
      s.w[3] = Want::PredSrc;
      return true;
    case Op::Ret: case Op::Exit:
      s.min = s.max = 0;
      return true;
    case Op::Nanosleep:
      s.min = s.max = 1;
      s.w[0] = Want::DataSrc;
      return true;
    default:
      return false;  // bra, call, membar, fence, trap, mechanism instructions: their own checks
  }
}

bool is_destination(Want w) { return w == Want::DataDst || w == Want::PredDst; }

// Operand i as the PTX wrote it, cut from the instruction's text: after the
// guard and the opcode, operands are separated by ',' (and "d|p" by '|') outside
// brackets, braces and parentheses. Empty for the parser's hidden carry flag.
std::string operand_text(const Instr& in, unsigned i) {
  const std::string& t = in.text;
  size_t p = 0;
  if (!t.empty() && t[0] == '@') p = t.find(' ');
  if (p == std::string::npos) return "";
  while (p < t.size() && t[p] == ' ') ++p;
  p = t.find(' ', p);  // past the opcode
  if (p == std::string::npos) return "";
  std::string cur;
  unsigned n = 0;
  int depth = 0;
  for (++p; p < t.size(); ++p) {
    const char c = t[p];
    if (c == '[' || c == '{' || c == '(') ++depth;
    if (c == ']' || c == '}' || c == ')') --depth;
    if (depth == 0 && (c == ',' || c == '|' || c == ';')) {
      if (n++ == i) break;
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (n <= i) return "";
  const size_t b = cur.find_first_not_of(' '), e = cur.find_last_not_of(' ');
  return b == std::string::npos ? "" : cur.substr(b, e - b + 1);
}

// The special register a destination operand names, or null: a register slot
// the parser gave a special register, any element of a vector, or a clock.
const char* written_special(const Operand& o) {
  if (o.kind == OpKind::Clock) return sreg_name(SReg(o.imm));
  if (o.kind == OpKind::Reg && o.special[0]) return sreg_name(SReg(o.special[0] - 1));
  if (o.kind == OpKind::Vec)
    for (unsigned e = 0; e < o.nvec && e < 4; ++e)
      if (o.special[e]) return sreg_name(SReg(o.special[e] - 1));
  return nullptr;
}

bool has_sink(const Operand& o) {
  if (o.kind != OpKind::Vec) return false;
  for (unsigned e = 0; e < o.nvec && e < 4; ++e)
    if (o.vec[e] == UINT32_MAX) return true;
  return false;
}

// Stores into a state space the front end can tell is read-only: .const
// always, and a kernel's own .param space (st.param writes only the .param
// variables of a call sequence, which the parser marks ParamFunc).
bool check_store_space(const Instr& in, std::string& why) {
  if (in.op != Op::St && in.op != Op::Atom && in.op != Op::Red) return true;
  if (in.space == Space::Const) {
    why = std::string(op_name(in.op)) + " writes the .const state space, which is read-only";
    return false;
  }
  if (in.space == Space::Param) {
    why = std::string(op_name(in.op)) +
          " writes a kernel's .param space, which is read-only (st.param writes only the .param variables of a call)";
    return false;
  }
  return true;
}

bool check_barrier_immediates(const Instr& in, std::string& why) {
  unsigned id = 0, count = 1;
  if (in.op == Op::BarRed) { id = 1; count = 2; }
  else if (in.op != Op::Bar && in.op != Op::BarArrive) return true;
  if (in.ops[id].kind == OpKind::Imm && in.ops[id].imm >= kNamedBarriers) {
    why = "barrier id " + std::to_string(in.ops[id].imm) + " is out of range: a block has barriers 0 to " +
          std::to_string(kNamedBarriers - 1);
    return false;
  }
  const bool has_count = in.op == Op::BarRed ? in.nops == 4 : in.nops == 2;
  if (has_count && in.ops[count].kind == OpKind::Imm) {
    const uint64_t n = in.ops[count].imm;
    if (n == 0 || n % 32 != 0 || n > 1024) {
      why = "barrier thread count " + std::to_string(n) + " must be a non-zero multiple of 32 (the warp size), at most 1024";
      return false;
    }
  }
  return true;
}

}  // namespace

bool verify_operands(const Instr& in, std::string& why) {
  Shape s;
  if (!shape_of(in, s)) return true;
  const unsigned nops = uses_carry(in) ? in.nops - 1u : in.nops;  // the parser's hidden carry flag is not written
  if (nops < s.min || nops > s.max) {
    why = std::to_string(nops) + " operand" + (nops == 1 ? "" : "s") + " given, " +
          (s.min == s.max ? std::to_string(s.min) : std::to_string(s.min) + " to " + std::to_string(s.max)) +
          " expected";
    return false;
  }
  for (unsigned i = 0; i < nops; ++i) {
    const Operand& o = in.ops[i];
    const std::string text = operand_text(in, i);
    const std::string named = std::string("the ") + ordinal(i) + " operand" + (text.empty() ? "" : " '" + text + "'");
    const bool dst = is_destination(s.w[i]);
    if (dst) {
      if (const char* sr = written_special(o)) {
        why = named + " is written, but " + sr + " is a special register, and special registers are read-only";
        return false;
      }
    } else if (has_sink(o)) {
      why = named + " reads the sink '_', which stands only for an element of a destination vector";
      return false;
    }
    if (fits(s.w[i], o, s.vec_ok)) continue;
    const bool symbol = o.kind == OpKind::Imm && !text.empty() &&
                        (std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_' || text[0] == '$');
    why = named + " is " + (symbol ? "a symbol's address, an immediate," : kind_name(o.kind)) +
          (o.negate && s.w[i] != Want::PredSrc ? " negated with '!'" : "") + " where " + want_name(s.w[i]) +
          " is needed" + (dst ? ": it is written, and only a declared register can be" : "");
    return false;
  }
  if (!check_store_space(in, why)) return false;
  return check_barrier_immediates(in, why);
}

}  // namespace warptlm
