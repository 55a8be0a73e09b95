// The load-time verifier's writable-operand rule (models/isa/verify.cpp): an
// operand an instruction writes must be a register the PTX declared. Each
// family has a kernel that writes a special register, an immediate, a symbol,
// the sink or a read-only state space, refused naming k.ptx, the line, the
// instruction and the operand, and the same kernel with a writable destination,
// which loads (so each check can fail both ways).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "isa/memory.hpp"
#include "isa/module.hpp"

using namespace warptlm;

namespace {

const char* kHead = ".version 7.5\n.target sm_75\n.address_size 64\n\n";
const char* kRegs =
    "  .reg .pred %p<4>;\n  .reg .b16 %rs<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .f32 %f<4>;\n"
    "  ld.param.u64 %rd1, [out];\n";

std::string kernel(const std::string& body, const std::string& before = "") {
  return std::string(kHead) + before + ".visible .entry k(.param .u64 out)\n{\n" + kRegs + body + "  ret;\n}\n";
}

// The loader's message for `ptx` loaded as k.ptx, or "" when kernel k loads.
std::string load_error(const std::string& ptx) {
  GlobalMemory mem;
  try {
    Module m(ptx, "k.ptx", mem);
    if (const InputError* e = m.refusal("k")) return e->what();
    return m.find_kernel("k") ? "" : "kernel k missing";
  } catch (const InputError& e) {
    return e.what();
  }
}

int line_of(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  if (at == std::string::npos) return -1;
  return 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

// `instr` (one line of PTX, without ';') in kernel k is refused at its line, the message naming the
// instruction as written and the words `says`; `fixed` in its place loads.
void refused_then_fixed(const std::string& instr, const std::string& says, const std::string& fixed,
                        const std::string& before = "") {
  const std::string bad = kernel("  " + instr + ";\n", before);
  const std::string msg = load_error(bad);
  INFO(instr << "\n" << msg);
  CHECK(contains(msg, "k.ptx:" + std::to_string(line_of(bad, instr)) + ":"));
  CHECK(contains(msg, "'" + instr + ";'"));
  CHECK(contains(msg, says));
  INFO("fixed: " << fixed);
  CHECK(load_error(kernel("  " + fixed + ";\n", before)).empty());
}

// The message for a write to special register `sr` as the nth operand.
std::string special(const std::string& nth, const std::string& text, const std::string& sr) {
  return "the " + nth + " operand '" + text + "' is written, but " + sr +
         " is a special register, and special registers are read-only";
}

}  // namespace

TEST_CASE("writable operands: mov into any special register is refused at load, mov out of it loads", "[verifier]") {
  for (const char* sr : {"%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z", "%ctaid.x", "%ctaid.y",
                         "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z", "%laneid", "%warpid", "%nwarpid", "%smid",
                         "%nsmid", "%gridid", "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge",
                         "%lanemask_gt", "%clock"}) {
    refused_then_fixed(std::string("mov.u32 ") + sr + ", %r1", special("first", sr, sr),
                       std::string("mov.u32 %r1, ") + sr);
  }
  for (const char* sr : {"%clock64", "%globaltimer"})
    refused_then_fixed(std::string("mov.u64 ") + sr + ", %rd1", special("first", sr, sr),
                       std::string("mov.u64 %rd2, ") + sr);
}

TEST_CASE("writable operands: arithmetic (add, mad, fma, and, not) into a special register is refused", "[verifier]") {
  refused_then_fixed("add.s32 %ntid.x, %r1, 1", special("first", "%ntid.x", "%ntid.x"), "add.s32 %r2, %ntid.x, 1");
  refused_then_fixed("mad.lo.s32 %ctaid.y, %r1, %r2, %r3", special("first", "%ctaid.y", "%ctaid.y"),
                     "mad.lo.s32 %r4, %ctaid.y, %r2, %r3");
  refused_then_fixed("and.b32 %lanemask_lt, %r1, %r2", special("first", "%lanemask_lt", "%lanemask_lt"),
                     "and.b32 %r3, %lanemask_lt, %r2");
  refused_then_fixed("not.b32 %gridid, %r1", special("first", "%gridid", "%gridid"), "not.b32 %r1, %gridid");
  refused_then_fixed("add.cc.u32 %tid.x, %r1, %r2", special("first", "%tid.x", "%tid.x"), "add.cc.u32 %r3, %r1, %r2");
  refused_then_fixed("@%p1 sub.s32 %laneid, %r1, 1", special("first", "%laneid", "%laneid"),
                     "@%p1 sub.s32 %r2, %r1, 1");
}

TEST_CASE("writable operands: cvt and cvta into a special register are refused", "[verifier]") {
  refused_then_fixed("cvt.u32.u64 %smid, %rd1", special("first", "%smid", "%smid"), "cvt.u32.u64 %r1, %rd1");
  refused_then_fixed("cvt.u32.u16 %nsmid, %rs1", special("first", "%nsmid", "%nsmid"), "cvt.u32.u16 %r1, %rs1");
  refused_then_fixed("cvta.to.global.u64 %clock64, %rd1", special("first", "%clock64", "%clock64"),
                     "cvta.to.global.u64 %rd2, %rd1");
}

TEST_CASE("writable operands: ld into a special register, alone or in a vector, is refused", "[verifier]") {
  refused_then_fixed("ld.global.u32 %laneid, [%rd1]", special("first", "%laneid", "%laneid"),
                     "ld.global.u32 %r1, [%rd1]");
  refused_then_fixed("ld.global.v2.u32 {%r1, %tid.y}, [%rd1]", special("first", "{%r1, %tid.y}", "%tid.y"),
                     "ld.global.v2.u32 {%r1, %r2}, [%rd1]");
  refused_then_fixed("ld.global.v4.u32 {%warpid, %r1, %r2, %r3}, [%rd1]",
                     special("first", "{%warpid, %r1, %r2, %r3}", "%warpid"),
                     "ld.global.v4.u32 {%r4, %r1, %r2, %r3}, [%rd1]");
  // a special register as the address base is read, not written
  refused_then_fixed("ldu.global.u32 %nwarpid, [%rd1]", special("first", "%nwarpid", "%nwarpid"),
                     "ld.shared.u32 %r1, [%tid.x]");
}

TEST_CASE("writable operands: setp with a special register or an immediate as either destination is refused", "[verifier]") {
  refused_then_fixed("setp.eq.s32 %tid.x, %r1, %r2", special("first", "%tid.x", "%tid.x"),
                     "setp.eq.s32 %p1, %tid.x, %r2");
  refused_then_fixed("setp.eq.s32 %p1|%lanemask_eq, %r1, %r2", special("second", "%lanemask_eq", "%lanemask_eq"),
                     "setp.eq.s32 %p1|%p2, %r1, %r2");
  refused_then_fixed("setp.lt.and.s32 %ctaid.x, %r1, %r2, %p3", special("first", "%ctaid.x", "%ctaid.x"),
                     "setp.lt.and.s32 %p1, %r1, %r2, %p3");
  refused_then_fixed("setp.eq.s32 1, %r1, %r2",
                     "the first operand '1' is an immediate where a predicate is needed: it is written",
                     "setp.eq.s32 %p1, %r1, %r2");
  refused_then_fixed("setp.eq.s32 %p1|%r1, %r2, %r3",
                     "the second operand '%r1' is a data register where a predicate is needed: it is written",
                     "setp.eq.s32 %p1|%p2, %r2, %r3");
}

TEST_CASE("writable operands: selp, set and testp into a special register are refused", "[verifier]") {
  refused_then_fixed("selp.b32 %nctaid.x, %r1, %r2, %p1", special("first", "%nctaid.x", "%nctaid.x"),
                     "selp.b32 %r3, %r1, %r2, %p1");
  refused_then_fixed("set.eq.u32.s32 %ntid.z, %r1, %r2", special("first", "%ntid.z", "%ntid.z"),
                     "set.eq.u32.s32 %r3, %r1, %r2");
  refused_then_fixed("testp.finite.f32 %tid.z, %f1", special("first", "%tid.z", "%tid.z"), "testp.finite.f32 %p1, %f1");
}

TEST_CASE("writable operands: atom's destination must be writable, its address is not a register write", "[verifier]") {
  refused_then_fixed("atom.global.add.u32 %tid.z, [%rd1], 1", special("first", "%tid.z", "%tid.z"),
                     "atom.global.add.u32 %r1, [%rd1], %tid.z");
  refused_then_fixed("atom.global.cas.b32 %laneid, [%rd1], %r1, %r2", special("first", "%laneid", "%laneid"),
                     "atom.global.cas.b32 %r3, [%rd1], %r1, %r2");
  refused_then_fixed("atom.global.add.u32 5, [%rd1], 1",
                     "the first operand '5' is an immediate where a data register is needed: it is written",
                     "red.global.add.u32 [%rd1], %laneid");
}

TEST_CASE("writable operands: shfl, vote, activemask, match and redux into a special register are refused", "[verifier]") {
  refused_then_fixed("shfl.sync.idx.b32 %laneid|%p1, %r1, 0, 31, 0xffffffff", special("first", "%laneid", "%laneid"),
                     "shfl.sync.idx.b32 %r2|%p1, %r1, 0, 31, 0xffffffff");
  refused_then_fixed("shfl.sync.idx.b32 %r2|%tid.x, %r1, 0, 31, 0xffffffff", special("second", "%tid.x", "%tid.x"),
                     "shfl.sync.idx.b32 %r2|%p1, %laneid, 0, 31, 0xffffffff");
  refused_then_fixed("shfl.sync.bfly.b32 %smid, %r1, 1, 31, 0xffffffff", special("first", "%smid", "%smid"),
                     "shfl.sync.bfly.b32 %r2, %r1, 1, 31, 0xffffffff");
  refused_then_fixed("vote.sync.ballot.b32 %lanemask_gt, %p1, 0xffffffff", special("first", "%lanemask_gt", "%lanemask_gt"),
                     "vote.sync.ballot.b32 %r1, %p1, 0xffffffff");
  refused_then_fixed("vote.sync.any.pred %tid.x, %p1, 0xffffffff", special("first", "%tid.x", "%tid.x"),
                     "vote.sync.any.pred %p2, %p1, 0xffffffff");
  refused_then_fixed("activemask.b32 %warpid", special("first", "%warpid", "%warpid"), "activemask.b32 %r1");
  refused_then_fixed("match.any.sync.b32 %tid.y, %r1, 0xffffffff", special("first", "%tid.y", "%tid.y"),
                     "match.any.sync.b32 %r2, %r1, 0xffffffff");
  refused_then_fixed("redux.sync.add.u32 %ctaid.z, %r1, 0xffffffff", special("first", "%ctaid.z", "%ctaid.z"),
                     "redux.sync.add.u32 %r2, %r1, 0xffffffff");
}

TEST_CASE("writable operands: bar.red's destination must be writable", "[verifier]") {
  refused_then_fixed("bar.red.popc.u32 %tid.x, 0, %p1", special("first", "%tid.x", "%tid.x"),
                     "bar.red.popc.u32 %r1, 0, %p1");
  refused_then_fixed("bar.red.and.pred %laneid, 0, %p1", special("first", "%laneid", "%laneid"),
                     "bar.red.and.pred %p2, 0, %p1");
}

TEST_CASE("writable operands: an immediate or a symbol as a destination is refused naming it", "[verifier]") {
  refused_then_fixed("mov.u32 7, %r1", "the first operand '7' is an immediate where a data register is needed: it is written",
                     "mov.u32 %r2, 7");
  refused_then_fixed("mov.u64 out, %rd1",
                     "the first operand 'out' is a symbol's address, an immediate, where a data register is needed",
                     "mov.u64 %rd2, out");
  refused_then_fixed("add.u32 g, %r1, 1",
                     "the first operand 'g' is a symbol's address, an immediate, where a data register is needed",
                     "mov.u64 %rd2, g", ".global .u32 g;\n");
  refused_then_fixed("mov.u32 [%rd1], %r1", "the first operand '[%rd1]' is an address where a data register is needed",
                     "st.global.u32 [%rd1], %r1");
}

TEST_CASE("writable operands: stores into .const or a kernel's own .param space are refused", "[verifier]") {
  refused_then_fixed("st.const.u32 [%rd1], %r1", "st writes the .const state space, which is read-only",
                     "st.global.u32 [%rd1], %r1");
  refused_then_fixed("st.const.u32 [c], %r1", "st writes the .const state space, which is read-only",
                     "ld.const.u32 %r1, [c]", ".const .u32 c;\n");
  refused_then_fixed("st.param.u64 [out], %rd1", "st writes a kernel's .param space, which is read-only",
                     "ld.param.u64 %rd2, [out]");
  // st.param into a call's own argument is how a call passes it
  const std::string f = ".func f(.param .b32 x)\n{\n  ret;\n}\n";
  CHECK(load_error(kernel("  {\n  .param .b32 a0;\n  st.param.b32 [a0], %r1;\n  call.uni f, (a0);\n  }\n", f)).empty());
}

TEST_CASE("writable operands: the sink '_' stands only for an element of a destination vector", "[verifier]") {
  refused_then_fixed("st.global.v2.u32 [%rd1], {%r1, _}",
                     "the second operand '{%r1, _}' reads the sink '_', which stands only for an element of a destination vector",
                     "ld.global.v2.u32 {%r1, _}, [%rd1]");
  refused_then_fixed("mov.b64 %rd2, {%r1, _}",
                     "the second operand '{%r1, _}' reads the sink '_', which stands only for an element of a destination vector",
                     "mov.b64 {%r1, _}, %rd2");
  refused_then_fixed("add.s32 _, %r1, %r2", "the sink '_' is accepted only as an element of a destination vector",
                     "add.s32 %r3, %r1, %r2");
  refused_then_fixed("setp.eq.s32 %p1|_, %r1, %r2", "the sink '_' is accepted only as an element of a destination vector",
                     "setp.eq.s32 %p1, %r1, %r2");
}

TEST_CASE("writable operands: special registers cannot be declared, and unmodelled ones are named as such", "[verifier]") {
  const std::string decl = std::string(kHead) + ".visible .entry k()\n{\n  .reg .b32 %laneid;\n  ret;\n}\n";
  const std::string msg = load_error(decl);
  CHECK(contains(msg, "k.ptx:7:"));
  CHECK(contains(msg, "register '%laneid' is declared with the name of a special register"));
  for (const char* sr : {"%envreg3", "%pm7", "%dynamic_smem_size", "%total_smem_size", "%clusterid.x"}) {
    const std::string ptx = kernel(std::string("  mov.u32 %r1, ") + sr + ";\n");
    INFO(sr);
    CHECK(contains(load_error(ptx), std::string("special register '") + sr + "' is not modelled by WarpTLM"));
  }
  CHECK(contains(load_error(kernel("  mov.u32 %r1, %envreg32;\n")), "undeclared register '%envreg32'"));
}

TEST_CASE("writable operands: special registers read as sources load everywhere", "[verifier]") {
  CHECK(load_error(kernel("  add.s32 %r1, %tid.x, %ntid.x;\n  mad.lo.s32 %r2, %ctaid.x, %ntid.x, %tid.x;\n"
                          "  setp.lt.u32 %p1, %laneid, %warpid;\n  selp.b32 %r3, %smid, %nsmid, %p1;\n"
                          "  st.global.v2.u32 [%rd1], {%tid.x, %tid.y};\n  mov.b64 %rd2, {%lanemask_lt, %lanemask_ge};\n"
                          "  shfl.sync.idx.b32 %r4, %tid.x, %laneid, 31, 0xffffffff;\n  mov.u64 %rd3, %clock64;\n"))
            .empty());
}
