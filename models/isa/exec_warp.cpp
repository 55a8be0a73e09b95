// Warp-wide operations, which read other lanes of the same warp: shfl.sync,
// vote.sync, match.sync, redux.sync, activemask, and predicate logic.
#include "isa/exec_common.hpp"

namespace warptlm {
namespace {

// shfl.sync.mode.b32 d[|p], a, b, c, membermask  (PTX ISA shfl semantics:
// c packs the segment mask in bits 12:8 and the clamp value in bits 4:0).
void h_shfl(const Instr& in, ExecCtx& c) {
  unsigned i = 1;
  int pslot = -1;
  if (in.ops[1].kind == OpKind::Pred) { pslot = int(in.ops[1].reg); i = 2; }
  const uint64_t* a = src(c, in.ops[i]);
  const uint64_t* b = src(c, in.ops[i + 1]);
  const uint64_t* cc = src(c, in.ops[i + 2]);
  uint64_t* d = dst(c, in.ops[0]);
  uint32_t out[32];
  uint32_t valid = 0;
  for_lanes(c.mask, [&](unsigned l) {
    uint32_t bval = uint32_t(b[l]), cval = uint32_t(cc[l]);
    uint32_t seg = (cval >> 8) & 0x1F;
    uint32_t max_lane = (l & seg) | (cval & 0x1F & ~seg);
    uint32_t min_lane = l & seg;
    int32_t j = int32_t(l);
    bool pv = false;
    switch (in.sub) {
      case SubOp::Up: j = int32_t(l) - int32_t(bval); pv = j >= int32_t(max_lane); break;
      case SubOp::Down: j = int32_t(l) + int32_t(bval); pv = j <= int32_t(max_lane); break;
      case SubOp::Bfly: j = int32_t(l ^ bval); pv = j <= int32_t(max_lane); break;
      default: j = int32_t(min_lane | (bval & 0x1F & ~seg)); pv = j <= int32_t(max_lane); break;
    }
    if (!pv) j = int32_t(l);
    out[l] = uint32_t(a[unsigned(j) & 31]);
    if (pv) valid |= 1u << l;
  });
  for_lanes(c.mask, [&](unsigned l) { d[l] = out[l]; });
  if (pslot >= 0) {
    uint32_t& p = c.w.preds[size_t(pslot)];
    p = (p & ~c.mask) | (valid & c.mask);
  }
}

inline uint32_t pred_src(ExecCtx& c, const Operand& o) {
  if (o.kind == OpKind::Imm) return o.imm ? 0xFFFFFFFFu : 0;
  uint32_t v = c.w.preds[o.reg];
  return o.negate ? ~v : v;
}

// vote.sync.{all,any,uni}.pred p, q, mask ; vote.sync.ballot.b32 d, q, mask
void h_vote(const Instr& in, ExecCtx& c) {
  const uint32_t q = pred_src(c, in.ops[1]) & c.mask;
  if (in.sub == SubOp::Ballot) {
    uint64_t* d = dst(c, in.ops[0]);
    for_lanes(c.mask, [&](unsigned l) { d[l] = q; });
    return;
  }
  bool r = false;
  switch (in.sub) {
    case SubOp::All: r = q == c.mask; break;
    case SubOp::Any: r = q != 0; break;
    case SubOp::Uni: r = q == 0 || q == c.mask; break;
    default: break;
  }
  uint32_t& p = c.w.preds[in.ops[0].reg];
  p = (p & ~c.mask) | (r ? c.mask : 0);
}

// The lanes a match or redux combines: those executing it that its member mask names (a lane outside
// its own member mask is undefined in PTX; here it still gets the result of the named lanes).
inline uint32_t member_lanes(ExecCtx& c, const Operand& membermask) {
  if (c.mask == 0) return 0;
  return c.mask & uint32_t(src(c, membermask)[__builtin_ctz(c.mask)]);
}

// match.any.sync.type d, a, membermask: each lane gets the set of member lanes holding its value.
// match.all.sync.type d[|p], a, membermask: every lane gets the member set when all member lanes hold
// one value, else 0; p says which.
template <bool Wide>
void h_match(const Instr& in, ExecCtx& c) {
  const bool pdst = in.ops[1].kind == OpKind::Pred;
  const uint64_t* a = src(c, in.ops[pdst ? 2 : 1]);
  const uint32_t group = member_lanes(c, in.ops[pdst ? 3 : 2]);
  auto value = [&](unsigned l) { return Wide ? a[l] : uint64_t(uint32_t(a[l])); };
  uint32_t out[32];
  bool all = true;
  if (in.sub == SubOp::Any) {
    for_lanes(c.mask, [&](unsigned l) {
      uint32_t same = 0;
      for_lanes(group, [&](unsigned k) { if (value(k) == value(l)) same |= 1u << k; });
      out[l] = same;
    });
  } else {
    const uint64_t v0 = group ? value(unsigned(__builtin_ctz(group))) : 0;
    for_lanes(group, [&](unsigned k) { all = all && value(k) == v0; });
    for_lanes(c.mask, [&](unsigned l) { out[l] = all ? group : 0; });
  }
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) { d[l] = out[l]; });
  if (pdst) {
    uint32_t& p = c.w.preds[in.ops[1].reg];
    p = (p & ~c.mask) | (all ? c.mask : 0);
  }
}

// redux.sync.op.type d, a, membermask: every lane gets op over the member lanes' a (32-bit).
template <SubOp K, bool Signed>
void h_redux(const Instr& in, ExecCtx& c) {
  const uint64_t* a = src(c, in.ops[1]);
  const uint32_t group = member_lanes(c, in.ops[2]);
  uint32_t r = K == SubOp::And ? 0xFFFFFFFFu : 0;
  bool first = true;
  for_lanes(group, [&](unsigned l) {
    const uint32_t v = uint32_t(a[l]);
    switch (K) {
      case SubOp::Add: r += v; break;
      case SubOp::And: r &= v; break;
      case SubOp::Or: r |= v; break;
      case SubOp::Xor: r ^= v; break;
      case SubOp::Min:
        if (first || (Signed ? int32_t(v) < int32_t(r) : v < r)) r = v;
        break;
      default:  // Max
        if (first || (Signed ? int32_t(v) > int32_t(r) : v > r)) r = v;
        break;
    }
    first = false;
  });
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) { d[l] = r; });
}

ExecFn redux_for(const Instr& in, std::string& why) {
  const bool s32 = in.type == DType::S32, u32 = in.type == DType::U32, b32 = in.type == DType::B32;
  switch (in.sub) {
    case SubOp::Add: if (s32 || u32) return h_redux<SubOp::Add, false>; break;
    case SubOp::Min: if (s32) return h_redux<SubOp::Min, true>; if (u32) return h_redux<SubOp::Min, false>; break;
    case SubOp::Max: if (s32) return h_redux<SubOp::Max, true>; if (u32) return h_redux<SubOp::Max, false>; break;
    case SubOp::And: if (b32) return h_redux<SubOp::And, false>; break;
    case SubOp::Or: if (b32) return h_redux<SubOp::Or, false>; break;
    case SubOp::Xor: if (b32) return h_redux<SubOp::Xor, false>; break;
    default: break;
  }
  why = "redux.sync takes add, min or max on .u32 or .s32, and and, or or xor on .b32";
  return nullptr;
}

void h_activemask(const Instr& in, ExecCtx& c) {
  uint64_t* d = dst(c, in.ops[0]);
  for_lanes(c.mask, [&](unsigned l) { d[l] = c.active; });
}

template <Op K>
void h_pred_logic(const Instr& in, ExecCtx& c) {
  uint32_t a = pred_src(c, in.ops[1]);
  uint32_t r;
  if (K == Op::Not) r = ~a;
  else {
    uint32_t b = pred_src(c, in.ops[2]);
    r = K == Op::And ? (a & b) : K == Op::Or ? (a | b) : (a ^ b);
  }
  uint32_t& p = c.w.preds[in.ops[0].reg];
  p = (p & ~c.mask) | (r & c.mask);
}

}  // namespace

ExecFn select_warp(const Instr& in, std::string& why) {
  switch (in.op) {
    case Op::Shfl:
      if (in.type != DType::B32) { why = "shfl supports .b32"; return nullptr; }
      if (in.nops < 4) { why = "shfl needs d, a, b, c"; return nullptr; }
      return h_shfl;
    case Op::Vote:
      if (in.sub == SubOp::None || in.nops < 2) { why = "vote needs a mode and a predicate"; return nullptr; }
      return h_vote;
    case Op::Activemask: return h_activemask;
    case Op::And: if (in.type == DType::Pred) return h_pred_logic<Op::And>; break;
    case Op::Or: if (in.type == DType::Pred) return h_pred_logic<Op::Or>; break;
    case Op::Xor: if (in.type == DType::Pred) return h_pred_logic<Op::Xor>; break;
    case Op::Not: if (in.type == DType::Pred) return h_pred_logic<Op::Not>; break;
    case Op::Match:
      if (in.sub != SubOp::Any && in.sub != SubOp::All) { why = "match.sync needs .any or .all"; return nullptr; }
      if (in.sub == SubOp::Any && in.ops[1].kind == OpKind::Pred) { why = "match.any has no predicate destination"; return nullptr; }
      if (in.type == DType::B32) return h_match<false>;
      if (in.type == DType::B64) return h_match<true>;
      why = "match.sync takes .b32 or .b64";
      return nullptr;
    case Op::Redux: return redux_for(in, why);
    default: break;
  }
  return nullptr;
}

}  // namespace warptlm
