// Hand-written PTX for instructions nvcc rarely emits. Each test case holds one
// small PTX module, launches it with one warp (32 threads, one block) and checks
// every lane's outputs against values computed here from the PTX ISA semantics.
//
// Layout convention: a kernel's outputs are structure-of-arrays, output k of lane
// l at out[k * 32 + l], so a u32 output k sits at byte offset 128 * k from
// &out[lane] (256 * k for u64 outputs).
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "common/errors.hpp"
#include "isa_fixture.hpp"
#include "ptx_checks.hpp"

using namespace warptlm;
using namespace warptlm_test;

namespace {

constexpr int kLanes = 32;

// ---------------------------------------------------------------- helpers

// got/want hold ops.size() outputs of `lanes` lanes each (structure of arrays);
// one CHECK per output naming the PTX operation and the first wrong lanes.
template <class T, class Eq>
void check_lanes_eq(const std::vector<T>& got, const std::vector<T>& want, const std::vector<std::string>& ops,
                    Eq eq, int lanes = kLanes) {
  check_soa(got, want, size_t(lanes), ops, [&](const T& a, const T& b, size_t k, size_t l) { return eq(a, b, k, int(l)); });
}
template <class T>
void check_lanes(const std::vector<T>& got, const std::vector<T>& want, const std::vector<std::string>& ops,
                 int lanes = kLanes) {
  check_lanes_eq(got, want, ops, [](const T& a, const T& b, size_t, int) { return same(a, b); }, lanes);
}

// One functional GPU with `ptx` loaded as `origin`.
struct PtxModule {
  IsaFixture fx;
  PtxModule(const std::string& ptx, const std::string& origin) { fx.dev->load_ptx(ptx, origin); }
  Device& dev() { return *fx.dev; }
  template <class T>
  DevPtr up(const std::vector<T>& v) { return fx.dev->upload(v); }
  template <class T>
  std::vector<T> down(DevPtr p, size_t n) { return fx.dev->template download<T>(p, n); }
  void launch(const std::string& entry, const std::vector<KernelArg>& args, uint32_t threads = kLanes) {
    fx.dev->launch(entry, Dim3(1), Dim3(threads), args);
  }
};


// IEEE binary16 <-> binary32 references (round to nearest even).
uint16_t f32_to_f16_rn(float f) {
  uint32_t x = fbits(f);
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return sign | 0x7e00;  // NaN (any NaN payload accepted by the check)
  if (ax == 0x7f800000u) return sign | 0x7c00;
  double v = std::fabs(double(f));
  if (v >= 65520.0) return sign | 0x7c00;  // at or above the midpoint 65504..65536: rounds to inf
  if (v < 6.103515625e-05) {               // below 2^-14: subnormal, units of 2^-24
    double q = std::nearbyint(v * 16777216.0);
    return sign | uint16_t(q);             // q == 1024 is the smallest normal, encoded the same way
  }
  int e;
  std::frexp(v, &e);                       // v = m * 2^e, m in [0.5, 1)
  double q = std::nearbyint(std::ldexp(v, 11 - e));  // 11 significant bits, in [1024, 2048]
  int E = e - 1;
  if (q == 2048) {
    q = 1024;
    ++E;
  }
  if (E > 15) return sign | 0x7c00;
  return uint16_t(sign | ((E + 15) << 10) | (uint32_t(q) - 1024));
}
float f16_to_f32(uint16_t h) {
  int sign = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  float v;
  if (e == 0x1f) v = m ? std::numeric_limits<float>::quiet_NaN() : INFINITY;
  else if (e == 0) v = std::ldexp(float(m), -24);
  else v = std::ldexp(float(1024 + m), e - 25);
  return sign ? -v : v;
}

// f64 -> f32 rounded toward zero.
float f64_to_f32_rz(double d) {
  if (std::isnan(d)) return float(d);
  float f = float(d);
  if (std::fabs(double(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
  return f;
}

}  // namespace

// ====================================================================== compare and select

namespace {
const char* kCmpPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

// out[k*32 + lane]: the results of set/slct/setp on ia/ib (s32) and fa/fb (f32).
.visible .entry cmp_ops(
	.param .u64 cmp_ops_out,
	.param .u64 cmp_ops_ia,
	.param .u64 cmp_ops_ib,
	.param .u64 cmp_ops_fa,
	.param .u64 cmp_ops_fb
)
{
	.reg .pred 	%p<8>;
	.reg .b32 	%r<24>;
	.reg .f32 	%f<8>;
	.reg .b64 	%rd<16>;

	ld.param.u64 	%rd1, [cmp_ops_out];
	ld.param.u64 	%rd2, [cmp_ops_ia];
	ld.param.u64 	%rd3, [cmp_ops_ib];
	ld.param.u64 	%rd4, [cmp_ops_fa];
	ld.param.u64 	%rd5, [cmp_ops_fb];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd6, %r1, 4;
	cvta.to.global.u64 	%rd7, %rd1;
	add.s64 	%rd7, %rd7, %rd6;
	cvta.to.global.u64 	%rd8, %rd2;
	add.s64 	%rd8, %rd8, %rd6;
	ld.global.u32 	%r2, [%rd8];
	cvta.to.global.u64 	%rd9, %rd3;
	add.s64 	%rd9, %rd9, %rd6;
	ld.global.u32 	%r3, [%rd9];
	cvta.to.global.u64 	%rd10, %rd4;
	add.s64 	%rd10, %rd10, %rd6;
	ld.global.f32 	%f1, [%rd10];
	cvta.to.global.u64 	%rd11, %rd5;
	add.s64 	%rd11, %rd11, %rd6;
	ld.global.f32 	%f2, [%rd11];
	and.b32 	%r4, %r1, 1;
	setp.ne.u32 	%p1, %r4, 0;
	set.lt.u32.s32 	%r5, %r2, %r3;
	st.global.u32 	[%rd7], %r5;
	set.ge.u32.s32 	%r6, %r2, %r3;
	st.global.u32 	[%rd7+128], %r6;
	set.lt.f32.f32 	%f3, %f1, %f2;
	st.global.f32 	[%rd7+256], %f3;
	set.gt.and.u32.s32 	%r7, %r2, %r3, %p1;
	st.global.u32 	[%rd7+384], %r7;
	set.eq.and.u32.s32 	%r8, %r2, %r3, !%p1;
	st.global.u32 	[%rd7+512], %r8;
	slct.s32.s32 	%r9, %r2, %r3, %r3;
	st.global.u32 	[%rd7+640], %r9;
	slct.f32.f32 	%f4, %f2, %f1, %f1;
	st.global.f32 	[%rd7+768], %f4;
	setp.lt.s32 	%p2|%p3, %r2, %r3;
	selp.u32 	%r10, 1, 0, %p2;
	selp.u32 	%r11, 2, 0, %p3;
	or.b32 	%r12, %r10, %r11;
	st.global.u32 	[%rd7+896], %r12;
	setp.lt.or.s32 	%p4|%p5, %r2, %r3, !%p1;
	selp.u32 	%r13, 1, 0, %p4;
	selp.u32 	%r14, 2, 0, %p5;
	or.b32 	%r15, %r13, %r14;
	st.global.u32 	[%rd7+1024], %r15;
	setp.ge.xor.f32 	%p6|%p7, %f1, %f2, %p1;
	selp.u32 	%r16, 1, 0, %p6;
	selp.u32 	%r17, 2, 0, %p7;
	or.b32 	%r18, %r16, %r17;
	st.global.u32 	[%rd7+1152], %r18;
	ret;
}
)PTX";
}  // namespace

TEST_CASE("ptx set, slct and setp with two destinations and combiners", "[ptx][pred]") {
  PtxModule m(kCmpPtx, "cmp_ops.ptx");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<int32_t> ia = {0, 1, -1, 5, -5, INT32_MIN, INT32_MAX, 7, -7, 100, 0, 3, -3, 42, -42, 1000,
                             INT32_MIN, -1, 2, 2, 9, -9, 0, 77, -77, 12, 13, 14, -15, 16, 17, -18};
  std::vector<int32_t> ib = {0, -1, 1, 5, 5, INT32_MAX, INT32_MIN, 7, 7, -100, -1, 3, 3, 41, -43, 999,
                             INT32_MIN, 0, -2, 2, 9, -9, 1, -77, 77, 12, -13, 15, -14, 0, -17, 18};
  std::vector<float> fa = {1.0f, -1.0f, 0.0f, -0.0f, nan, 2.5f, -2.5f, INFINITY, -INFINITY, 3.0f, nan, 1e-40f,
                           -1e-40f, 7.0f, 7.0f, -0.5f, 0.5f, 100.0f, -100.0f, 1.0f, 2.0f, 3.0f, -4.0f, 5.0f,
                           -6.0f, 0.25f, -0.25f, 8.0f, nan, 0.0f, -3.0f, 9.0f};
  std::vector<float> fb = {2.0f, -2.0f, -0.0f, 0.0f, 1.0f, nan, -2.5f, INFINITY, 0.0f, 3.0f, nan, 0.0f,
                           0.0f, 6.0f, 8.0f, -0.25f, 0.5f, -100.0f, 100.0f, 1.5f, 1.5f, 3.5f, -4.5f, -5.0f,
                           6.0f, 0.5f, -0.5f, 8.0f, 2.0f, 1.0f, -2.0f, 10.0f};
  REQUIRE(ia.size() == 32);
  REQUIRE(ib.size() == 32);
  REQUIRE(fa.size() == 32);
  REQUIRE(fb.size() == 32);
  const int K = 10;
  DevPtr out = m.up(std::vector<uint32_t>(K * 32, 0xAAAAAAAAu));
  m.launch("cmp_ops", {arg(out), arg(m.up(ia)), arg(m.up(ib)), arg(m.up(fa)), arg(m.up(fb))});
  auto got = m.down<uint32_t>(out, K * 32);
  std::vector<uint32_t> want(K * 32);
  for (int l = 0; l < 32; ++l) {
    int32_t a = ia[l], b = ib[l];
    float x = fa[l], y = fb[l];
    bool odd = l & 1;
    // set: integer destinations get 0xffffffff for true, 0 for false; f32 gets 1.0f / 0.0f.
    want[0 * 32 + l] = a < b ? 0xffffffffu : 0u;
    want[1 * 32 + l] = a >= b ? 0xffffffffu : 0u;
    want[2 * 32 + l] = fbits((x < y) ? 1.0f : 0.0f);  // ordered lt: false with a NaN
    // set.CmpOp.BoolOp: d = BoolOp(a CmpOp b, c).
    want[3 * 32 + l] = (a > b && odd) ? 0xffffffffu : 0u;
    want[4 * 32 + l] = (a == b && !odd) ? 0xffffffffu : 0u;
    // slct: d = (c >= 0) ? a : b; here c is b itself.
    want[5 * 32 + l] = uint32_t(b >= 0 ? a : b);
    // slct.f32: d = (c >= 0) ? a : b with c = fa; -0.0 >= 0 is true, NaN >= 0 is false
    // (the comparison is false, so b is selected, copied without modification).
    want[6 * 32 + l] = fbits(x >= 0.0f ? y : x);
    // setp with p|q: p = t, q = !t.
    bool t = a < b;
    want[7 * 32 + l] = uint32_t(t) | (uint32_t(!t) << 1);
    // setp.CmpOp.BoolOp p|q, a, b, c: p = BoolOp(t, c), q = BoolOp(!t, c); c = !odd here.
    want[8 * 32 + l] = uint32_t(t || !odd) | (uint32_t(!t || !odd) << 1);
    // Ordered ge is false with a NaN operand, so q = !t is true then.
    bool tf = x >= y;
    want[9 * 32 + l] = uint32_t(tf != odd) | (uint32_t((!tf) != odd) << 1);
  }
  check_lanes(got, want,
              {"set.lt.u32.s32", "set.ge.u32.s32", "set.lt.f32.f32", "set.gt.and.u32.s32 .., %p1",
               "set.eq.and.u32.s32 .., !%p1", "slct.s32.s32", "slct.f32.f32", "setp.lt.s32 %p2|%p3",
               "setp.lt.or.s32 %p4|%p5, .., !%p1", "setp.ge.xor.f32 %p6|%p7, .., %p1"});
}

// ====================================================================== bits and predicate logic

namespace {
const char* kBitsPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.visible .entry bit_ops(
	.param .u64 bit_ops_out,
	.param .u64 bit_ops_a,
	.param .u64 bit_ops_b,
	.param .u64 bit_ops_c
)
{
	.reg .pred 	%p<12>;
	.reg .b32 	%r<32>;
	.reg .b64 	%rd<16>;

	ld.param.u64 	%rd1, [bit_ops_out];
	ld.param.u64 	%rd2, [bit_ops_a];
	ld.param.u64 	%rd3, [bit_ops_b];
	ld.param.u64 	%rd4, [bit_ops_c];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd6, %r1, 4;
	cvta.to.global.u64 	%rd7, %rd1;
	add.s64 	%rd7, %rd7, %rd6;
	cvta.to.global.u64 	%rd8, %rd2;
	add.s64 	%rd8, %rd8, %rd6;
	ld.global.u32 	%r2, [%rd8];
	cvta.to.global.u64 	%rd9, %rd3;
	add.s64 	%rd9, %rd9, %rd6;
	ld.global.u32 	%r3, [%rd9];
	cvta.to.global.u64 	%rd10, %rd4;
	add.s64 	%rd10, %rd10, %rd6;
	ld.global.u32 	%r4, [%rd10];
	bfind.u32 	%r5, %r2;
	st.global.u32 	[%rd7], %r5;
	bfind.s32 	%r6, %r2;
	st.global.u32 	[%rd7+128], %r6;
	bfind.shiftamt.u32 	%r7, %r2;
	st.global.u32 	[%rd7+256], %r7;
	shf.l.wrap.b32 	%r8, %r2, %r3, %r4;
	st.global.u32 	[%rd7+384], %r8;
	shf.r.clamp.b32 	%r9, %r2, %r3, %r4;
	st.global.u32 	[%rd7+512], %r9;
	prmt.b32 	%r10, %r2, %r3, %r4;
	st.global.u32 	[%rd7+640], %r10;
	cnot.b32 	%r11, %r2;
	st.global.u32 	[%rd7+768], %r11;
	and.b32 	%r12, %r1, 1;
	setp.ne.u32 	%p1, %r12, 0;
	and.b32 	%r13, %r1, 2;
	setp.ne.u32 	%p2, %r13, 0;
	not.pred 	%p3, %p1;
	and.pred 	%p4, %p1, %p2;
	or.pred 	%p5, %p1, %p2;
	xor.pred 	%p6, %p1, %p2;
	selp.u32 	%r14, 1, 0, %p3;
	selp.u32 	%r15, 2, 0, %p4;
	selp.u32 	%r16, 4, 0, %p5;
	selp.u32 	%r17, 8, 0, %p6;
	or.b32 	%r18, %r14, %r15;
	or.b32 	%r18, %r18, %r16;
	or.b32 	%r18, %r18, %r17;
	st.global.u32 	[%rd7+896], %r18;
	ret;
}
)PTX";

// bfind: position of the most significant 1 bit (for negative .s32 inputs, of
// the most significant 0 bit: a = ~a first); 0xffffffff if none; .shiftamt
// returns 31 - position instead (still 0xffffffff if none).
uint32_t bfind_ref(uint32_t a, bool is_signed, bool shiftamt) {
  if (is_signed && (a & 0x80000000u)) a = ~a;
  int d = -1;
  for (int i = 31; i >= 0; --i)
    if (a & (1u << i)) {
      d = i;
      break;
    }
  if (shiftamt && d != -1) d = 31 - d;
  return uint32_t(d);
}
}  // namespace

TEST_CASE("ptx bfind, shf, prmt with sign replication, cnot and predicate logic", "[ptx][bits]") {
  PtxModule m(kBitsPtx, "bit_ops.ptx");
  std::vector<uint32_t> a = {0u, 1u, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x00010000u, 0xfffffffeu, 0x40000000u,
                             0x12345678u, 0x89abcdefu, 0x00000080u, 0xffff8000u, 0x0f0f0f0fu, 0xf0f0f0f0u, 3u, 0xc0000000u};
  std::mt19937 g(2024);
  while (a.size() < 32) a.push_back(g() >> (g() % 32));
  std::vector<uint32_t> b(32);
  for (auto& v : b) v = g();
  // Shift counts / prmt selectors: funnel counts 0, 1, 31, 32, 33, 63, 64 and large; prmt
  // selectors mixing copy nibbles and sign-replicate nibbles (bit 3 set), upper half garbage.
  std::vector<uint32_t> c = {0u,      1u,      31u,     32u,     33u,     63u,         64u,         0xffffffffu,
                             0x3210u, 0x7654u, 0x8888u, 0xba98u, 0xfedcu, 0x0c4du,     0x9a1bu,     0x4567u,
                             16u,     8u,      24u,     40u,     5u,      0xffff8091u, 0x12343b2au, 0x0000f0e1u,
                             0x1111u, 0x9999u, 0xcccc,  0x7e5fu, 0x2u,    0x1cu,       0x7fffffffu, 0x80000020u};
  REQUIRE(c.size() == 32);
  const int K = 8;
  DevPtr out = m.up(std::vector<uint32_t>(K * 32, 0xAAAAAAAAu));
  m.launch("bit_ops", {arg(out), arg(m.up(a)), arg(m.up(b)), arg(m.up(c))});
  auto got = m.down<uint32_t>(out, K * 32);
  std::vector<uint32_t> want(K * 32);
  for (int l = 0; l < 32; ++l) {
    uint32_t x = a[l], y = b[l], z = c[l];
    want[0 * 32 + l] = bfind_ref(x, false, false);
    want[1 * 32 + l] = bfind_ref(x, true, false);
    want[2 * 32 + l] = bfind_ref(x, false, true);
    uint64_t pair = (uint64_t(y) << 32) | x;  // {b, a}
    // shf.l.wrap: n = c & 31; d = upper 32 bits of ({b,a} << n).
    want[3 * 32 + l] = uint32_t((pair << (z & 31)) >> 32);
    // shf.r.clamp: n = min(c, 32); d = lower 32 bits of ({b,a} >> n).
    want[4 * 32 + l] = uint32_t(pair >> std::min<uint32_t>(z, 32));
    want[5 * 32 + l] = prmt_ref(x, y, z);
    want[6 * 32 + l] = x == 0 ? 1u : 0u;  // cnot: d = (a == 0) ? 1 : 0
    bool p1 = l & 1, p2 = l & 2;
    want[7 * 32 + l] = uint32_t(!p1) | uint32_t(p1 && p2) << 1 | uint32_t(p1 || p2) << 2 | uint32_t(p1 != p2) << 3;
  }
  check_lanes(got, want,
              {"bfind.u32", "bfind.s32", "bfind.shiftamt.u32", "shf.l.wrap.b32", "shf.r.clamp.b32", "prmt.b32",
               "cnot.b32", "not/and/or/xor.pred (bits 0..3)"});
}

// ====================================================================== integer arithmetic

namespace {
const char* kIntPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

// in32: 6 arrays of 32 s32 (A, B, C, D, E, S); in64: 2 arrays of 32 u64 (X, Y).
.visible .entry int_ops(
	.param .u64 int_ops_out,
	.param .u64 int_ops_out64,
	.param .u64 int_ops_in32,
	.param .u64 int_ops_in64
)
{
	.reg .b32 	%r<40>;
	.reg .b64 	%rd<40>;

	ld.param.u64 	%rd1, [int_ops_out];
	ld.param.u64 	%rd2, [int_ops_out64];
	ld.param.u64 	%rd3, [int_ops_in32];
	ld.param.u64 	%rd4, [int_ops_in64];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd5, %r1, 4;
	mul.wide.u32 	%rd6, %r1, 8;
	cvta.to.global.u64 	%rd7, %rd1;
	add.s64 	%rd7, %rd7, %rd5;
	cvta.to.global.u64 	%rd8, %rd2;
	add.s64 	%rd8, %rd8, %rd6;
	cvta.to.global.u64 	%rd9, %rd3;
	add.s64 	%rd9, %rd9, %rd5;
	cvta.to.global.u64 	%rd10, %rd4;
	add.s64 	%rd10, %rd10, %rd6;
	ld.global.u32 	%r2, [%rd9];
	ld.global.u32 	%r3, [%rd9+128];
	ld.global.u32 	%r4, [%rd9+256];
	ld.global.u32 	%r5, [%rd9+384];
	ld.global.u32 	%r6, [%rd9+512];
	ld.global.u32 	%r7, [%rd9+640];
	ld.global.u64 	%rd11, [%rd10];
	ld.global.u64 	%rd12, [%rd10+256];
	sad.s32 	%r10, %r2, %r3, %r4;
	st.global.u32 	[%rd7], %r10;
	mul24.lo.s32 	%r11, %r5, %r6;
	st.global.u32 	[%rd7+128], %r11;
	and.b32 	%r12, %r5, 16777215;
	and.b32 	%r13, %r6, 16777215;
	mad24.lo.u32 	%r14, %r12, %r13, %r4;
	st.global.u32 	[%rd7+256], %r14;
	mad.hi.s32 	%r15, %r2, %r3, %r4;
	st.global.u32 	[%rd7+384], %r15;
	div.s32 	%r16, %r2, %r3;
	st.global.u32 	[%rd7+512], %r16;
	rem.s32 	%r17, %r2, %r3;
	st.global.u32 	[%rd7+640], %r17;
	shr.s32 	%r18, %r2, %r7;
	st.global.u32 	[%rd7+768], %r18;
	shr.u32 	%r19, %r2, %r7;
	st.global.u32 	[%rd7+896], %r19;
	shl.b32 	%r20, %r2, %r7;
	st.global.u32 	[%rd7+1024], %r20;
	mul.hi.u64 	%rd13, %rd11, %rd12;
	st.global.u64 	[%rd8], %rd13;
	mul.hi.s64 	%rd14, %rd11, %rd12;
	st.global.u64 	[%rd8+256], %rd14;
	shl.b64 	%rd15, %rd11, 63;
	st.global.u64 	[%rd8+512], %rd15;
	shr.s64 	%rd16, %rd11, %r7;
	st.global.u64 	[%rd8+768], %rd16;
	cvt.u64.u32 	%rd17, %r2;
	st.global.u64 	[%rd8+1024], %rd17;
	cvt.s64.s32 	%rd18, %r2;
	st.global.u64 	[%rd8+1280], %rd18;
	ret;
}
)PTX";
}  // namespace

TEST_CASE("ptx sad, mul24, mad24, mul.hi/mad.hi, div/rem edge cases, oversized shifts, cvt 32->64",
          "[ptx][int]") {
  PtxModule m(kIntPtx, "int_ops.ptx");
  std::mt19937 g(77);
  std::vector<int32_t> A(32), B(32), C(32), D(32), E(32), S(32);
  // Division pairs: negative divisors, INT_MIN / -1 (the quotient wraps to INT_MIN, remainder 0).
  const std::pair<int32_t, int32_t> divs[] = {{7, -2},         {-7, 2},        {-7, -2},      {INT32_MIN, -1},
                                              {INT32_MIN, 1},  {INT32_MAX, -1}, {INT32_MIN, 2}, {-1, INT32_MIN},
                                              {100, -7},       {-100, 7},      {0, -5},       {INT32_MIN, INT32_MIN}};
  const uint32_t shifts[] = {0, 1, 31, 32, 33, 40, 63, 64, 255, 0xffffffffu, 0x80000000u, 16};
  for (int l = 0; l < 32; ++l) {
    if (l < 12) {
      A[l] = divs[l].first;
      B[l] = divs[l].second;
    } else {
      A[l] = int32_t(g());
      do B[l] = int32_t(g()) >> (g() % 31); while (B[l] == 0);
      if (l & 1) B[l] = -std::abs(B[l] == INT32_MIN ? 3 : B[l]);
    }
    C[l] = int32_t(g());
    // 24-bit signed operands for mul24 (bit 23 is the sign); mad24.u32 masks them to 24 bits.
    D[l] = (int32_t(g() << 8) >> 8);
    E[l] = (int32_t(g() << 8) >> 8);
    S[l] = int32_t(l < 12 ? shifts[l] : g() % 70);
  }
  A[20] = -8;  // shr.s32 of a negative value by >= 32 gives -1
  S[20] = 32;
  A[21] = -8;
  S[21] = 1000;
  std::vector<uint64_t> X(32), Y(32);
  const uint64_t xs[] = {0, 1, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 3, 0xffffffff00000000ull};
  const uint64_t ys[] = {~0ull, ~0ull, ~0ull, 0x8000000000000000ull, 2, 0x8000000000000001ull, 0xffffffffull};
  for (int l = 0; l < 32; ++l) {
    X[l] = l < 7 ? xs[l] : (uint64_t(g()) << 32 | g());
    Y[l] = l < 7 ? ys[l] : (uint64_t(g()) << 32 | g());
  }
  std::vector<int32_t> in32;
  for (auto* v : {&A, &B, &C, &D, &E, &S}) in32.insert(in32.end(), v->begin(), v->end());
  std::vector<uint64_t> in64 = X;
  in64.insert(in64.end(), Y.begin(), Y.end());

  const int K = 9, K64 = 6;
  DevPtr out = m.up(std::vector<uint32_t>(K * 32, 0xAAAAAAAAu));
  DevPtr out64 = m.up(std::vector<uint64_t>(K64 * 32, 0xAAAAAAAAAAAAAAAAull));
  m.launch("int_ops", {arg(out), arg(out64), arg(m.up(in32)), arg(m.up(in64))});
  auto got = m.down<uint32_t>(out, K * 32);
  auto got64 = m.down<uint64_t>(out64, K64 * 32);

  std::vector<uint32_t> want(K * 32);
  std::vector<uint64_t> want64(K64 * 32);
  for (int l = 0; l < 32; ++l) {
    int32_t a = A[l], b = B[l], c = C[l];
    uint32_t ua = uint32_t(a), ub = uint32_t(b), uc = uint32_t(c);
    // sad.s32: d = c + ((a < b) ? b - a : a - b), in 32-bit wrapping arithmetic.
    want[0 * 32 + l] = uc + (a < b ? ub - ua : ua - ub);
    // mul24.lo.s32: low 32 bits of the 48-bit product of the 24-bit signed operands.
    want[1 * 32 + l] = uint32_t(int64_t(D[l]) * int64_t(E[l]));
    // mad24.lo.u32: low 32 bits of the 24x24-bit unsigned product, plus c.
    want[2 * 32 + l] = uint32_t(uint64_t(uint32_t(D[l]) & 0xffffff) * (uint32_t(E[l]) & 0xffffff)) + uc;
    // mad.hi.s32: high 32 bits of the 64-bit product, plus c.
    want[3 * 32 + l] = uint32_t(uint64_t(int64_t(a) * int64_t(b)) >> 32) + uc;
    // div/rem.s32 truncate toward zero; INT_MIN / -1 overflows: two's complement wrap
    // gives INT_MIN and remainder 0 (what the hardware returns; the host must not trap).
    if (a == INT32_MIN && b == -1) {
      want[4 * 32 + l] = uint32_t(INT32_MIN);
      want[5 * 32 + l] = 0;
    } else {
      want[4 * 32 + l] = uint32_t(a / b);
      want[5 * 32 + l] = uint32_t(a % b);
    }
    // Shifts: the amount is unsigned and amounts greater than the width clamp to it.
    uint32_t s = uint32_t(S[l]);
    want[6 * 32 + l] = uint32_t(s >= 32 ? (a < 0 ? -1 : 0) : (a >> s));
    want[7 * 32 + l] = s >= 32 ? 0u : ua >> s;
    want[8 * 32 + l] = s >= 32 ? 0u : ua << s;
    uint64_t x = X[l], y = Y[l];
    want64[0 * 32 + l] = uint64_t((unsigned __int128)x * y >> 64);
    want64[1 * 32 + l] = uint64_t((__int128)int64_t(x) * int64_t(y) >> 64);
    want64[2 * 32 + l] = x << 63;
    want64[3 * 32 + l] = uint64_t(s >= 64 ? (int64_t(x) < 0 ? -1 : 0) : (int64_t(x) >> s));
    want64[4 * 32 + l] = uint64_t(ua);              // cvt.u64.u32 zero-extends
    want64[5 * 32 + l] = uint64_t(int64_t(a));      // cvt.s64.s32 sign-extends
  }
  check_lanes(got, want,
              {"sad.s32", "mul24.lo.s32", "mad24.lo.u32", "mad.hi.s32", "div.s32", "rem.s32", "shr.s32 (amount >= 32)",
               "shr.u32", "shl.b32"});
  check_lanes(got64, want64, {"mul.hi.u64", "mul.hi.s64", "shl.b64 by 63", "shr.s64 by register", "cvt.u64.u32",
                              "cvt.s64.s32"});
}

// ====================================================================== atomics

namespace {
const char* kAtomGlobalPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

// buf (u32[128]): [0] red.add counter, [1] exch target, [2] f32 add target,
// [32 + lane] inc targets, [64 + lane] dec targets. buf64 (u64[2]): [0] add, [1] min.
// in64: 2 arrays of 32 u64 addends (add.u64, min.s64).
.visible .entry atom_global(
	.param .u64 atom_global_out,
	.param .u64 atom_global_out64,
	.param .u64 atom_global_buf,
	.param .u64 atom_global_buf64,
	.param .u64 atom_global_in64
)
{
	.reg .b32 	%r<16>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<24>;

	ld.param.u64 	%rd1, [atom_global_out];
	ld.param.u64 	%rd2, [atom_global_out64];
	ld.param.u64 	%rd3, [atom_global_buf];
	ld.param.u64 	%rd4, [atom_global_buf64];
	ld.param.u64 	%rd5, [atom_global_in64];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd6, %r1, 4;
	mul.wide.u32 	%rd7, %r1, 8;
	cvta.to.global.u64 	%rd8, %rd1;
	add.s64 	%rd8, %rd8, %rd6;
	cvta.to.global.u64 	%rd9, %rd2;
	add.s64 	%rd9, %rd9, %rd7;
	cvta.to.global.u64 	%rd10, %rd3;
	cvta.to.global.u64 	%rd11, %rd4;
	cvta.to.global.u64 	%rd12, %rd5;
	add.s64 	%rd12, %rd12, %rd7;
	add.u32 	%r2, %r1, 1;
	red.global.add.u32 	[%rd10], %r2;
	add.u32 	%r3, %r1, 256;
	atom.global.exch.b32 	%r4, [%rd10+4], %r3;
	st.global.u32 	[%rd8], %r4;
	cvt.rn.f32.u32 	%f1, %r1;
	add.f32 	%f2, %f1, 0f3E800000;
	atom.global.add.f32 	%f3, [%rd10+8], %f2;
	st.global.f32 	[%rd8+128], %f3;
	add.s64 	%rd13, %rd10, %rd6;
	atom.global.inc.u32 	%r5, [%rd13+128], 5;
	st.global.u32 	[%rd8+256], %r5;
	atom.global.dec.u32 	%r6, [%rd13+256], 5;
	st.global.u32 	[%rd8+384], %r6;
	ld.global.u64 	%rd14, [%rd12];
	atom.global.add.u64 	%rd15, [%rd11], %rd14;
	st.global.u64 	[%rd9], %rd15;
	ld.global.u64 	%rd16, [%rd12+256];
	atom.global.min.s64 	%rd17, [%rd11+8], %rd16;
	st.global.u64 	[%rd9+256], %rd17;
	ret;
}
)PTX";

// Atomics from one warp may apply in any lane order. An operation whose
// returned old values must form a chain: some order of the lanes in which
// each lane's old value is the running value, which it then updates.
template <class T, class F>
std::string chain_error(T init, const std::vector<T>& operand, const std::vector<T>& old, T fin, F op) {
  std::vector<bool> used(operand.size(), false);
  T cur = init;
  for (size_t step = 0; step < operand.size(); ++step) {
    size_t pick = operand.size();
    for (size_t l = 0; l < operand.size(); ++l)
      if (!used[l] && same(old[l], cur)) {
        pick = l;
        break;
      }
    if (pick == operand.size()) return "no lane returned the running value " + show(cur) + " at step " + std::to_string(step);
    used[pick] = true;
    cur = op(cur, operand[pick]);
  }
  if (!same(cur, fin)) return "final value " + show(fin) + " but the chain of old values ends at " + show(cur);
  return "";
}
}  // namespace

TEST_CASE("ptx global atomics: red.add, exch, inc/dec wrap, add.f32, add.u64, min.s64", "[ptx][atomic]") {
  PtxModule m(kAtomGlobalPtx, "atom_global.ptx");
  std::vector<uint32_t> buf(128, 0);
  buf[0] = 1000;
  buf[1] = 0xDEAD;
  buf[2] = fbits(0.5f);
  for (int l = 0; l < 32; ++l) {
    buf[32 + l] = uint32_t(l % 8);        // inc with b = 5
    buf[64 + l] = uint32_t(l % 8);        // dec with b = 5
  }
  buf[32 + 31] = 0xffffffffu;
  buf[64 + 31] = 0xffffffffu;
  std::vector<uint64_t> buf64 = {0xfffffff0ull, 0};
  std::vector<uint64_t> in64(64);
  for (int l = 0; l < 32; ++l) {
    in64[l] = 0x0000000300000001ull * uint64_t(l + 1) + 0xf0000000ull;
    in64[32 + l] = uint64_t(l % 3 == 0 ? -(int64_t(l) << 36) - 5 : int64_t(l) << 40);
  }
  DevPtr out = m.up(std::vector<uint32_t>(4 * 32, 0xAAAAAAAAu));
  DevPtr out64 = m.up(std::vector<uint64_t>(2 * 32, 0xAAAAAAAAAAAAAAAAull));
  DevPtr pbuf = m.up(buf), pbuf64 = m.up(buf64);
  m.launch("atom_global", {arg(out), arg(out64), arg(pbuf), arg(pbuf64), arg(m.up(in64))});
  auto got = m.down<uint32_t>(out, 4 * 32);
  auto got64 = m.down<uint64_t>(out64, 2 * 32);
  auto gbuf = m.down<uint32_t>(pbuf, 128);
  auto gbuf64 = m.down<uint64_t>(pbuf64, 2);

  // red.global.add.u32: 1000 + (1 + 2 + ... + 32).
  CHECK(gbuf[0] == 1000u + 528u);

  {  // atom.global.exch.b32: the old values plus the final value are {0xDEAD, 256 + lane...}.
    std::vector<uint32_t> have(got.begin(), got.begin() + 32), expect = {0xDEAD};
    have.push_back(gbuf[1]);
    for (int l = 0; l < 32; ++l) expect.push_back(256u + l);
    std::sort(have.begin(), have.end());
    std::sort(expect.begin(), expect.end());
    INFO("atom.global.exch.b32: final " << show(gbuf[1]));
    CHECK(have == expect);
  }
  {  // atom.global.add.f32 of lane + 0.25 onto 0.5 (all partial sums exact).
    std::vector<float> v(32), old(32);
    for (int l = 0; l < 32; ++l) {
      v[l] = float(l) + 0.25f;
      old[l] = bitsf(got[32 + l]);
    }
    std::string err = chain_error(0.5f, v, old, bitsf(gbuf[2]), [](float a, float b) { return a + b; });
    INFO("atom.global.add.f32: " << err);
    CHECK(err.empty());
    CHECK(bitsf(gbuf[2]) == 0.5f + 496.0f + 8.0f);
  }
  {  // inc: d = (old >= b) ? 0 : old + 1;  dec: d = (old == 0 || old > b) ? b : old - 1.
    std::vector<uint32_t> want(2 * 32), wbuf(2 * 32);
    for (int l = 0; l < 32; ++l) {
      uint32_t o = buf[32 + l];
      want[l] = o;
      wbuf[l] = o >= 5 ? 0 : o + 1;
      o = buf[64 + l];
      want[32 + l] = o;
      wbuf[32 + l] = (o == 0 || o > 5) ? 5 : o - 1;
    }
    check_lanes(std::vector<uint32_t>(got.begin() + 64, got.end()), want,
                {"atom.global.inc.u32 (old)", "atom.global.dec.u32 (old)"});
    check_lanes(std::vector<uint32_t>(gbuf.begin() + 32, gbuf.begin() + 96), wbuf,
                {"atom.global.inc.u32 [..], 5 (new)", "atom.global.dec.u32 [..], 5 (new)"});
  }
  {  // atom.global.add.u64 (carries across the 32-bit halves).
    std::vector<uint64_t> v(in64.begin(), in64.begin() + 32), old(got64.begin(), got64.begin() + 32);
    uint64_t sum = buf64[0];
    for (auto x : v) sum += x;
    std::string err = chain_error(buf64[0], v, old, gbuf64[0], [](uint64_t a, uint64_t b) { return a + b; });
    INFO("atom.global.add.u64: " << err);
    CHECK(err.empty());
    CHECK(gbuf64[0] == sum);
  }
  {  // atom.global.min.s64: signed; each old value is the initial value or some lane's operand.
    int64_t mn = 0;
    for (int l = 0; l < 32; ++l) mn = std::min(mn, int64_t(in64[32 + l]));
    INFO("atom.global.min.s64 final " << show(int64_t(gbuf64[1])) << " want " << show(mn));
    CHECK(int64_t(gbuf64[1]) == mn);
    for (int l = 0; l < 32; ++l) {
      int64_t o = int64_t(got64[32 + l]);
      bool known = o == 0;
      for (int k = 0; k < 32; ++k) known = known || o == int64_t(in64[32 + k]);
      INFO("lane " << l << " old " << show(o));
      CHECK(known);
      CHECK(o >= mn);
    }
  }
}

namespace {
const char* kAtomSharedPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.visible .entry atom_shared(
	.param .u64 atom_shared_out,
	.param .u64 atom_shared_in
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<8>;
	.shared .align 4 .b32 sm[2];

	ld.param.u64 	%rd1, [atom_shared_out];
	ld.param.u64 	%rd2, [atom_shared_in];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	cvta.to.global.u64 	%rd4, %rd1;
	add.s64 	%rd4, %rd4, %rd3;
	cvta.to.global.u64 	%rd5, %rd2;
	add.s64 	%rd5, %rd5, %rd3;
	ld.global.u32 	%r2, [%rd5];
	setp.ne.u32 	%p1, %r1, 0;
	@%p1 bra 	$L__init_done;
	mov.u32 	%r3, 0x80000000;
	st.shared.u32 	[sm], %r3;
	mov.u32 	%r4, 0;
	st.shared.u32 	[sm+4], %r4;
$L__init_done:
	bar.sync 	0;
	red.shared.max.s32 	[sm], %r2;
	add.u32 	%r5, %r1, 1;
	atom.shared.cas.b32 	%r6, [sm+4], 0, %r5;
	bar.sync 	0;
	ld.shared.u32 	%r7, [sm];
	ld.shared.u32 	%r8, [sm+4];
	st.global.u32 	[%rd4], %r6;
	st.global.u32 	[%rd4+128], %r7;
	st.global.u32 	[%rd4+256], %r8;
	ret;
}
)PTX";
}  // namespace

TEST_CASE("ptx shared atomics: red.shared.max.s32 and atom.shared.cas.b32", "[ptx][atomic]") {
  PtxModule m(kAtomSharedPtx, "atom_shared.ptx");
  std::vector<int32_t> in(32);
  for (int l = 0; l < 32; ++l) in[l] = -100000 + 37 * l;
  in[3] = -1;    // largest as unsigned, not as signed
  in[17] = 5000; // the signed maximum
  DevPtr out = m.up(std::vector<uint32_t>(3 * 32, 0xAAAAAAAAu));
  m.launch("atom_shared", {arg(out), arg(m.up(in))});
  auto got = m.down<uint32_t>(out, 3 * 32);
  for (int l = 0; l < 32; ++l) {
    INFO("lane " << l << ": red.shared.max.s32 result " << show(int32_t(got[32 + l])));
    CHECK(int32_t(got[32 + l]) == 5000);
  }
  // cas(0 -> lane + 1) from all lanes: exactly one succeeds (sees 0); everyone
  // else sees the winner's value, which is also the final value.
  int winners = 0;
  uint32_t fin = got[64];
  for (int l = 0; l < 32; ++l) {
    INFO("lane " << l << ": atom.shared.cas.b32 old " << show(got[l]) << ", final " << show(got[64 + l]));
    CHECK(got[64 + l] == fin);
    if (got[l] == 0) {
      ++winners;
      CHECK(fin == uint32_t(l + 1));
    } else {
      CHECK(got[l] == fin);
    }
  }
  CHECK(winners == 1);
}

// ====================================================================== floating point

namespace {
const char* kF32Ptx = R"PTX(.version 9.0
.target sm_75
.address_size 64

// in: 4 arrays of 32 f32 (A, B, C = ex2 inputs, D = lg2 inputs).
.visible .entry f32_special(
	.param .u64 f32_special_out,
	.param .u64 f32_special_in
)
{
	.reg .pred 	%p<8>;
	.reg .b32 	%r<16>;
	.reg .f32 	%f<16>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [f32_special_out];
	ld.param.u64 	%rd2, [f32_special_in];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	cvta.to.global.u64 	%rd4, %rd1;
	add.s64 	%rd4, %rd4, %rd3;
	cvta.to.global.u64 	%rd5, %rd2;
	add.s64 	%rd5, %rd5, %rd3;
	ld.global.f32 	%f1, [%rd5];
	ld.global.f32 	%f2, [%rd5+128];
	ld.global.f32 	%f3, [%rd5+256];
	ld.global.f32 	%f4, [%rd5+384];
	testp.finite.f32 	%p1, %f1;
	testp.infinite.f32 	%p2, %f1;
	testp.notanumber.f32 	%p3, %f1;
	testp.normal.f32 	%p4, %f1;
	testp.subnormal.f32 	%p5, %f1;
	testp.number.f32 	%p6, %f1;
	selp.u32 	%r2, 1, 0, %p1;
	selp.u32 	%r3, 2, 0, %p2;
	selp.u32 	%r4, 4, 0, %p3;
	selp.u32 	%r5, 8, 0, %p4;
	selp.u32 	%r6, 16, 0, %p5;
	selp.u32 	%r7, 32, 0, %p6;
	or.b32 	%r8, %r2, %r3;
	or.b32 	%r8, %r8, %r4;
	or.b32 	%r8, %r8, %r5;
	or.b32 	%r8, %r8, %r6;
	or.b32 	%r8, %r8, %r7;
	st.global.u32 	[%rd4], %r8;
	copysign.f32 	%f5, %f1, %f2;
	st.global.f32 	[%rd4+128], %f5;
	min.f32 	%f6, %f1, %f2;
	st.global.f32 	[%rd4+256], %f6;
	max.f32 	%f7, %f1, %f2;
	st.global.f32 	[%rd4+384], %f7;
	ex2.approx.f32 	%f8, %f3;
	st.global.f32 	[%rd4+512], %f8;
	lg2.approx.f32 	%f9, %f4;
	st.global.f32 	[%rd4+640], %f9;
	ret;
}
)PTX";

// testp classes from the bit pattern: finite, infinite, notanumber, normal, subnormal, number.
uint32_t testp_ref(float f) {
  uint32_t x = fbits(f) & 0x7fffffffu, e = x >> 23, m = x & 0x7fffffu;
  bool nan = e == 0xff && m != 0, inf = e == 0xff && m == 0;
  bool normal = e != 0 && e != 0xff, sub = e == 0 && m != 0;
  return uint32_t(!nan && !inf) | uint32_t(inf) << 1 | uint32_t(nan) << 2 | uint32_t(normal) << 3 |
         uint32_t(sub) << 4 | uint32_t(!nan) << 5;
}
}  // namespace

TEST_CASE("ptx testp classes, copysign, min/max with NaN, ex2/lg2.approx", "[ptx][float]") {
  PtxModule m(kF32Ptx, "f32_special.ptx");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float fmax = std::numeric_limits<float>::max(), fmin = std::numeric_limits<float>::min();
  const float den = std::numeric_limits<float>::denorm_min();
  std::vector<float> A = {0.0f,  -0.0f, 1.5f,  -2.25f, INFINITY, -INFINITY, nan,   1e-40f, -1e-40f, fmax, fmin,
                          -fmin, den,   -den,  3.0f,   -3.0f,    nan,       2.0f,  -7.0f,  0.5f,    nan,  100.0f,
                          -1.0f, 1.0f,  8.0f,  -0.125f, 1e30f,   -1e30f,    42.0f, 5.0f,   -5.0f,   6.0f};
  // B: the second operand; the +-0 pair is avoided for min/max (PTX leaves min(-0, +0) open).
  std::vector<float> B = {1.0f, 2.0f,   nan,  nan,  1.0f,  1.0f, 3.0f, -2.0f, 2.0f,   -1.0f, nan,
                          nan,  -0.0f,  0.0f, -4.0f, 4.0f, nan,  -2.0f, 7.0f,  -0.5f, -1.0f, -100.0f,
                          -1.0f, 1.0f,  -8.0f, 0.125f, -1e30f, 1e30f, 41.0f, INFINITY, -INFINITY, nan};
  REQUIRE(A.size() == 32);
  REQUIRE(B.size() == 32);
  std::vector<float> C(32), D(32);
  for (int l = 0; l < 32; ++l) {
    C[l] = -12.0f + 0.75f * l + 0.1f;                // ex2 in [-11.9, 11.4]
    D[l] = std::ldexp(1.0f + 0.03f * l, l - 16);     // lg2 of positive values over 2^-16 .. 2^15
  }
  C[0] = 0.0f;
  D[0] = 1.0f;
  std::vector<float> in = A;
  for (auto* v : {&B, &C, &D}) in.insert(in.end(), v->begin(), v->end());
  DevPtr out = m.up(std::vector<uint32_t>(6 * 32, 0xAAAAAAAAu));
  m.launch("f32_special", {arg(out), arg(m.up(in))});
  auto got = m.down<uint32_t>(out, 6 * 32);

  std::vector<uint32_t> wt(32);
  std::vector<float> gf(3 * 32), wf(3 * 32);
  for (int l = 0; l < 32; ++l) {
    float a = A[l], b = B[l];
    wt[l] = testp_ref(a);
    // copysign.f32 d, a, b: the sign of a with the magnitude (all other bits) of b.
    wf[l] = bitsf((fbits(b) & 0x7fffffffu) | (fbits(a) & 0x80000000u));
    // min/max.f32: if one input is NaN the result is the other input; NaN only if both are.
    if (std::isnan(a) && std::isnan(b)) {
      wf[32 + l] = nan;
      wf[64 + l] = nan;
    } else if (std::isnan(a)) {
      wf[32 + l] = wf[64 + l] = b;
    } else if (std::isnan(b)) {
      wf[32 + l] = wf[64 + l] = a;
    } else {
      wf[32 + l] = a < b ? a : b;
      wf[64 + l] = a > b ? a : b;
    }
    for (int k = 0; k < 3; ++k) gf[k * 32 + l] = bitsf(got[(k + 1) * 32 + l]);
  }
  check_lanes(std::vector<uint32_t>(got.begin(), got.begin() + 32), wt,
              {"testp.{finite,infinite,notanumber,normal,subnormal,number}.f32 (bits 0..5)"});
  check_lanes(gf, wf, {"copysign.f32", "min.f32", "max.f32"});
  // ex2.approx.f32: maximum relative error 2^-22 or so on hardware; lg2.approx.f32:
  // maximum absolute error about 2^-22 near 1, relative elsewhere. Allow 2^-20.
  const double tol = std::ldexp(1.0, -20);
  for (int l = 0; l < 32; ++l) {
    double e = std::exp2(double(C[l])), g2 = bitsf(got[4 * 32 + l]);
    double lg = std::log2(double(D[l])), gl = bitsf(got[5 * 32 + l]);
    INFO("lane " << l << ": ex2.approx.f32(" << C[l] << ") = " << show(g2) << ", want " << show(e));
    CHECK(std::fabs(g2 - e) <= tol * std::fabs(e));
    INFO("lane " << l << ": lg2.approx.f32(" << D[l] << ") = " << show(gl) << ", want " << show(lg));
    CHECK(std::fabs(gl - lg) <= tol * (1.0 + std::fabs(lg)));
  }
}

namespace {
const char* kF64Ptx = R"PTX(.version 9.0
.target sm_75
.address_size 64

// in: 2 arrays of 32 f64 (A, B).
.visible .entry f64_ops(
	.param .u64 f64_ops_out,
	.param .u64 f64_ops_in
)
{
	.reg .b32 	%r<4>;
	.reg .f64 	%fd<12>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [f64_ops_out];
	ld.param.u64 	%rd2, [f64_ops_in];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 8;
	cvta.to.global.u64 	%rd4, %rd1;
	add.s64 	%rd4, %rd4, %rd3;
	cvta.to.global.u64 	%rd5, %rd2;
	add.s64 	%rd5, %rd5, %rd3;
	ld.global.f64 	%fd1, [%rd5];
	ld.global.f64 	%fd2, [%rd5+256];
	abs.f64 	%fd3, %fd1;
	st.global.f64 	[%rd4], %fd3;
	neg.f64 	%fd4, %fd1;
	st.global.f64 	[%rd4+256], %fd4;
	rcp.rn.f64 	%fd5, %fd1;
	st.global.f64 	[%rd4+512], %fd5;
	sqrt.rn.f64 	%fd6, %fd1;
	st.global.f64 	[%rd4+768], %fd6;
	div.rn.f64 	%fd7, %fd1, %fd2;
	st.global.f64 	[%rd4+1024], %fd7;
	ret;
}
)PTX";
}  // namespace

TEST_CASE("ptx abs/neg.f64 and IEEE rcp.rn/sqrt.rn/div.rn.f64 bit exact", "[ptx][float]") {
  PtxModule m(kF64Ptx, "f64_ops.ptx");
  std::vector<double> A = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, 1e-310, -1e-310, 4.9e-324, 2.0, 3.0, 1e308,
                           -1e-300, 0.1, 7.0, 1.0 / 3.0};
  std::vector<double> B = {1.0, 1.0, 3.0, 0.0, 2.0, -0.0, 3.0, 1e-10, 0.5, INFINITY, 7.0, 1e-10,
                           1e300, 0.3, -7.0, 3.0};
  std::mt19937_64 g(64);
  auto rnd = [&](int emin, int emax) {
    uint64_t e = uint64_t(1023 + emin + int(g() % uint64_t(emax - emin + 1)));
    return bitsd((g() & 0x8000000000000000ull) | (e << 52) | (g() & 0xfffffffffffffull));
  };
  while (A.size() < 32) {
    A.push_back(rnd(-60, 60));
    B.push_back(rnd(-60, 60));
  }
  std::vector<double> in = A;
  in.insert(in.end(), B.begin(), B.end());
  DevPtr out = m.up(std::vector<double>(5 * 32, 0.0));
  m.launch("f64_ops", {arg(out), arg(m.up(in))});
  auto got = m.down<double>(out, 5 * 32);
  std::vector<double> want(5 * 32);
  for (int l = 0; l < 32; ++l) {
    double a = A[l], b = B[l];
    want[l] = std::fabs(a);
    want[32 + l] = -a;
    want[64 + l] = 1.0 / a;
    want[96 + l] = std::sqrt(a);  // negative inputs: NaN
    want[128 + l] = a / b;
  }
  check_lanes(got, want, {"abs.f64", "neg.f64", "rcp.rn.f64", "sqrt.rn.f64", "div.rn.f64"});
}

// ====================================================================== conversions

namespace {
const char* kCvtPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

// inf: 2 arrays of 32 f32 (F: float->int inputs, H: f16 inputs); ini: 32 s32; ind: 32 f64.
.visible .entry cvt_ops(
	.param .u64 cvt_ops_out,
	.param .u64 cvt_ops_inf,
	.param .u64 cvt_ops_ini,
	.param .u64 cvt_ops_ind
)
{
	.reg .b16 	%rs<4>;
	.reg .b32 	%r<20>;
	.reg .f32 	%f<8>;
	.reg .f64 	%fd<4>;
	.reg .b64 	%rd<12>;

	ld.param.u64 	%rd1, [cvt_ops_out];
	ld.param.u64 	%rd2, [cvt_ops_inf];
	ld.param.u64 	%rd3, [cvt_ops_ini];
	ld.param.u64 	%rd4, [cvt_ops_ind];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd5, %r1, 4;
	mul.wide.u32 	%rd6, %r1, 8;
	cvta.to.global.u64 	%rd7, %rd1;
	add.s64 	%rd7, %rd7, %rd5;
	cvta.to.global.u64 	%rd8, %rd2;
	add.s64 	%rd8, %rd8, %rd5;
	cvta.to.global.u64 	%rd9, %rd3;
	add.s64 	%rd9, %rd9, %rd5;
	cvta.to.global.u64 	%rd10, %rd4;
	add.s64 	%rd10, %rd10, %rd6;
	ld.global.f32 	%f1, [%rd8];
	ld.global.f32 	%f2, [%rd8+128];
	ld.global.u32 	%r2, [%rd9];
	ld.global.f64 	%fd1, [%rd10];
	cvt.rzi.s32.f32 	%r3, %f1;
	st.global.u32 	[%rd7], %r3;
	cvt.rmi.s32.f32 	%r4, %f1;
	st.global.u32 	[%rd7+128], %r4;
	cvt.rpi.s32.f32 	%r5, %f1;
	st.global.u32 	[%rd7+256], %r5;
	cvt.rni.s32.f32 	%r6, %f1;
	st.global.u32 	[%rd7+384], %r6;
	cvt.sat.u8.s32 	%r7, %r2;
	st.global.u32 	[%rd7+512], %r7;
	cvt.s8.s32 	%r8, %r2;
	st.global.u32 	[%rd7+640], %r8;
	cvt.rn.f32.f64 	%f3, %fd1;
	st.global.f32 	[%rd7+768], %f3;
	cvt.rz.f32.f64 	%f4, %fd1;
	st.global.f32 	[%rd7+896], %f4;
	cvt.rn.f16.f32 	%rs1, %f2;
	cvt.u32.u16 	%r9, %rs1;
	st.global.u32 	[%rd7+1024], %r9;
	cvt.f32.f16 	%f5, %rs1;
	st.global.f32 	[%rd7+1152], %f5;
	ret;
}
)PTX";
}  // namespace

TEST_CASE("ptx cvt: integer rounding of halves, sat.u8, s8 wrap, f64->f32 rn vs rz, f16 round trip",
          "[ptx][cvt]") {
  PtxModule m(kCvtPtx, "cvt_ops.ptx");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> F = {2.5f,   -2.5f,        1.5f,          -1.5f,       0.5f,        -0.5f,  3.7f,    -3.7f,
                          0.0f,   -0.0f,        1e10f,         -1e10f,      nan,         2147483520.0f, -2147483648.0f,
                          2147483648.0f, 0.49999997f, -0.49999997f, 1e-30f, -1e-30f,    7.5f,   -7.5f,   100.5f,
                          -100.5f, 8388607.5f,  -8388607.5f,   16777216.0f, INFINITY,    -INFINITY, 0.75f, -0.75f, 4.5f};
  std::vector<float> H = {1.0f,      65504.0f,       1e-5f,         65520.0f,      1e-8f,       -2.0f,  0.1f,
                          5.9604645e-8f, 3e-8f,      -1e-5f,        65519.0f,      6.1035156e-05f, 6.09e-5f,
                          0.33333334f, -0.0f,        INFINITY,      -INFINITY,     nan,         1.0009765625f,
                          1.00048828125f, 1.00146484375f, 2049.0f, 2051.0f,       4097.0f,     -65504.0f,
                          -70000.0f, 2.9802322e-8f, 1e-7f,         1234.5678f,    -0.5f,       0.0f,   3.14159265f};
  std::vector<int32_t> I = {300, -1, 128, 255, -129, 127, 0, INT32_MIN, INT32_MAX, 0x1234580, 256, -128,
                            1, -255, 0x7f, 0xff80, 0x180, -0x80, 200, 65535};
  while (I.size() < 32) I.push_back(int32_t(I.size() * 2654435761u));
  const double tiny = std::ldexp(1.0, -24), tiny30 = std::ldexp(1.0, -30);
  std::vector<double> Dd = {1.0 + tiny + tiny30, -(1.0 + tiny + tiny30), 1.0 / 3.0, -1.0 / 3.0, 1e40, -1e40,
                            1e-50, -1e-50, 1e-40, 0.1, std::numeric_limits<double>::quiet_NaN(), INFINITY,
                            -0.0, 1.0 + tiny, 1.0 + 3 * tiny, 3.4028235e38, 123456789.123, -5e-45};
  std::mt19937_64 g(5);
  while (Dd.size() < 32) Dd.push_back(bitsd((g() & 0x8000000000000000ull) | (uint64_t(1023 - 40 + g() % 80) << 52) |
                                            (g() & 0xfffffffffffffull)));
  REQUIRE(F.size() == 32);
  REQUIRE(H.size() == 32);
  std::vector<float> inf = F;
  inf.insert(inf.end(), H.begin(), H.end());
  const int K = 10;
  DevPtr out = m.up(std::vector<uint32_t>(K * 32, 0xAAAAAAAAu));
  m.launch("cvt_ops", {arg(out), arg(m.up(inf)), arg(m.up(I)), arg(m.up(Dd))});
  auto got = m.down<uint32_t>(out, K * 32);
  std::vector<uint32_t> want(K * 32);
  for (int l = 0; l < 32; ++l) {
    float f = F[l];
    // Float-to-integer cvt saturates to the destination range; NaN converts to 0.
    want[0 * 32 + l] = uint32_t(sat_s32(std::trunc(f)));
    want[1 * 32 + l] = uint32_t(sat_s32(std::floor(f)));
    want[2 * 32 + l] = uint32_t(sat_s32(std::ceil(f)));
    want[3 * 32 + l] = uint32_t(sat_s32(std::nearbyint(f)));  // nearest, ties to even: 2.5 -> 2, -2.5 -> -2
    int32_t i = I[l];
    // cvt.sat.u8.s32: clamp to [0, 255]; the u8 result zero-extends into the 32-bit register.
    want[4 * 32 + l] = uint32_t(std::min(255, std::max(0, i)));
    // cvt.s8.s32 (no .sat): keep the low 8 bits, then sign-extend into the 32-bit register.
    want[5 * 32 + l] = uint32_t(int32_t(int8_t(uint8_t(i & 0xff))));
    want[6 * 32 + l] = fbits(float(Dd[l]));
    want[7 * 32 + l] = fbits(f64_to_f32_rz(Dd[l]));
    uint16_t h = f32_to_f16_rn(H[l]);
    want[8 * 32 + l] = h;
    want[9 * 32 + l] = fbits(f16_to_f32(h));
  }
  auto is_f16_nan = [](uint32_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0 && h <= 0xffff; };
  auto is_f32_nan = [](uint32_t x) { return std::isnan(bitsf(x)); };
  check_lanes_eq(got, want,
                 {"cvt.rzi.s32.f32", "cvt.rmi.s32.f32", "cvt.rpi.s32.f32", "cvt.rni.s32.f32", "cvt.sat.u8.s32",
                  "cvt.s8.s32", "cvt.rn.f32.f64", "cvt.rz.f32.f64", "cvt.rn.f16.f32 (bits)", "cvt.f32.f16"},
                 [&](uint32_t a, uint32_t b, size_t k, int) {
                   if (k == 8 && is_f16_nan(b)) return is_f16_nan(a);
                   if ((k == 6 || k == 7 || k == 9) && is_f32_nan(b)) return is_f32_nan(a);
                   return a == b;
                 });
}

// ====================================================================== mov pack / unpack

namespace {
const char* kMovPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

// in: A (32 u32), B (32 u32); in64: X (32 u64).
.visible .entry mov_pack(
	.param .u64 mov_pack_out,
	.param .u64 mov_pack_out64,
	.param .u64 mov_pack_in,
	.param .u64 mov_pack_in64
)
{
	.reg .b16 	%rs<8>;
	.reg .b32 	%r<16>;
	.reg .b64 	%rd<16>;

	ld.param.u64 	%rd1, [mov_pack_out];
	ld.param.u64 	%rd2, [mov_pack_out64];
	ld.param.u64 	%rd3, [mov_pack_in];
	ld.param.u64 	%rd4, [mov_pack_in64];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd5, %r1, 4;
	mul.wide.u32 	%rd6, %r1, 8;
	cvta.to.global.u64 	%rd7, %rd1;
	add.s64 	%rd7, %rd7, %rd5;
	cvta.to.global.u64 	%rd8, %rd2;
	add.s64 	%rd8, %rd8, %rd6;
	cvta.to.global.u64 	%rd9, %rd3;
	add.s64 	%rd9, %rd9, %rd5;
	cvta.to.global.u64 	%rd10, %rd4;
	add.s64 	%rd10, %rd10, %rd6;
	ld.global.u32 	%r2, [%rd9];
	ld.global.u32 	%r3, [%rd9+128];
	ld.global.u64 	%rd11, [%rd10];
	mov.b64 	%rd12, {%r2, %r3};
	st.global.u64 	[%rd8], %rd12;
	mov.b64 	{%r4, %r5}, %rd11;
	st.global.u32 	[%rd7], %r4;
	st.global.u32 	[%rd7+128], %r5;
	cvt.u16.u32 	%rs1, %r2;
	cvt.u16.u32 	%rs2, %r3;
	mov.b32 	%r6, {%rs1, %rs2};
	st.global.u32 	[%rd7+256], %r6;
	mov.b32 	{%rs3, %rs4}, %r2;
	cvt.u32.u16 	%r7, %rs3;
	cvt.u32.u16 	%r8, %rs4;
	st.global.u32 	[%rd7+384], %r7;
	st.global.u32 	[%rd7+512], %r8;
	ret;
}
)PTX";
}  // namespace

TEST_CASE("ptx mov.b64 and mov.b32 vector pack and unpack", "[ptx][mov]") {
  PtxModule m(kMovPtx, "mov_pack.ptx");
  std::mt19937_64 g(9);
  std::vector<uint32_t> in(64);
  std::vector<uint64_t> X(32);
  for (auto& v : in) v = uint32_t(g());
  for (auto& v : X) v = g();
  DevPtr out = m.up(std::vector<uint32_t>(5 * 32, 0xAAAAAAAAu));
  DevPtr out64 = m.up(std::vector<uint64_t>(32, 0));
  m.launch("mov_pack", {arg(out), arg(out64), arg(m.up(in)), arg(m.up(X))});
  auto got = m.down<uint32_t>(out, 5 * 32);
  auto got64 = m.down<uint64_t>(out64, 32);
  std::vector<uint32_t> want(5 * 32);
  std::vector<uint64_t> want64(32);
  for (int l = 0; l < 32; ++l) {
    uint32_t a = in[l], b = in[32 + l];
    want64[l] = uint64_t(b) << 32 | a;  // {first, second} = {low, high}
    want[l] = uint32_t(X[l]);
    want[32 + l] = uint32_t(X[l] >> 32);
    want[64 + l] = (b & 0xffff) << 16 | (a & 0xffff);
    want[96 + l] = a & 0xffff;
    want[128 + l] = a >> 16;
  }
  check_lanes(got64, want64, {"mov.b64 %rd, {%r2, %r3}"});
  check_lanes(got, want,
              {"mov.b64 {%r4, %r5}, %rd (low)", "mov.b64 {%r4, %r5}, %rd (high)", "mov.b32 %r, {%rs1, %rs2}",
               "mov.b32 {%rs3, %rs4}, %r (low)", "mov.b32 {%rs3, %rs4}, %r (high)"});
}

// ====================================================================== warp-level operations

namespace {
const char* kVotePtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.visible .entry votes(
	.param .u64 votes_out
)
{
	.reg .pred 	%p<16>;
	.reg .b32 	%r<24>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [votes_out];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd2, %r1, 4;
	cvta.to.global.u64 	%rd3, %rd1;
	add.s64 	%rd3, %rd3, %rd2;
	setp.lt.u32 	%p1, %r1, 100;
	setp.ge.u32 	%p2, %r1, 100;
	setp.lt.u32 	%p3, %r1, 7;
	vote.sync.uni.pred 	%p4, %p1, -1;
	selp.u32 	%r2, 1, 0, %p4;
	st.global.u32 	[%rd3], %r2;
	vote.sync.uni.pred 	%p5, %p2, -1;
	selp.u32 	%r3, 1, 0, %p5;
	st.global.u32 	[%rd3+128], %r3;
	vote.sync.uni.pred 	%p6, %p3, -1;
	selp.u32 	%r4, 1, 0, %p6;
	st.global.u32 	[%rd3+256], %r4;
	vote.sync.any.pred 	%p7, !%p3, -1;
	selp.u32 	%r5, 1, 0, %p7;
	st.global.u32 	[%rd3+384], %r5;
	vote.sync.any.pred 	%p8, !%p1, -1;
	selp.u32 	%r6, 1, 0, %p8;
	st.global.u32 	[%rd3+512], %r6;
	vote.sync.all.pred 	%p9, !%p2, -1;
	selp.u32 	%r7, 1, 0, %p9;
	st.global.u32 	[%rd3+640], %r7;
	vote.sync.ballot.b32 	%r8, !%p3, -1;
	st.global.u32 	[%rd3+768], %r8;
	setp.lt.u32 	%p10, %r1, 10;
	@!%p10 bra 	$L__skip;
	activemask.b32 	%r9;
	st.global.u32 	[%rd3+896], %r9;
	vote.sync.uni.pred 	%p11, %p10, %r9;
	selp.u32 	%r10, 1, 0, %p11;
	st.global.u32 	[%rd3+1024], %r10;
$L__skip:
	ret;
}
)PTX";
}  // namespace

TEST_CASE("ptx vote.sync uni/any/all/ballot with negated predicates, activemask in a branch", "[ptx][warp]") {
  PtxModule m(kVotePtx, "votes.ptx");
  const uint32_t S = 0xAAAAAAAAu;
  DevPtr out = m.up(std::vector<uint32_t>(9 * 32, S));
  m.launch("votes", {arg(out)});
  auto got = m.down<uint32_t>(out, 9 * 32);
  std::vector<uint32_t> want(9 * 32);
  for (int l = 0; l < 32; ++l) {
    want[0 * 32 + l] = 1;            // uni of an all-true predicate
    want[1 * 32 + l] = 1;            // uni of an all-false predicate: still uniform
    want[2 * 32 + l] = 0;            // uni of tid < 7: not uniform
    want[3 * 32 + l] = 1;            // any(!(tid < 7))
    want[4 * 32 + l] = 0;            // any(!(tid < 100))
    want[5 * 32 + l] = 1;            // all(!(tid >= 100))
    want[6 * 32 + l] = 0xffffff80u;  // ballot(!(tid < 7))
    want[7 * 32 + l] = l < 10 ? 0x3ffu : S;  // activemask in the branch taken by lanes 0..9
    want[8 * 32 + l] = l < 10 ? 1u : S;      // vote.uni with the activemask as membermask
  }
  check_lanes(got, want,
              {"vote.sync.uni.pred (all true)", "vote.sync.uni.pred (all false)", "vote.sync.uni.pred (tid < 7)",
               "vote.sync.any.pred !%p3", "vote.sync.any.pred !%p1", "vote.sync.all.pred !%p2",
               "vote.sync.ballot.b32 !%p3", "activemask.b32 in branch", "vote.sync.uni.pred .., %activemask"});
}

namespace {
const char* kShflPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.visible .entry shfls(
	.param .u64 shfls_out,
	.param .u64 shfls_in
)
{
	.reg .pred 	%p<8>;
	.reg .b32 	%r<32>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [shfls_out];
	ld.param.u64 	%rd2, [shfls_in];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	cvta.to.global.u64 	%rd4, %rd1;
	add.s64 	%rd4, %rd4, %rd3;
	cvta.to.global.u64 	%rd5, %rd2;
	add.s64 	%rd5, %rd5, %rd3;
	ld.global.u32 	%r2, [%rd5];
	mad.lo.u32 	%r3, %r1, 7, 3;
	shfl.sync.idx.b32 	%r4|%p1, %r2, %r3, 0x1c1f, -1;
	selp.u32 	%r5, 1, 0, %p1;
	st.global.u32 	[%rd4], %r4;
	st.global.u32 	[%rd4+128], %r5;
	shfl.sync.idx.b32 	%r6|%p2, %r2, %r3, 0x181f, -1;
	selp.u32 	%r7, 1, 0, %p2;
	st.global.u32 	[%rd4+256], %r6;
	st.global.u32 	[%rd4+384], %r7;
	shfl.sync.up.b32 	%r8|%p3, %r2, 3, 0, -1;
	selp.u32 	%r9, 1, 0, %p3;
	st.global.u32 	[%rd4+512], %r8;
	st.global.u32 	[%rd4+640], %r9;
	shfl.sync.up.b32 	%r10|%p4, %r2, 3, 0x1800, -1;
	selp.u32 	%r11, 1, 0, %p4;
	st.global.u32 	[%rd4+768], %r10;
	st.global.u32 	[%rd4+896], %r11;
	shfl.sync.down.b32 	%r12|%p5, %r2, 5, 0x101f, -1;
	selp.u32 	%r13, 1, 0, %p5;
	st.global.u32 	[%rd4+1024], %r12;
	st.global.u32 	[%rd4+1152], %r13;
	shfl.sync.bfly.b32 	%r14|%p6, %r2, 6, 0x1f, -1;
	selp.u32 	%r15, 1, 0, %p6;
	st.global.u32 	[%rd4+1280], %r14;
	st.global.u32 	[%rd4+1408], %r15;
	ret;
}
)PTX";

enum class ShflMode { Up, Down, Bfly, Idx };
// PTX ISA shfl.sync semantics: c packs the clamp value (c[4:0]) and the segment
// mask (c[12:8]); only b[4:0] is used. 0x1c1f is width 4 (segmask 0x1c), 0x181f width 8.
uint32_t shfl_ref(ShflMode mode, const std::vector<uint32_t>& v, int lane, uint32_t b, uint32_t c, bool& p) {
  int bval = int(b & 31), cval = int(c & 31), seg = int((c >> 8) & 31);
  int maxLane = (lane & seg) | (cval & ~seg);
  int minLane = lane & seg;
  int j = lane;
  switch (mode) {
    case ShflMode::Up: j = lane - bval; p = j >= maxLane; break;
    case ShflMode::Down: j = lane + bval; p = j <= maxLane; break;
    case ShflMode::Bfly: j = lane ^ bval; p = j <= maxLane; break;
    case ShflMode::Idx: j = minLane | (bval & ~seg); p = j <= maxLane; break;
  }
  if (!p) j = lane;
  return v[j];
}
}  // namespace

TEST_CASE("ptx shfl.sync idx with segment masks 0x1c1f and 0x181f, up/down/bfly with predicate output",
          "[ptx][warp]") {
  PtxModule m(kShflPtx, "shfls.ptx");
  std::vector<uint32_t> in(32);
  for (int l = 0; l < 32; ++l) in[l] = 0x1000u * uint32_t(l) + 0xabu;
  DevPtr out = m.up(std::vector<uint32_t>(12 * 32, 0xAAAAAAAAu));
  m.launch("shfls", {arg(out), arg(m.up(in))});
  auto got = m.down<uint32_t>(out, 12 * 32);
  std::vector<uint32_t> want(12 * 32);
  struct Case {
    ShflMode mode;
    bool per_lane_b;
    uint32_t b, c;
  };
  const Case cases[] = {{ShflMode::Idx, true, 0, 0x1c1f},  {ShflMode::Idx, true, 0, 0x181f},
                        {ShflMode::Up, false, 3, 0},       {ShflMode::Up, false, 3, 0x1800},
                        {ShflMode::Down, false, 5, 0x101f}, {ShflMode::Bfly, false, 6, 0x1f}};
  for (int k = 0; k < 6; ++k)
    for (int l = 0; l < 32; ++l) {
      bool p = false;
      uint32_t b = cases[k].per_lane_b ? uint32_t(7 * l + 3) : cases[k].b;
      want[(2 * k) * 32 + l] = shfl_ref(cases[k].mode, in, l, b, cases[k].c, p);
      want[(2 * k + 1) * 32 + l] = p;
    }
  check_lanes(got, want,
              {"shfl.sync.idx.b32 (c = 0x1c1f) value", "shfl.sync.idx.b32 (c = 0x1c1f) predicate",
               "shfl.sync.idx.b32 (c = 0x181f) value", "shfl.sync.idx.b32 (c = 0x181f) predicate",
               "shfl.sync.up.b32 3, 0 value", "shfl.sync.up.b32 3, 0 predicate", "shfl.sync.up.b32 3, 0x1800 value",
               "shfl.sync.up.b32 3, 0x1800 predicate", "shfl.sync.down.b32 5, 0x101f value",
               "shfl.sync.down.b32 5, 0x101f predicate", "shfl.sync.bfly.b32 6, 0x1f value",
               "shfl.sync.bfly.b32 6, 0x1f predicate"});
}

// ====================================================================== module-scope variables, local, cvta

namespace {
const char* kScopesPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.global .align 4 .u32 g_table[4] = {1, 2, 3, 4};
.const .align 4 .f32 c_k[2] = {0f3F800000, 0f40000000};
.shared .align 4 .b32 s_buf[64];

.visible .entry scopes(
	.param .u64 scopes_out
)
{
	.local .align 4 .b8 	depot[32];
	.reg .b64 	%SP;
	.reg .b64 	%SPL;
	.reg .b32 	%r<32>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<24>;

	mov.u64 	%SPL, depot;
	cvta.local.u64 	%SP, %SPL;
	ld.param.u64 	%rd1, [scopes_out];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd2, %r1, 4;
	cvta.to.global.u64 	%rd3, %rd1;
	add.s64 	%rd3, %rd3, %rd2;
	// module-scope .global with an initialiser
	and.b32 	%r2, %r1, 3;
	mul.wide.u32 	%rd4, %r2, 4;
	mov.u64 	%rd5, g_table;
	add.s64 	%rd6, %rd5, %rd4;
	ld.global.u32 	%r3, [%rd6];
	st.global.u32 	[%rd3], %r3;
	ld.global.u32 	%r4, [g_table+8];
	st.global.u32 	[%rd3+128], %r4;
	// module-scope .const
	and.b32 	%r5, %r1, 1;
	mul.wide.u32 	%rd7, %r5, 4;
	mov.u64 	%rd8, c_k;
	add.s64 	%rd9, %rd8, %rd7;
	ld.const.f32 	%f1, [%rd9];
	st.global.f32 	[%rd3+256], %f1;
	ld.const.f32 	%f2, [c_k+4];
	st.global.f32 	[%rd3+384], %f2;
	// module-scope .shared: reverse through the buffer
	mul.lo.u32 	%r6, %r1, 3;
	mov.u32 	%r7, s_buf;
	shl.b32 	%r8, %r1, 2;
	add.s32 	%r9, %r7, %r8;
	st.shared.u32 	[%r9], %r6;
	bar.sync 	0;
	sub.u32 	%r10, 31, %r1;
	shl.b32 	%r11, %r10, 2;
	add.s32 	%r12, %r7, %r11;
	ld.shared.u32 	%r13, [%r12];
	st.global.u32 	[%rd3+512], %r13;
	// .local depot: generic store, .local load; .local store, generic load
	mul.lo.u32 	%r14, %r1, 5;
	st.u32 	[%SP+4], %r14;
	ld.local.u32 	%r15, [%SPL+4];
	st.global.u32 	[%rd3+640], %r15;
	add.u32 	%r16, %r1, 77;
	st.local.u32 	[%SPL+8], %r16;
	ld.u32 	%r17, [%SP+8];
	st.global.u32 	[%rd3+768], %r17;
	// cvta.shared / cvta.to.shared round trip on s_buf[32 + tid]
	mov.u64 	%rd10, s_buf;
	add.s64 	%rd11, %rd10, %rd2;
	cvta.shared.u64 	%rd12, %rd11;
	xor.b32 	%r18, %r1, 0x55;
	st.u32 	[%rd12+128], %r18;
	cvta.to.shared.u64 	%rd13, %rd12;
	ld.shared.u32 	%r19, [%rd13+128];
	st.global.u32 	[%rd3+896], %r19;
	bar.sync 	0;
	// generic load of the neighbour's word: s_buf[32 + ((tid + 1) & 31)]
	add.u32 	%r20, %r1, 1;
	and.b32 	%r21, %r20, 31;
	mul.wide.u32 	%rd14, %r21, 4;
	cvta.shared.u64 	%rd15, %rd10;
	add.s64 	%rd16, %rd15, %rd14;
	ld.u32 	%r22, [%rd16+128];
	st.global.u32 	[%rd3+1024], %r22;
	ret;
}
)PTX";
}  // namespace

TEST_CASE("ptx module-scope .global/.const/.shared, .local depot via %SP/%SPL, cvta.shared round trip",
          "[ptx][mem]") {
  PtxModule m(kScopesPtx, "scopes.ptx");
  const int K = 9;
  DevPtr out = m.up(std::vector<uint32_t>(K * 32, 0xAAAAAAAAu));
  m.launch("scopes", {arg(out)});
  auto got = m.down<uint32_t>(out, K * 32);
  std::vector<uint32_t> want(K * 32);
  for (uint32_t l = 0; l < 32; ++l) {
    want[0 * 32 + l] = (l & 3) + 1;
    want[1 * 32 + l] = 3;
    want[2 * 32 + l] = fbits((l & 1) ? 2.0f : 1.0f);
    want[3 * 32 + l] = fbits(2.0f);
    want[4 * 32 + l] = (31 - l) * 3;
    want[5 * 32 + l] = l * 5;
    want[6 * 32 + l] = l + 77;
    want[7 * 32 + l] = l ^ 0x55;
    want[8 * 32 + l] = ((l + 1) & 31) ^ 0x55;
  }
  check_lanes(got, want,
              {"ld.global g_table[tid & 3]", "ld.global [g_table+8]", "ld.const c_k[tid & 1]", "ld.const [c_k+4]",
               "st/ld.shared s_buf (reversed)", "st generic [%SP+4] / ld.local [%SPL+4]",
               "st.local [%SPL+8] / ld generic [%SP+8]", "cvta.shared / cvta.to.shared round trip",
               "generic ld of cvta.shared address"});
}

// ====================================================================== .func calls

namespace {
const char* kCallsPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

// twice(x) = 2x
.func  (.param .b32 twice_ret) twice(
	.param .b32 twice_x
)
{
	.reg .b32 	%r<3>;

	ld.param.b32 	%r1, [twice_x];
	add.s32 	%r2, %r1, %r1;
	st.param.b32 	[twice_ret], %r2;
	ret;
}

// mix(a, b) = twice(a * b) + a
.func  (.param .b32 mix_ret) mix(
	.param .b32 mix_a,
	.param .b32 mix_b
)
{
	.reg .b32 	%r<6>;

	ld.param.b32 	%r1, [mix_a];
	ld.param.b32 	%r2, [mix_b];
	mul.lo.s32 	%r3, %r1, %r2;
	{ // callseq 0, 0
	.param .b32 param0;
	st.param.b32 	[param0], %r3;
	.param .b32 retval0;
	call.uni (retval0),
	twice,
	(
	param0
	);
	ld.param.b32 	%r4, [retval0];
	} // callseq 0
	add.s32 	%r5, %r4, %r1;
	st.param.b32 	[mix_ret], %r5;
	ret;
}

.visible .entry calls(
	.param .u64 calls_out
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<16>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [calls_out];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd2, %r1, 4;
	cvta.to.global.u64 	%rd3, %rd1;
	add.s64 	%rd3, %rd3, %rd2;
	mov.u32 	%r2, 3;
	{ // callseq 1, 0
	.param .b32 param0;
	st.param.b32 	[param0], %r1;
	.param .b32 param1;
	st.param.b32 	[param1], %r2;
	.param .b32 retval0;
	call.uni (retval0), mix, (param0, param1);
	ld.param.b32 	%r3, [retval0];
	} // callseq 1
	st.global.u32 	[%rd3], %r3;
	and.b32 	%r4, %r1, 1;
	setp.eq.u32 	%p1, %r4, 0;
	@%p1 bra 	$L__even;
	mov.u32 	%r5, 100;
	{ // callseq 2, 0
	.param .b32 param0;
	st.param.b32 	[param0], %r1;
	.param .b32 param1;
	st.param.b32 	[param1], %r5;
	.param .b32 retval0;
	call.uni (retval0), mix, (param0, param1);
	ld.param.b32 	%r6, [retval0];
	} // callseq 2
	bra.uni 	$L__join;
$L__even:
	add.u32 	%r7, %r1, 1000;
	mov.u32 	%r8, 2;
	{ // callseq 3, 0
	.param .b32 param0;
	st.param.b32 	[param0], %r7;
	.param .b32 param1;
	st.param.b32 	[param1], %r8;
	.param .b32 retval0;
	call.uni (retval0), mix, (param0, param1);
	ld.param.b32 	%r6, [retval0];
	} // callseq 3
$L__join:
	st.global.u32 	[%rd3+128], %r6;
	activemask.b32 	%r9;
	st.global.u32 	[%rd3+256], %r9;
	ret;
}
)PTX";
}  // namespace

TEST_CASE("ptx .func calls: callseq blocks, nested call, calls from both sides of a divergent branch",
          "[ptx][call]") {
  PtxModule m(kCallsPtx, "calls.ptx");
  DevPtr out = m.up(std::vector<uint32_t>(3 * 32, 0xAAAAAAAAu));
  m.launch("calls", {arg(out)});
  auto got = m.down<uint32_t>(out, 3 * 32);
  std::vector<uint32_t> want(3 * 32);
  auto mix = [](uint32_t a, uint32_t b) { return 2 * (a * b) + a; };
  for (uint32_t l = 0; l < 32; ++l) {
    want[l] = mix(l, 3);
    want[32 + l] = (l & 1) ? mix(l, 100) : mix(l + 1000, 2);
    want[64 + l] = 0xffffffffu;  // reconverged after the branch
  }
  check_lanes(got, want, {"call.uni mix(tid, 3)", "call.uni mix(..) on divergent paths", "activemask after join"});
}

// ====================================================================== control flow

namespace {
const char* kExitPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.visible .entry half_exit(
	.param .u64 half_exit_out
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [half_exit_out];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd2, %r1, 4;
	cvta.to.global.u64 	%rd3, %rd1;
	add.s64 	%rd3, %rd3, %rd2;
	and.b32 	%r2, %r1, 1;
	setp.ne.u32 	%p1, %r2, 0;
	@%p1 exit;
	activemask.b32 	%r3;
	st.global.u32 	[%rd3], %r3;
	setp.lt.u32 	%p2, %r1, 64;
	vote.sync.ballot.b32 	%r4, %p2, %r3;
	st.global.u32 	[%rd3+128], %r4;
	mul.lo.u32 	%r5, %r1, %r1;
	st.global.u32 	[%rd3+256], %r5;
	ret;
}
)PTX";

const char* kLoopPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.visible .entry loop_break(
	.param .u64 loop_break_out,
	.param .u32 loop_break_n
)
{
	.reg .pred 	%p<8>;
	.reg .b32 	%r<24>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [loop_break_out];
	ld.param.u32 	%r20, [loop_break_n];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd2, %r1, 4;
	cvta.to.global.u64 	%rd3, %rd1;
	add.s64 	%rd3, %rd3, %rd2;
	// a uniform branch: n > 5 for every lane
	setp.gt.u32 	%p1, %r20, 5;
	@%p1 bra 	$L__big;
	mov.u32 	%r2, 111;
	bra.uni 	$L__after_uniform;
$L__big:
	mov.u32 	%r2, 222;
$L__after_uniform:
	st.global.u32 	[%rd3], %r2;
	membar.gl;
	fence.acq_rel.gpu;
	// a loop each lane leaves at its own trip count
	mov.u32 	%r3, 0;
	mov.u32 	%r4, 0;
	and.b32 	%r5, %r1, 7;
$L__loop:
	add.u32 	%r3, %r3, 1;
	add.u32 	%r4, %r4, %r3;
	setp.ge.u32 	%p2, %r3, %r5;
	@%p2 bra 	$L__done;
	setp.lt.u32 	%p3, %r3, 100;
	@%p3 bra 	$L__loop;
$L__done:
	st.global.u32 	[%rd3+128], %r4;
	activemask.b32 	%r6;
	st.global.u32 	[%rd3+256], %r6;
	setp.ne.u32 	%p4, %r4, 0;
	vote.sync.ballot.b32 	%r7, %p4, -1;
	st.global.u32 	[%rd3+384], %r7;
	vote.sync.all.pred 	%p5, %p4, -1;
	selp.u32 	%r8, 1, 0, %p5;
	st.global.u32 	[%rd3+512], %r8;
	ret;
}
)PTX";
}  // namespace

TEST_CASE("ptx guarded exit of the odd lanes, then work by the even lanes", "[ptx][control]") {
  PtxModule m(kExitPtx, "half_exit.ptx");
  const uint32_t S = 0xAAAAAAAAu;
  DevPtr out = m.up(std::vector<uint32_t>(3 * 32, S));
  m.launch("half_exit", {arg(out)});
  auto got = m.down<uint32_t>(out, 3 * 32);
  std::vector<uint32_t> want(3 * 32);
  for (uint32_t l = 0; l < 32; ++l) {
    bool live = !(l & 1);
    want[l] = live ? 0x55555555u : S;
    want[32 + l] = live ? 0x55555555u : S;
    want[64 + l] = live ? l * l : S;
  }
  check_lanes(got, want, {"activemask after @%p1 exit", "vote.sync.ballot.b32 after exit", "mul.lo after exit"});
}

TEST_CASE("ptx uniform @p bra, membar/fence, divergent loop break reconverges before a warp-wide vote",
          "[ptx][control]") {
  PtxModule m(kLoopPtx, "loop_break.ptx");
  DevPtr out = m.up(std::vector<uint32_t>(5 * 32, 0xAAAAAAAAu));
  m.launch("loop_break", {arg(out), arg(uint32_t(7))});
  auto got = m.down<uint32_t>(out, 5 * 32);
  std::vector<uint32_t> want(5 * 32);
  for (uint32_t l = 0; l < 32; ++l) {
    uint32_t lim = l & 7, i = 0, acc = 0;
    do {
      ++i;
      acc += i;
    } while (i < lim && i < 100);
    want[l] = 222;
    want[32 + l] = acc;
    want[64 + l] = 0xffffffffu;
    want[96 + l] = 0xffffffffu;
    want[128 + l] = 1;
  }
  check_lanes(got, want,
              {"@%p1 bra (uniform)", "loop accumulator", "activemask after the loop", "vote.sync.ballot.b32 after the loop",
               "vote.sync.all.pred after the loop"});
  // And the other side of the uniform branch.
  m.launch("loop_break", {arg(out), arg(uint32_t(2))});
  auto got2 = m.down<uint32_t>(out, 32);
  for (uint32_t l = 0; l < 32; ++l) {
    INFO("lane " << l);
    CHECK(got2[l] == 111u);
  }
}

namespace {
const char* kTrapPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.visible .entry trapper(
	.param .u64 trapper_out
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [trapper_out];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd2, %r1, 4;
	cvta.to.global.u64 	%rd3, %rd1;
	add.s64 	%rd3, %rd3, %rd2;
	setp.ne.u32 	%p1, %r1, 5;
	@%p1 bra 	$L__ok;
	trap;
$L__ok:
	st.global.u32 	[%rd3], %r1;
	ret;
}
)PTX";
}  // namespace

TEST_CASE("ptx trap in a taken branch stops the run with a RunError", "[ptx][control]") {
  PtxModule m(kTrapPtx, "trapper.ptx");
  DevPtr out = m.up(std::vector<uint32_t>(32, 0));
  std::string msg = run_error_of([&] { m.launch("trapper", {arg(out)}); });
  INFO("message: " << msg);
  CHECK(lower(msg).find("trap") != std::string::npos);
  CHECK(names_file_line(msg, "trapper.ptx", line_of(kTrapPtx, "trap;")));
}

// ====================================================================== load-time errors

namespace {
const char* kRecursivePtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.func  (.param .b32 rec_ret) rec(
	.param .b32 rec_a
)
{
	.reg .b32 	%r<4>;

	ld.param.b32 	%r1, [rec_a];
	add.s32 	%r2, %r1, -1;
	{
	.param .b32 param0;
	st.param.b32 	[param0], %r2;
	.param .b32 retval0;
	call.uni (retval0), rec, (param0);
	ld.param.b32 	%r3, [retval0];
	}
	st.param.b32 	[rec_ret], %r3;
	ret;
}

.visible .entry rec_k(
	.param .u64 rec_k_out
)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [rec_k_out];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, 5;
	{
	.param .b32 param0;
	st.param.b32 	[param0], %r1;
	.param .b32 retval0;
	call.uni (retval0), rec, (param0);
	ld.param.b32 	%r2, [retval0];
	}
	st.global.u32 	[%rd2], %r2;
	ret;
}
)PTX";

const char* kArgCountPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.func  (.param .b32 add2_ret) add2(
	.param .b32 add2_a,
	.param .b32 add2_b
)
{
	.reg .b32 	%r<4>;

	ld.param.b32 	%r1, [add2_a];
	ld.param.b32 	%r2, [add2_b];
	add.s32 	%r3, %r1, %r2;
	st.param.b32 	[add2_ret], %r3;
	ret;
}

.visible .entry argc_k(
	.param .u64 argc_k_out
)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [argc_k_out];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, 5;
	{
	.param .b32 param0;
	st.param.b32 	[param0], %r1;
	.param .b32 retval0;
	call.uni (retval0), add2, (param0);
	ld.param.b32 	%r2, [retval0];
	}
	st.global.u32 	[%rd2], %r2;
	ret;
}
)PTX";

const char* kUndefSymPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.global .align 4 .u32 g_known[4];

.visible .entry undef_k(
	.param .u64 undef_k_out
)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [undef_k_out];
	cvta.to.global.u64 	%rd2, %rd1;
	ld.global.u32 	%r1, [g_known];
	ld.global.u32 	%r2, [g_unknown_table];
	add.s32 	%r3, %r1, %r2;
	st.global.u32 	[%rd2], %r3;
	ret;
}
)PTX";

const char* kVecRegPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.visible .entry vreg_k(
	.param .u64 vreg_k_out
)
{
	.reg .b32 	%r<4>;
	.reg .v4 .f32 	%v1;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [vreg_k_out];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, 1;
	st.global.u32 	[%rd2], %r1;
	ret;
}
)PTX";

// Load `text` as `origin`; expect an InputError naming origin:line for one of `lines`.
std::string expect_load_error(const std::string& text, const std::string& origin, const std::vector<int>& lines) {
  IsaFixture fx;
  std::string msg = input_error_of([&] { fx.dev->load_ptx(text, origin); });
  INFO("message: " << msg);
  bool named = false;
  for (int l : lines) {
    REQUIRE(l > 0);
    named = named || names_file_line(msg, origin, l);
  }
  CHECK(named);
  return msg;
}
}  // namespace

TEST_CASE("ptx load error: a recursive .func call names the file and line", "[ptx][error]") {
  // The call inside rec, or rec's declaration.
  std::string text = kRecursivePtx;
  size_t body = text.find("call.uni (retval0), rec");
  REQUIRE(body != std::string::npos);
  int call_line = int(std::count(text.begin(), text.begin() + long(body), '\n')) + 1;
  std::string msg = expect_load_error(text, "recursive.ptx", {call_line, line_of(text, ") rec(")});
  CHECK(msg.find("rec") != std::string::npos);
}

TEST_CASE("ptx load error: a call with the wrong number of arguments names the file and line", "[ptx][error]") {
  std::string msg = expect_load_error(kArgCountPtx, "argcount.ptx", {line_of(kArgCountPtx, "call.uni (retval0), add2")});
  CHECK(msg.find("add2") != std::string::npos);
}

TEST_CASE("ptx load error: an undefined symbol in ld.global names the file, line and symbol", "[ptx][error]") {
  std::string msg = expect_load_error(kUndefSymPtx, "undef.ptx", {line_of(kUndefSymPtx, "g_unknown_table")});
  CHECK(msg.find("g_unknown_table") != std::string::npos);
}

TEST_CASE("ptx load error: a .reg .v4 declaration names the file and line", "[ptx][error]") {
  expect_load_error(kVecRegPtx, "vreg.ptx", {line_of(kVecRegPtx, ".reg .v4")});
}

// ====================================================================== refusal per kernel

namespace {
// Three kernels: `good` uses nothing unusual; `bad` holds an instruction the front end refuses (line 15);
// `calls_bad` calls a .func that holds one (line 8). Only the last two are refused.
const char* kPartlyRefusedPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<3>;
  frobnicate.u32 %r1, %r1;
  ld.param.b32 %r1, [x];
  add.u32 %r2, %r1, %r1;
  st.param.b32 [r], %r2;
  ret;
}
.visible .entry bad(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mul.cc.u32 %r1, %r1, %r1;
  st.global.u32 [%rd1], %r1;
  ret;
}
.visible .entry good(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 41;
  add.u32 %r1, %r1, 1;
  st.global.u32 [%rd1], %r1;
  ret;
}
.visible .entry calls_bad(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 5;
  {
  .param .b32 a;
  st.param.b32 [a], %r1;
  .param .b32 rv;
  call.uni (rv), twice, (a);
  ld.param.b32 %r2, [rv];
  }
  st.global.u32 [%rd1], %r2;
  ret;
}
)PTX";
}  // namespace

TEST_CASE("ptx refusal: an instruction the front end refuses refuses only the kernels that reach it", "[ptx][error]") {
  IsaFixture fx;
  Device& d = *fx.dev;
  d.load_ptx(kPartlyRefusedPtx, "partly.ptx");  // loads: `good` can run
  DevPtr out = d.upload(std::vector<uint32_t>{0});
  d.launch("good", Dim3(1), Dim3(32), {arg(out)});
  CHECK(d.download<uint32_t>(out, 1)[0] == 42u);
  const std::string bad = input_error_of([&] { d.launch("bad", Dim3(1), Dim3(32), {arg(out)}); });
  INFO(bad);
  CHECK(bad.find("'bad'") != std::string::npos);
  CHECK(names_file_line(bad, "partly.ptx", line_of(kPartlyRefusedPtx, "mul.cc.u32")));
  CHECK(bad.find(".cc") != std::string::npos);
  const std::string calls = input_error_of([&] { d.launch("calls_bad", Dim3(1), Dim3(32), {arg(out)}); });
  INFO(calls);
  CHECK(calls.find("'calls_bad'") != std::string::npos);
  CHECK(names_file_line(calls, "partly.ptx", line_of(kPartlyRefusedPtx, "frobnicate")));
  CHECK(calls.find("frobnicate") != std::string::npos);
}

TEST_CASE("ptx refusal: a module whose every kernel is refused fails to load with the first reason", "[ptx][error]") {
  std::string text = kPartlyRefusedPtx;
  const size_t good = text.find(".visible .entry good");
  const size_t next = text.find(".visible .entry calls_bad");
  REQUIRE(good != std::string::npos);
  text.erase(good, next - good);  // only `bad` and `calls_bad` left
  std::string msg = expect_load_error(text, "refused.ptx", {line_of(text, "mul.cc.u32")});
  CHECK(msg.find("unsupported modifier .cc") != std::string::npos);
}
