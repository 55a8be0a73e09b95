// ISA tests: our CUDA test kernels (tb/tests/kernels/*.cu, compiled to PTX) run
// functionally on the SIMT executor and are checked against CPU references;
// hand-written PTX checks the front end's error reporting (InputError) and the
// executor's fault reporting (RunError).
//
// Float checks: results of IEEE-rounded operations (add/sub/mul/fma, div.rn,
// sqrt.rn, rcp.rn, directed-rounding add/mul, conversions) must be bit-exact;
// approximate SFU operations and libm routines are checked against double
// references with the tolerance stated beside each.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <numeric>
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

// ---------------------------------------------------------------- helpers

// Approximate results against double references: |got - ref| <= abs + rel * |ref|.
struct Tol {
  double abs, rel;
};
template <class T>
void check_soa_tol(const std::vector<T>& got, const std::vector<double>& ref, size_t n,
                   const std::vector<std::string>& ops, const std::vector<Tol>& tol) {
  REQUIRE(tol.size() == ops.size());
  REQUIRE(ref.size() == n * ops.size());
  REQUIRE(got.size() == ref.size());
  for (size_t k = 0; k < ops.size(); ++k) {
    size_t bad = 0;
    double worst = 0;
    std::string first;
    for (size_t i = 0; i < n; ++i) {
      double g = double(got[k * n + i]), r = ref[k * n + i];
      double err = std::fabs(g - r);
      bool ok = std::isfinite(g) && err <= tol[k].abs + tol[k].rel * std::fabs(r);
      worst = std::max(worst, std::isfinite(err) ? err : INFINITY);
      if (!ok && bad++ == 0) first = "i=" + std::to_string(i) + " got " + show(g) + " want " + show(r);
    }
    INFO("op " << ops[k] << " (abs " << tol[k].abs << ", rel " << tol[k].rel << "): " << bad << " of " << n
               << " out of tolerance, worst abs error " << worst << "; first " << first);
    CHECK(bad == 0);
  }
}

template <class T>
std::vector<T> zeros(size_t n) {
  return std::vector<T>(n, T(0));
}

uint32_t lanes_mask(int count) { return count >= 32 ? 0xffffffffu : ((1u << count) - 1u); }

// A float with a random 24-bit mantissa, random sign, exponent in [emin, emax].
float rand_float(std::mt19937& g, int emin, int emax) {
  std::uniform_int_distribution<int> e(emin, emax);
  uint32_t bits = (g() & 0x80000000u) | (uint32_t(127 + e(g)) << 23) | (g() & 0x7fffffu);
  return bitsf(bits);
}
double rand_double(std::mt19937_64& g, int emin, int emax) {
  std::uniform_int_distribution<int> e(emin, emax);
  uint64_t bits = (g() & 0x8000000000000000ull) | (uint64_t(1023 + e(g)) << 52) | (g() & 0xfffffffffffffull);
  return bitsd(bits);
}

// Round an exactly representable double result to float in a directed mode:
// 0 toward zero, -1 down, +1 up.
float round_dir(double exact, int mode) {
  float f = float(exact);
  if (mode == 0) {
    if (std::fabs(double(f)) > std::fabs(exact)) f = std::nextafter(f, 0.0f);
  } else if (mode < 0) {
    if (double(f) > exact) f = std::nextafter(f, -INFINITY);
  } else {
    if (double(f) < exact) f = std::nextafter(f, INFINITY);
  }
  return f;
}

// PTX float-to-integer conversion of an already rounded value: saturating.
uint32_t sat_u32(double r) {
  if (std::isnan(r)) return 0;
  if (r >= 4294967296.0) return UINT32_MAX;
  if (r <= 0) return 0;
  return uint32_t(r);
}
int64_t sat_s64(double r) {
  if (std::isnan(r)) return 0;  // PTX: a NaN converts to 0
  if (r >= 9223372036854775808.0) return INT64_MAX;
  if (r < -9223372036854775808.0) return INT64_MIN;
  return int64_t(r);
}


}  // namespace

// ====================================================================== device memory

TEST_CASE("device memory: the budget counts what an allocation reserves, whole pages and their table entries", "[isa][memory]") {
  GlobalMemory m;
  const uint64_t page = GlobalMemory::kPageSize, entry = 16;  // a page-table entry: host pointer and valid bytes
  m.set_budget(3 * page + 5 * entry);
  const uint64_t a = m.allocate(1);  // one page and its entry, and the guard page's entry
  CHECK(m.allocated_bytes() == page + 2 * entry);
  m.allocate(page + 1);  // two pages, their entries and the guard's: the budget is taken
  CHECK(m.allocated_bytes() == 3 * page + 5 * entry);
  // a third byte-sized allocation would reserve a page more than the budget has left, though 4097 bytes were asked for
  CHECK_THROWS_AS(m.allocate(1), InputError);
  m.release(a);
  CHECK(m.allocated_bytes() == 2 * page + 3 * entry);
  m.allocate(1);  // the released page's room is free again
  CHECK(m.allocated_bytes() == 3 * page + 5 * entry);
}

TEST_CASE("device memory: a warp's span is one host range inside one allocation, across its pages, and no further", "[isa][memory]") {
  // GlobalMemory::span serves a whole warp's accesses with one translation: it must refuse any range that
  // leaves the allocation (into its guard page, past its last byte, into another allocation).
  GlobalMemory m;
  const uint64_t page = GlobalMemory::kPageSize;
  const uint64_t a = m.allocate(3 * page - 8), b = m.allocate(64);
  for (uint64_t i = 0; i < 3 * page - 8; i += 4) {
    const uint32_t v = uint32_t(i);
    m.write(a + i, &v, 4);
  }
  uint8_t* p = m.span(a + page - 64, 128);  // across the first page boundary
  REQUIRE(p);
  uint32_t v;
  std::memcpy(&v, p + 64, 4);
  CHECK(v == page);  // the bytes of the next page follow in the same host range
  CHECK(m.span(a, 3 * page - 8) == m.translate(a, 4));  // the whole allocation
  CHECK_FALSE(m.span(a, 3 * page - 7));                 // one byte past its end
  CHECK_FALSE(m.span(a + 2 * page, page));              // into the guard page
  CHECK_FALSE(m.span(a, b - a + 4));                    // over the guard into the next allocation
  CHECK(m.span(b, 64));
  CHECK_FALSE(m.span(b - 4, 8));  // from the guard page
  CHECK_FALSE(m.span(0x10, 4));   // below every allocation
  m.release(a);
  CHECK_FALSE(m.span(a, 4));  // freed
}

// ====================================================================== integer

TEST_CASE("int_s32: add/sub/mul.lo/mul.hi/mad/div/rem/abs/neg/min/max/mul24", "[isa][int]") {
  IsaFixture fx;
  fx.load_kernel("int_arith");
  const int n = 300;
  const std::vector<int32_t> E = {0, 1, -1, 2, -2, INT32_MAX, INT32_MIN, 12345, -12345, 0x10000, -0x10000, 7, -7};
  std::mt19937 g(11);
  std::vector<int32_t> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    if (i < int(E.size() * E.size())) {
      a[i] = E[i / E.size()];
      b[i] = E[i % E.size()];
    } else {
      a[i] = int32_t(g());
      b[i] = (i & 1) ? int32_t(g()) : int32_t(g() % 2001) - 1000;
    }
    c[i] = int32_t(g());
    if (b[i] == 0) b[i] = 3;
    if (a[i] == INT32_MIN && b[i] == -1) b[i] = -3;
  }
  auto& d = *fx.dev;
  DevPtr pa = d.upload(a), pb = d.upload(b), pc = d.upload(c), po = d.upload(zeros<int32_t>(12 * n));
  d.launch("int_s32", Dim3(3), Dim3(128), {arg(pa), arg(pb), arg(pc), arg(po), arg(int32_t(n))});
  auto got = d.download<int32_t>(po, 12 * n);

  auto w = [](uint32_t v) { return int32_t(v); };
  auto sext24 = [](int32_t v) { return int32_t(uint32_t(v) << 8) >> 8; };
  std::vector<int32_t> want(12 * n);
  for (int i = 0; i < n; ++i) {
    int32_t x = a[i], y = b[i], z = c[i];
    uint32_t ux = uint32_t(x), uy = uint32_t(y);
    want[0 * n + i] = w(ux + uy);
    want[1 * n + i] = w(ux - uy);
    want[2 * n + i] = w(ux * uy);
    want[3 * n + i] = int32_t((int64_t(x) * int64_t(y)) >> 32);
    want[4 * n + i] = w(ux * uy + uint32_t(z));
    want[5 * n + i] = x / y;
    want[6 * n + i] = x % y;
    want[7 * n + i] = x < 0 ? w(0u - ux) : x;
    want[8 * n + i] = w(0u - ux);
    want[9 * n + i] = std::min(x, y);
    want[10 * n + i] = std::max(x, y);
    want[11 * n + i] = w(uint32_t(uint64_t(int64_t(sext24(x)) * int64_t(sext24(y)))));
  }
  check_soa_exact(got, want, n, {"add", "sub", "mul.lo", "mul.hi", "mad", "div", "rem", "abs", "neg", "min", "max", "mul24"});
}

TEST_CASE("int_u32: add/sub/mul.lo/mul.hi/mad/div/rem/min/max/sad", "[isa][int]") {
  IsaFixture fx;
  fx.load_kernel("int_arith");
  const int n = 300;
  const std::vector<uint32_t> E = {0, 1, 2, 0xffffffffu, 0x80000000u, 0x7fffffffu, 12345, 0x10000, 3};
  std::mt19937 g(12);
  std::vector<uint32_t> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    if (i < int(E.size() * E.size())) {
      a[i] = E[i / E.size()];
      b[i] = E[i % E.size()];
    } else {
      a[i] = g();
      b[i] = (i & 1) ? g() : g() % 1000;
    }
    c[i] = g();
    if (b[i] == 0) b[i] = 7;
  }
  auto& d = *fx.dev;
  DevPtr pa = d.upload(a), pb = d.upload(b), pc = d.upload(c), po = d.upload(zeros<uint32_t>(10 * n));
  d.launch("int_u32", Dim3(3), Dim3(128), {arg(pa), arg(pb), arg(pc), arg(po), arg(int32_t(n))});
  auto got = d.download<uint32_t>(po, 10 * n);
  std::vector<uint32_t> want(10 * n);
  for (int i = 0; i < n; ++i) {
    uint32_t x = a[i], y = b[i], z = c[i];
    want[0 * n + i] = x + y;
    want[1 * n + i] = x - y;
    want[2 * n + i] = x * y;
    want[3 * n + i] = uint32_t((uint64_t(x) * y) >> 32);
    want[4 * n + i] = x * y + z;
    want[5 * n + i] = x / y;
    want[6 * n + i] = x % y;
    want[7 * n + i] = std::min(x, y);
    want[8 * n + i] = std::max(x, y);
    want[9 * n + i] = (int32_t(x) < int32_t(y) ? y - x : x - y) + z;  // sad.s32 (__sad takes ints)
  }
  check_soa_exact(got, want, n, {"add", "sub", "mul.lo", "mul.hi", "mad", "div", "rem", "min", "max", "sad"});
}

TEST_CASE("int_s64: add/sub/mul.lo/mul.hi/mad/div/rem/abs/neg/min/max", "[isa][int]") {
  IsaFixture fx;
  fx.load_kernel("int_arith");
  const int n = 300;
  const std::vector<int64_t> E = {0, 1, -1, 2, -2, INT64_MAX, INT64_MIN, int64_t(1) << 32, -(int64_t(1) << 32),
                                  0x123456789ll, -77};
  std::mt19937_64 g(13);
  std::vector<int64_t> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    if (i < int(E.size() * E.size())) {
      a[i] = E[i / E.size()];
      b[i] = E[i % E.size()];
    } else {
      a[i] = int64_t(g());
      b[i] = (i & 1) ? int64_t(g()) : int64_t(g() % 200001) - 100000;
    }
    c[i] = int64_t(g());
    if (b[i] == 0) b[i] = 5;
    if (a[i] == INT64_MIN && b[i] == -1) b[i] = -5;
  }
  auto& d = *fx.dev;
  DevPtr pa = d.upload(a), pb = d.upload(b), pc = d.upload(c), po = d.upload(zeros<int64_t>(11 * n));
  d.launch("int_s64", Dim3(3), Dim3(128), {arg(pa), arg(pb), arg(pc), arg(po), arg(int32_t(n))});
  auto got = d.download<int64_t>(po, 11 * n);
  auto w = [](uint64_t v) { return int64_t(v); };
  std::vector<int64_t> want(11 * n);
  for (int i = 0; i < n; ++i) {
    int64_t x = a[i], y = b[i], z = c[i];
    uint64_t ux = uint64_t(x), uy = uint64_t(y);
    want[0 * n + i] = w(ux + uy);
    want[1 * n + i] = w(ux - uy);
    want[2 * n + i] = w(ux * uy);
    want[3 * n + i] = int64_t((__int128(x) * __int128(y)) >> 64);
    want[4 * n + i] = w(ux * uy + uint64_t(z));
    want[5 * n + i] = x / y;
    want[6 * n + i] = x % y;
    want[7 * n + i] = x < 0 ? w(0ull - ux) : x;
    want[8 * n + i] = w(0ull - ux);
    want[9 * n + i] = std::min(x, y);
    want[10 * n + i] = std::max(x, y);
  }
  check_soa_exact(got, want, n, {"add", "sub", "mul.lo", "mul.hi", "mad", "div", "rem", "abs", "neg", "min", "max"});
}

TEST_CASE("int_u64: add/sub/mul.lo/mul.hi/mad/div/rem/min/max", "[isa][int]") {
  IsaFixture fx;
  fx.load_kernel("int_arith");
  const int n = 300;
  const std::vector<uint64_t> E = {0, 1, 2, UINT64_MAX, 1ull << 63, 0xffffffffull, 1ull << 32, 12345, 0xdeadbeefcafeull};
  std::mt19937_64 g(14);
  std::vector<uint64_t> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    if (i < int(E.size() * E.size())) {
      a[i] = E[i / E.size()];
      b[i] = E[i % E.size()];
    } else {
      a[i] = g();
      b[i] = (i & 1) ? g() : g() % 100000;
    }
    c[i] = g();
    if (b[i] == 0) b[i] = 9;
  }
  auto& d = *fx.dev;
  DevPtr pa = d.upload(a), pb = d.upload(b), pc = d.upload(c), po = d.upload(zeros<uint64_t>(9 * n));
  d.launch("int_u64", Dim3(3), Dim3(128), {arg(pa), arg(pb), arg(pc), arg(po), arg(int32_t(n))});
  auto got = d.download<uint64_t>(po, 9 * n);
  std::vector<uint64_t> want(9 * n);
  for (int i = 0; i < n; ++i) {
    uint64_t x = a[i], y = b[i], z = c[i];
    want[0 * n + i] = x + y;
    want[1 * n + i] = x - y;
    want[2 * n + i] = x * y;
    want[3 * n + i] = uint64_t((unsigned __int128)x * y >> 64);
    want[4 * n + i] = x * y + z;
    want[5 * n + i] = x / y;
    want[6 * n + i] = x % y;
    want[7 * n + i] = std::min(x, y);
    want[8 * n + i] = std::max(x, y);
  }
  check_soa_exact(got, want, n, {"add", "sub", "mul.lo", "mul.hi", "mad", "div", "rem", "min", "max"});
}

TEST_CASE("int_wide: mul.wide.s32/u32 and 32->64 extension", "[isa][int]") {
  IsaFixture fx;
  fx.load_kernel("int_arith");
  const int n = 200;
  std::mt19937 g(15);
  std::vector<int32_t> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = int32_t(g());
    b[i] = int32_t(g());
  }
  a[0] = INT32_MIN; b[0] = INT32_MIN;
  a[1] = -1; b[1] = -1;
  a[2] = INT32_MAX; b[2] = -1;
  auto& d = *fx.dev;
  DevPtr pa = d.upload(a), pb = d.upload(b), po = d.upload(zeros<int64_t>(3 * n));
  d.launch("int_wide", Dim3(4), Dim3(64), {arg(pa), arg(pb), arg(po), arg(int32_t(n))});
  auto got = d.download<int64_t>(po, 3 * n);
  std::vector<int64_t> want(3 * n);
  for (int i = 0; i < n; ++i) {
    want[0 * n + i] = int64_t(a[i]) * int64_t(b[i]);
    want[1 * n + i] = int64_t(uint64_t(uint32_t(a[i])) * uint64_t(uint32_t(b[i])));
    want[2 * n + i] = int64_t(a[i]) + int64_t(uint32_t(b[i]));
  }
  check_soa_exact(got, want, n, {"mul.wide.s32", "mul.wide.u32", "cvt.s64.s32+cvt.u64.u32"});
}

// ====================================================================== bits

namespace {
uint32_t bit(uint32_t v, uint32_t i) { return (v >> i) & 1; }
// PTX ISA bfe: bits past bit 31 read as 0 (.u32) or as the field's sign bit (.s32).
uint32_t bfe_ref(uint32_t a, uint32_t pos, uint32_t len, bool is_signed) {
  uint32_t sbit = is_signed ? bit(a, std::min(pos + len - 1, 31u)) : 0;
  uint32_t d = 0;
  for (uint32_t i = 0; i < 32; ++i) d |= ((i < len && pos + i <= 31) ? bit(a, pos + i) : sbit) << i;
  return d;
}
uint32_t bfi_ref(uint32_t a, uint32_t b, uint32_t pos, uint32_t len) {
  uint32_t f = b;
  for (uint32_t i = 0; i < len && pos + i <= 31; ++i) f = (f & ~(1u << (pos + i))) | (bit(a, i) << (pos + i));
  return f;
}
uint32_t brev32(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
  return r;
}
uint64_t brev64(uint64_t v) {
  uint64_t r = 0;
  for (int i = 0; i < 64; ++i) r |= ((v >> i) & 1ull) << (63 - i);
  return r;
}
}  // namespace

TEST_CASE("bits32: logic, shifts, popc/clz/brev/ffs, prmt, bfe/bfi, funnel shifts", "[isa][bits]") {
  IsaFixture fx;
  fx.load_kernel("bit_ops");
  const int n = 300;
  std::mt19937 g(21);
  std::vector<uint32_t> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = g();
    b[i] = g();
    c[i] = g();
  }
  const uint32_t specials[] = {0u, 0xffffffffu, 1u, 0x80000000u, 0x00f000f0u, 0x7fffffffu};
  for (int i = 0; i < 6; ++i) a[i] = specials[i];
  c[6] = 0;                        // shift 0, pos 0 / len 1
  c[7] = (31u << 8) | 31u;         // pos 31, len 32 (runs past bit 31)
  c[8] = 32u | (0u << 8);          // funnel clamp: (z & 63) = 32
  c[9] = 0x8888u;                  // prmt sign replication of byte 0
  auto& d = *fx.dev;
  DevPtr pa = d.upload(a), pb = d.upload(b), pc = d.upload(c), po = d.upload(zeros<uint32_t>(21 * n));
  d.launch("bits32", Dim3(3), Dim3(128), {arg(pa), arg(pb), arg(pc), arg(po), arg(int32_t(n))});
  auto got = d.download<uint32_t>(po, 21 * n);
  std::vector<uint32_t> want(21 * n);
  for (int i = 0; i < n; ++i) {
    uint32_t x = a[i], y = b[i], z = c[i], s = y & 31;
    uint32_t pos = z & 31, len = ((z >> 8) & 31) + 1;
    uint64_t hilo = (uint64_t(y) << 32) | x;
    uint32_t sh = z & 31, shc = std::min(z & 63, 32u);
    want[0 * n + i] = x & y;
    want[1 * n + i] = x | y;
    want[2 * n + i] = x ^ y;
    want[3 * n + i] = ~x;
    want[4 * n + i] = x << s;
    want[5 * n + i] = x >> s;
    want[6 * n + i] = uint32_t(int32_t(x) >> s);
    want[7 * n + i] = uint32_t(__builtin_popcount(x));
    want[8 * n + i] = x ? uint32_t(__builtin_clz(x)) : 32u;
    want[9 * n + i] = brev32(x);
    want[10 * n + i] = x ? uint32_t(__builtin_ctz(x)) + 1 : 0u;
    want[11 * n + i] = prmt_ref(x, y, z & 0x7777);
    want[12 * n + i] = prmt_ref(x, y, z & 0xffff);
    want[13 * n + i] = bfe_ref(x, pos, len, false);
    want[14 * n + i] = bfe_ref(x, pos, len, true);
    want[15 * n + i] = bfi_ref(x, y, pos, len);
    want[16 * n + i] = uint32_t((hilo << sh) >> 32);
    want[17 * n + i] = uint32_t(hilo >> sh);
    want[18 * n + i] = shc == 32 ? x : uint32_t((hilo << shc) >> 32);
    want[19 * n + i] = (x << 7) | (x >> 25);
    want[20 * n + i] = (x >> 5) & 0x3ffu;
  }
  check_soa_exact(got, want, n,
                  {"and", "or", "xor", "not", "shl", "shr.u32", "shr.s32", "popc", "clz", "brev", "ffs", "__byte_perm",
                   "prmt (sign mode)", "bfe.u32", "bfe.s32", "bfi", "shf.l.wrap", "shf.r.wrap", "shf.l.clamp",
                   "rotate", "field extract"});
}

TEST_CASE("bits64: logic, shifts, popc/clz/brev/ffs on 64-bit", "[isa][bits]") {
  IsaFixture fx;
  fx.load_kernel("bit_ops");
  const int n = 200;
  std::mt19937_64 g(22);
  std::vector<uint64_t> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = g();
    b[i] = g();
  }
  const uint64_t specials[] = {0ull, UINT64_MAX, 1ull, 1ull << 63, 0xffffffffull, 1ull << 32};
  for (int i = 0; i < 6; ++i) a[i] = specials[i];
  auto& d = *fx.dev;
  DevPtr pa = d.upload(a), pb = d.upload(b), po = d.upload(zeros<uint64_t>(11 * n));
  d.launch("bits64", Dim3(4), Dim3(64), {arg(pa), arg(pb), arg(po), arg(int32_t(n))});
  auto got = d.download<uint64_t>(po, 11 * n);
  std::vector<uint64_t> want(11 * n);
  for (int i = 0; i < n; ++i) {
    uint64_t x = a[i], y = b[i];
    unsigned s = unsigned(y) & 63;
    want[0 * n + i] = x & y;
    want[1 * n + i] = x | y;
    want[2 * n + i] = x ^ y;
    want[3 * n + i] = ~x;
    want[4 * n + i] = x << s;
    want[5 * n + i] = x >> s;
    want[6 * n + i] = uint64_t(int64_t(x) >> s);
    want[7 * n + i] = uint64_t(__builtin_popcountll(x));
    want[8 * n + i] = x ? uint64_t(__builtin_clzll(x)) : 64u;
    want[9 * n + i] = brev64(x);
    want[10 * n + i] = x ? uint64_t(__builtin_ctzll(x)) + 1 : 0u;
  }
  check_soa_exact(got, want, n, {"and", "or", "xor", "not", "shl", "shr.u64", "shr.s64", "popc", "clz", "brev", "ffs"});
}

// ====================================================================== float

TEST_CASE("f32_ops: IEEE-rounded add/sub/mul/fma/div/sqrt/rcp, min/max/abs/neg, directed rounding", "[isa][float]") {
  IsaFixture fx;
  fx.load_kernel("float_ops");
  const int n = 300;
  std::mt19937 g(31);
  std::vector<float> a(n), b(n), c(n);
  // Exponents in [-8, 7] keep every sum and product exact in double, so the
  // directed-rounding references below are exact.
  for (int i = 0; i < n; ++i) {
    a[i] = rand_float(g, -8, 7);
    b[i] = rand_float(g, -8, 7);
    c[i] = rand_float(g, -8, 7);
  }
  a[0] = 1.0f; b[0] = 3.0f; c[0] = 0.5f;
  a[1] = 2.5f; b[1] = -1.5f; c[1] = -3.75f;
  a[2] = 0.1f; b[2] = 0.1f; c[2] = -0.01f;
  a[3] = 2.0f; b[3] = 0.0f; c[3] = 1.0f;  // x / 0 = inf, 1 / 0 = inf
  auto& d = *fx.dev;
  DevPtr pa = d.upload(a), pb = d.upload(b), pc = d.upload(c), po = d.upload(zeros<float>(15 * n));
  d.launch("f32_ops", Dim3(3), Dim3(128), {arg(pa), arg(pb), arg(pc), arg(po), arg(int32_t(n))});
  auto got = d.download<float>(po, 15 * n);
  std::vector<float> want(15 * n);
  for (int i = 0; i < n; ++i) {
    float x = a[i], y = b[i], z = c[i];
    want[0 * n + i] = x + y;
    want[1 * n + i] = x - y;
    want[2 * n + i] = x * y;
    want[3 * n + i] = std::fma(x, y, z);
    want[4 * n + i] = x / y;
    want[5 * n + i] = std::sqrt(std::fabs(x));
    want[6 * n + i] = 1.0f / y;
    want[7 * n + i] = std::fmin(x, y);
    want[8 * n + i] = std::fmax(x, y);
    want[9 * n + i] = std::fabs(x);
    want[10 * n + i] = -x;
    want[11 * n + i] = round_dir(double(x) * double(y), 0);
    want[12 * n + i] = round_dir(double(x) + double(y), -1);
    want[13 * n + i] = round_dir(double(x) + double(y), +1);
    want[14 * n + i] = std::copysign(x, y);
  }
  check_soa_exact(got, want, n,
                  {"add.rn", "sub.rn", "mul.rn", "fma.rn", "div.rn", "sqrt.rn", "rcp.rn", "min", "max", "abs", "neg",
                   "mul.rz", "add.rm", "add.rp", "copysign"});
}

TEST_CASE("f64_ops: IEEE-rounded double arithmetic, rsqrt within 1e-15 relative", "[isa][float]") {
  IsaFixture fx;
  fx.load_kernel("float_ops");
  const int n = 300;
  std::mt19937_64 g(32);
  std::vector<double> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = rand_double(g, -20, 20);
    b[i] = rand_double(g, -20, 20);
    c[i] = rand_double(g, -20, 20);
  }
  a[0] = 1.0; b[0] = 3.0; c[0] = 0.1;
  a[1] = 2.0; b[1] = 0.0; c[1] = 0.0;
  auto& d = *fx.dev;
  DevPtr pa = d.upload(a), pb = d.upload(b), pc = d.upload(c), po = d.upload(zeros<double>(12 * n));
  d.launch("f64_ops", Dim3(3), Dim3(128), {arg(pa), arg(pb), arg(pc), arg(po), arg(int32_t(n))});
  auto got = d.download<double>(po, 12 * n);
  std::vector<double> want(11 * n);
  std::vector<double> got_exact(got.begin(), got.begin() + 11 * n);
  for (int i = 0; i < n; ++i) {
    double x = a[i], y = b[i], z = c[i];
    want[0 * n + i] = x + y;
    want[1 * n + i] = x - y;
    want[2 * n + i] = x * y;
    want[3 * n + i] = std::fma(x, y, z);
    want[4 * n + i] = x / y;
    want[5 * n + i] = std::sqrt(std::fabs(x));
    want[6 * n + i] = 1.0 / y;
    want[7 * n + i] = std::fmin(x, y);
    want[8 * n + i] = std::fmax(x, y);
    want[9 * n + i] = std::fabs(x);
    want[10 * n + i] = -x;
  }
  check_soa_exact(got_exact, want, n,
                  {"add.rn", "sub.rn", "mul.rn", "fma.rn", "div.rn", "sqrt.rn", "rcp.rn", "min", "max", "abs", "neg"});
  std::vector<double> rs(got.begin() + 11 * n, got.end()), rs_ref(n);
  for (int i = 0; i < n; ++i) rs_ref[i] = 1.0 / std::sqrt(std::fabs(a[i]) + 1.0);
  check_soa_tol(rs, rs_ref, n, {"rsqrt (CUDA: 1 ulp)"}, {{0.0, 1e-15}});
}

TEST_CASE("sfu_approx: sin/cos/lg2/ex2/rsqrt/rcp/sqrt/div approx and tanh.approx within stated tolerance",
          "[isa][float][sfu]") {
  IsaFixture fx;
  fx.load_kernel("sfu_ops");
  const int n = 256;
  std::mt19937 g(33);
  std::uniform_real_distribution<float> ux(-3.14159265f, 3.14159265f), uy(0.5f, 100.0f);
  std::vector<float> a(n), p(n);
  for (int i = 0; i < n; ++i) {
    a[i] = ux(g);
    p[i] = uy(g);
  }
  a[0] = 0.0f; p[0] = 1.0f;
  a[1] = 1.0f; p[1] = 2.0f;
  auto& d = *fx.dev;
  DevPtr pa = d.upload(a), pp = d.upload(p), po = d.upload(zeros<float>(11 * n));
  d.launch("sfu_approx", Dim3(2), Dim3(128), {arg(pa), arg(pp), arg(po), arg(int32_t(n))});
  auto got = d.download<float>(po, 11 * n);
  std::vector<double> ref(11 * n);
  for (int i = 0; i < n; ++i) {
    double x = a[i], y = p[i];
    ref[0 * n + i] = std::sin(x);
    ref[1 * n + i] = std::cos(x);
    ref[2 * n + i] = std::log2(y);
    ref[3 * n + i] = std::exp2(x);
    ref[4 * n + i] = 1.0 / std::sqrt(y);
    ref[5 * n + i] = x / y;
    ref[6 * n + i] = std::exp(x);
    ref[7 * n + i] = std::log(y);
    ref[8 * n + i] = std::tanh(x);
    ref[9 * n + i] = 1.0 / y;
    ref[10 * n + i] = std::sqrt(y);
  }
  // Tolerances from the PTX ISA / CUDA guide error bounds, with margin:
  // sin/cos.approx abs 2^-20.9 on [-pi, pi]; lg2.approx abs 2^-22 near 1, else
  // 2 ulp; ex2/rsqrt/rcp/sqrt approx about 2 ulp; __expf error grows with |x|;
  // tanh.approx relative 2^-11.
  check_soa_tol(got, ref, n,
                {"sin.approx", "cos.approx", "lg2.approx", "ex2.approx", "rsqrt.approx", "div.approx (__fdividef)",
                 "__expf", "__logf", "tanh.approx", "rcp.approx", "sqrt.approx"},
                {{2e-6, 0}, {2e-6, 0}, {2e-6, 2e-6}, {1e-7, 2e-6}, {0, 2e-6}, {1e-9, 2e-6}, {0, 4e-6}, {2e-6, 2e-6},
                 {1e-3, 0}, {0, 2e-6}, {0, 2e-6}});
}

TEST_CASE("libm_f32: tanhf/sinf/cosf/expf/logf/sqrtf/powf/atan2f within 1e-5 relative", "[isa][float][sfu]") {
  IsaFixture fx;
  fx.load_kernel("sfu_ops");
  const int n = 256;
  std::mt19937 g(34);
  std::uniform_real_distribution<float> ux(-3.14159265f, 3.14159265f), uy(0.5f, 100.0f);
  std::vector<float> a(n), p(n);
  for (int i = 0; i < n; ++i) {
    a[i] = ux(g);
    p[i] = uy(g);
  }
  a[0] = 0.0f; p[0] = 1.0f;
  a[1] = 0.001f; p[1] = 64.0f;
  auto& d = *fx.dev;
  DevPtr pa = d.upload(a), pp = d.upload(p), po = d.upload(zeros<float>(8 * n));
  d.launch("libm_f32", Dim3(2), Dim3(128), {arg(pa), arg(pp), arg(po), arg(int32_t(n))});
  auto got = d.download<float>(po, 8 * n);
  std::vector<double> ref(8 * n);
  for (int i = 0; i < n; ++i) {
    double x = a[i], y = p[i];
    ref[0 * n + i] = std::tanh(x);
    ref[1 * n + i] = std::sin(x);
    ref[2 * n + i] = std::cos(x);
    ref[3 * n + i] = std::exp(x);
    ref[4 * n + i] = std::log(y);
    ref[5 * n + i] = std::sqrt(y);
    ref[6 * n + i] = std::pow(y, 0.75);
    ref[7 * n + i] = std::atan2(x, y);
  }
  // CUDA's libm is accurate to 1-4 ulp (about 2.4e-7 relative per ulp).
  const Tol t{1e-6, 1e-5};
  check_soa_tol(got, ref, n, {"tanhf", "sinf", "cosf", "expf", "logf", "sqrtf", "powf", "atan2f"},
                {t, t, t, t, t, t, t, t});
}

TEST_CASE("cvt_ops: float<->int with rn/rz/rm/rp rounding, saturation, NaN, double<->float, __saturatef",
          "[isa][float][cvt]") {
  IsaFixture fx;
  fx.load_kernel("convert");
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> f = {2.5f,   3.5f,    -2.5f,       -3.5f, 0.5f,         -0.5f,        1.5f,
                          0.49999997f, -0.49999997f, 1e10f, -1e10f, 3e9f, 5e9f, -1.0f,
                          nan,    inf,     -inf,        0.0f,  123.456f,     -123.456f,    16777217.0f,
                          2147483520.0f, 2147483648.0f, 0.99f, 1.01f, 1.0f, 4294967040.0f, -2147483904.0f};
  std::vector<int32_t> k = {0, 1, -1, INT32_MAX, INT32_MIN, 16777217, -16777217, 0x7fffffc0, 123456789, -987654321,
                            16777219, 33554435};
  std::vector<double> dd = {2.5, -2.5, 3.5, 0.5, -0.5, 1e300, -1e300, 2147483647.5, -2147483648.5, 4e9, -4e9, 1.5e-40,
                            1e-50, 3.4028235677973366e38, 1.0000000596046448, 1e19, -1e19};
  const int n = 128;
  std::mt19937 g(41);
  std::uniform_real_distribution<float> uf(-1e4f, 1e4f);
  std::uniform_real_distribution<double> ud(-3e9, 3e9);
  while (int(f.size()) < n) f.push_back(uf(g));
  while (int(k.size()) < n) k.push_back(int32_t(g()));
  while (int(dd.size()) < n) dd.push_back(ud(g));
  auto& d = *fx.dev;
  DevPtr pf = d.upload(f), pk = d.upload(k), pd = d.upload(dd);
  DevPtr oi = d.upload(zeros<int32_t>(8 * n)), of = d.upload(zeros<float>(6 * n)), od = d.upload(zeros<double>(3 * n)),
         ol = d.upload(zeros<int64_t>(6 * n));
  d.launch("cvt_ops", Dim3(2), Dim3(64), {arg(pf), arg(pk), arg(pd), arg(oi), arg(of), arg(od), arg(ol), arg(int32_t(n))});
  auto gi = d.download<int32_t>(oi, 8 * n);
  auto gf = d.download<float>(of, 6 * n);
  auto gd = d.download<double>(od, 3 * n);
  auto gl = d.download<int64_t>(ol, 6 * n);

  std::vector<int32_t> wi(8 * n);
  std::vector<float> wf(6 * n);
  std::vector<double> wd(3 * n);
  std::vector<int64_t> wl(6 * n);
  for (int i = 0; i < n; ++i) {
    double x = f[i], y = dd[i];
    int32_t kk = k[i];
    wi[0 * n + i] = sat_s32(std::nearbyint(x));
    wi[1 * n + i] = sat_s32(std::trunc(x));
    wi[2 * n + i] = sat_s32(std::floor(x));
    wi[3 * n + i] = sat_s32(std::ceil(x));
    wi[4 * n + i] = int32_t(sat_u32(std::nearbyint(x)));
    wi[5 * n + i] = sat_s32(std::trunc(y));
    std::memcpy(&wi[6 * n + i], &f[i], 4);
    wi[7 * n + i] = sat_s32(std::nearbyint(y));
    wf[0 * n + i] = float(kk);
    wf[1 * n + i] = float(uint32_t(kk));
    wf[2 * n + i] = float(y);
    wf[3 * n + i] = std::isnan(f[i]) ? 0.0f : std::min(1.0f, std::max(0.0f, f[i]));
    wf[4 * n + i] = round_dir(double(kk), 0);
    wf[5 * n + i] = float(int64_t(kk) * 4099);
    wd[0 * n + i] = double(f[i]);
    wd[1 * n + i] = double(kk);
    wd[2 * n + i] = double(int64_t(uint64_t(int64_t(kk)) << 20));
    wl[0 * n + i] = sat_s64(std::nearbyint(x));
    wl[1 * n + i] = sat_s64(std::trunc(y));
    wl[2 * n + i] = kk;
    wl[3 * n + i] = int64_t(uint32_t(kk));
    wl[4 * n + i] = int16_t(uint16_t(uint32_t(kk)));
    wl[5 * n + i] = uint8_t(uint32_t(kk));
  }
  check_soa_exact(gi, wi, n,
                  {"cvt.rni.s32.f32", "cvt.rzi.s32.f32", "cvt.rmi.s32.f32", "cvt.rpi.s32.f32", "cvt.rni.u32.f32",
                   "cvt.rzi.s32.f64", "mov.b32 (float bits)", "cvt.rni.s32.f64"});
  // Value equality for floats (a saturated -0.5 may come back as +0 or -0).
  check_soa(gf, wf, n,
            {"cvt.rn.f32.s32", "cvt.rn.f32.u32", "cvt.rn.f32.f64", "cvt.sat.f32.f32 (__saturatef)", "cvt.rz.f32.s32",
             "cvt.rn.f32.s64"},
            [](float a, float b, size_t, size_t) { return a == b || (std::isnan(a) && std::isnan(b)); });
  check_soa_exact(gd, wd, n, {"cvt.f64.f32", "cvt.rn.f64.s32", "cvt.rn.f64.s64"});
  // 64-bit results from NaN or +-inf floats are left out (NaN gives INT64_MIN there).
  check_soa(gl, wl, n, {"cvt.rni.s64.f32", "cvt.rzi.s64.f64", "cvt.s64.s32", "cvt.u64.u32", "cvt.s16", "cvt.u8"},
            [&](int64_t a, int64_t b, size_t op, size_t i) { return (op == 0 && !std::isfinite(f[i])) || a == b; });
}

// ====================================================================== predicates

TEST_CASE("pred_ops: setp with compound conditions, selp, unordered float compares with NaN", "[isa][pred]") {
  IsaFixture fx;
  fx.load_kernel("predicates");
  const int n = 300;
  std::mt19937 g(51);
  std::uniform_int_distribution<int> ui(-1000, 1000);
  std::uniform_real_distribution<float> uf(-10.0f, 10.0f);
  std::vector<int32_t> a(n), b(n);
  std::vector<float> fa(n), fb(n);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int i = 0; i < n; ++i) {
    a[i] = ui(g);
    b[i] = (i % 11 == 0) ? a[i] : ui(g);
    if (i % 23 == 0) a[i] = 3;
    fa[i] = uf(g);
    fb[i] = (i % 7 == 0) ? fa[i] : (i % 13 == 0) ? 0.0f : uf(g);
    if (i % 17 == 0) fa[i] = nan;
    if (i % 19 == 0) fb[i] = nan;
  }
  auto& d = *fx.dev;
  DevPtr pa = d.upload(a), pb = d.upload(b), pfa = d.upload(fa), pfb = d.upload(fb), po = d.upload(zeros<int32_t>(9 * n));
  d.launch("pred_ops", Dim3(3), Dim3(128), {arg(pa), arg(pb), arg(pfa), arg(pfb), arg(po), arg(int32_t(n))});
  auto got = d.download<int32_t>(po, 9 * n);
  std::vector<int32_t> want(9 * n);
  for (int i = 0; i < n; ++i) {
    int x = a[i], y = b[i];
    unsigned ux = unsigned(x), uy = unsigned(y);
    float p = fa[i], q = fb[i];
    want[0 * n + i] = (x < y) ? x : y + 1;
    want[1 * n + i] = ((x < y) && (x != 3)) || (y > 2 * x) ? 11 : 22;
    want[2 * n + i] = ((ux >= uy) ^ (x >= y)) ? 5 : -5;
    want[3 * n + i] = (p < q) ? 1 : 0;
    want[4 * n + i] = !(p < q) ? 1 : 0;
    want[5 * n + i] = (p == q || p != p) ? 7 : 8;
    want[6 * n + i] = (p > q) && (x <= y) ? x : (p >= q) || (x == y) ? y : x ^ y;
    want[7 * n + i] = (ux > 100u) + (uy <= 7u) * 2 + (p != q) * 4 + (q <= 0.0f) * 8;
    want[8 * n + i] = (x & 1) ? ((y & 2) ? x - y : x + y) : ((y & 4) ? x * 3 : -y);
  }
  check_soa_exact(got, want, n,
                  {"selp lt", "and/or combiner", "xor of u/s compares", "setp.lt.f32", "setp.geu.f32 (NaN)",
                   "eq or nan", "nested selects", "predicate sum", "nested branches"});
}

// ====================================================================== memory

TEST_CASE("mem_spaces: global, shared (reversed through a barrier) and dynamically indexed local", "[isa][mem]") {
  IsaFixture fx;
  fx.load_kernel("memory_spaces");
  REQUIRE(kernel_ptx("memory_spaces").find(".local") != std::string::npos);  // the local array really is .local
  const int n = 300, bs = 128, grid = 3;
  std::mt19937 g(61);
  std::vector<int32_t> in(n);
  for (auto& v : in) v = int32_t(g() % 20001) - 10000;
  auto& d = *fx.dev;
  DevPtr pin = d.upload(in), ps = d.upload(zeros<int32_t>(n)), pl = d.upload(zeros<int32_t>(n));
  d.launch("mem_spaces", Dim3(grid), Dim3(bs), {arg(pin), arg(ps), arg(pl), arg(int32_t(n))});
  auto gs = d.download<int32_t>(ps, n), gl = d.download<int32_t>(pl, n);
  std::vector<int32_t> ws(n), wl(n);
  auto v_of = [&](int i) { return i < n ? in[i] : 0; };
  for (int i = 0; i < n; ++i) {
    int t = i % bs, base = i - t;
    ws[i] = v_of(base + bs - 1 - t) * 2 + 1;
    int v = in[i];
    int loc[16];
    for (int k = 0; k < 16; ++k) loc[k] = v * (k + 1) - k;
    loc[(v >> 4) & 15] += 1000;
    wl[i] = loc[(v ^ t) & 15];
  }
  check_soa_exact(gs, ws, n, {"ld/st.shared"});
  check_soa_exact(gl, wl, n, {"ld/st.local"});
}

TEST_CASE("mem_widths: s8/u8/s16/u16 loads extend correctly, u8/u16 stores truncate", "[isa][mem]") {
  IsaFixture fx;
  fx.load_kernel("memory_spaces");
  const int n = 200;
  std::mt19937 g(62);
  std::vector<int8_t> s8(n);
  std::vector<uint8_t> u8(n);
  std::vector<int16_t> s16(n);
  std::vector<uint16_t> u16(n);
  for (int i = 0; i < n; ++i) {
    s8[i] = int8_t(g());
    u8[i] = uint8_t(g());
    s16[i] = int16_t(g());
    u16[i] = uint16_t(g());
  }
  s8[0] = -128; u8[0] = 255; s16[0] = -32768; u16[0] = 65535;
  auto& d = *fx.dev;
  DevPtr p1 = d.upload(s8), p2 = d.upload(u8), p3 = d.upload(s16), p4 = d.upload(u16);
  DevPtr po = d.upload(zeros<int32_t>(4 * n)), pb = d.upload(zeros<uint8_t>(n)), ps = d.upload(zeros<int16_t>(n));
  d.launch("mem_widths", Dim3(4), Dim3(64), {arg(p1), arg(p2), arg(p3), arg(p4), arg(po), arg(pb), arg(ps), arg(int32_t(n))});
  auto got = d.download<int32_t>(po, 4 * n);
  auto gb = d.download<uint8_t>(pb, n);
  auto gs = d.download<int16_t>(ps, n);
  std::vector<int32_t> want(4 * n);
  std::vector<uint8_t> wb(n);
  std::vector<int16_t> wsv(n);
  for (int i = 0; i < n; ++i) {
    want[0 * n + i] = s8[i];
    want[1 * n + i] = u8[i];
    want[2 * n + i] = s16[i];
    want[3 * n + i] = u16[i];
    wb[i] = uint8_t(u8[i] + 3);
    wsv[i] = int16_t(uint16_t(uint32_t(int32_t(s16[i]) * 3)));
  }
  check_soa_exact(got, want, n, {"ld.s8", "ld.u8", "ld.s16", "ld.u16"});
  check_soa_exact(gb, wb, n, {"st.u8"});
  check_soa_exact(gs, wsv, n, {"st.u16"});
}

TEST_CASE("vec_mem: v2/v4 loads and stores of float2/float4/int4/double2, global and shared", "[isa][mem]") {
  IsaFixture fx;
  fx.load_kernel("memory_spaces");
  const int n = 128, bs = 64;
  std::mt19937 g(63);
  std::uniform_real_distribution<float> uf(-100.0f, 100.0f);
  std::vector<float> a4(4 * n), a2(2 * n);
  std::vector<int32_t> b4(4 * n);
  std::vector<double> d2(2 * n);
  for (auto& v : a4) v = uf(g);
  for (auto& v : a2) v = uf(g);
  for (auto& v : b4) v = int32_t(g());
  for (auto& v : d2) v = double(uf(g)) * 1.25;
  auto& d = *fx.dev;
  DevPtr p4 = d.upload(a4), p2 = d.upload(a2), pb = d.upload(b4), pd = d.upload(d2);
  DevPtr o4 = d.upload(zeros<float>(4 * n)), o2 = d.upload(zeros<float>(2 * n)), oi = d.upload(zeros<int32_t>(4 * n)),
         od = d.upload(zeros<double>(2 * n));
  // float4/int4/double2 accesses need 16-byte alignment: Device::malloc must provide it.
  for (DevPtr p : {p4, p2, pb, pd, o4, o2, oi, od}) REQUIRE(p % 16 == 0);
  d.launch("vec_mem", Dim3(n / bs), Dim3(bs),
           {arg(p4), arg(p2), arg(pb), arg(pd), arg(o4), arg(o2), arg(oi), arg(od), arg(int32_t(n))});
  auto g4 = d.download<float>(o4, 4 * n), g2 = d.download<float>(o2, 2 * n);
  auto gi = d.download<int32_t>(oi, 4 * n);
  auto gd = d.download<double>(od, 2 * n);
  std::vector<float> w4(4 * n), w2(2 * n);
  std::vector<int32_t> wi(4 * n);
  std::vector<double> wd(2 * n);
  for (int i = 0; i < n; ++i) {
    int t = i % bs, j = i - t + (t + 1) % bs;
    const float* v = &a4[4 * i];
    const float* w = &a4[4 * j];
    w4[4 * i + 0] = v[0] + w[3];
    w4[4 * i + 1] = v[1] * 2.0f;
    w4[4 * i + 2] = v[2] - 1.0f;
    w4[4 * i + 3] = w[0];
    w2[2 * i + 0] = a2[2 * i + 1];
    w2[2 * i + 1] = a2[2 * i + 0];
    wi[4 * i + 0] = b4[4 * i + 3];
    wi[4 * i + 1] = int32_t(uint32_t(b4[4 * i + 2]) + 1u);
    wi[4 * i + 2] = b4[4 * i + 1] ^ 0x5a5a;
    wi[4 * i + 3] = b4[4 * i + 0];
    wd[2 * i + 0] = d2[2 * i + 1];
    wd[2 * i + 1] = d2[2 * i + 0] * 0.5;
  }
  check_soa_exact(g4, w4, 4 * n, {"float4 (global + shared v4)"});
  check_soa_exact(g2, w2, 2 * n, {"float2"});
  check_soa_exact(gi, wi, 4 * n, {"int4"});
  check_soa_exact(gd, wd, 2 * n, {"double2"});
}

// ====================================================================== atomics

TEST_CASE("atomics_global: 1024 threads of 4 blocks contend on one address per operation", "[isa][atomic]") {
  IsaFixture fx;
  fx.load_kernel("atomics");
  const uint32_t blocks = 4, bs = 256, N = blocks * bs;
  std::vector<uint32_t> gc = {0, 0, 0, 0, uint32_t(INT32_MAX), uint32_t(INT32_MIN), 0xffffffffu, 0, 0, 0};
  auto& d = *fx.dev;
  DevPtr pc = d.upload(gc), pf = d.upload(zeros<float>(2)), p64 = d.upload(zeros<uint64_t>(1));
  DevPtr padd = d.upload(zeros<uint32_t>(N)), pex = d.upload(zeros<uint32_t>(N));
  d.launch("atomics_global", Dim3(blocks), Dim3(bs), {arg(pc), arg(pf), arg(p64), arg(padd), arg(pex)});
  auto c = d.download<uint32_t>(pc, 10);
  auto f = d.download<float>(pf, 2);
  auto u64 = d.download<uint64_t>(p64, 1);
  auto olds_add = d.download<uint32_t>(padd, N);
  auto olds_exch = d.download<uint32_t>(pex, N);

  uint32_t inc = 0, dec = 0, x = 0;
  int32_t mn = INT32_MAX, mx = INT32_MIN;
  uint32_t orv = 0;
  for (uint32_t tid = 0; tid < N; ++tid) {
    inc = (inc >= 99u) ? 0 : inc + 1;                 // atom.inc: wraps to 0 past the limit
    dec = (dec == 0 || dec > 9u) ? 9u : dec - 1;      // atom.dec: wraps to the limit at 0
    int32_t h = int32_t((tid * 2654435761u) >> 8) - (1 << 23);
    mn = std::min(mn, h);
    mx = std::max(mx, h);
    orv |= 1u << (tid % 29);
    x ^= tid * 2654435761u;
  }
  CHECK(c[0] == N);
  CHECK(c[1] == N);
  CHECK(c[2] == inc);
  CHECK(c[2] == N % 100);
  CHECK(c[3] == dec);
  CHECK(int32_t(c[4]) == mn);
  CHECK(int32_t(c[5]) == mx);
  CHECK(c[6] == 0u);
  CHECK(c[7] == orv);
  CHECK(c[8] == x);
  CHECK(f[0] == float(N));
  CHECK(f[1] == float(N * (N - 1) / 2));  // integer-valued partial sums stay exact in any order
  CHECK(u64[0] == uint64_t(N) * (1ull << 33) + uint64_t(N) * (N - 1) / 2);

  // Returned old values of a contended add are each value 0..N-1 exactly once.
  std::vector<uint32_t> s = olds_add;
  std::sort(s.begin(), s.end());
  std::vector<uint32_t> seq(N);
  std::iota(seq.begin(), seq.end(), 0u);
  CHECK(s == seq);
  // Exchange: the returned values plus the final value are {0, 1, ..., N}.
  std::vector<uint32_t> e = olds_exch;
  e.push_back(c[9]);
  std::sort(e.begin(), e.end());
  std::vector<uint32_t> seq1(N + 1);
  std::iota(seq1.begin(), seq1.end(), 0u);
  CHECK(e == seq1);
}

TEST_CASE("atomic_cas_increment: lock-free increment with atomicCAS retries", "[isa][atomic]") {
  IsaFixture fx;
  fx.load_kernel("atomics");
  const uint32_t blocks = 4, bs = 256, N = blocks * bs;
  auto& d = *fx.dev;
  DevPtr pc = d.upload(zeros<uint32_t>(1)), pg = d.upload(std::vector<uint32_t>(N, 0xdeadbeefu));
  d.launch("atomic_cas_increment", Dim3(blocks), Dim3(bs), {arg(pc), arg(pg)});
  CHECK(d.download<uint32_t>(pc, 1)[0] == N);
  auto got = d.download<uint32_t>(pg, N);
  std::sort(got.begin(), got.end());
  std::vector<uint32_t> seq(N);
  std::iota(seq.begin(), seq.end(), 0u);
  CHECK(got == seq);
}

TEST_CASE("atomics_shared: add/add.f32/max/min/cas/and/or/inc on shared memory under contention", "[isa][atomic]") {
  IsaFixture fx;
  fx.load_kernel("atomics");
  const uint32_t blocks = 3, bs = 256;
  auto& d = *fx.dev;
  DevPtr po = d.upload(zeros<uint32_t>(8 * blocks));
  d.launch("atomics_shared", Dim3(blocks), Dim3(bs), {arg(po)});
  auto got = d.download<uint32_t>(po, 8 * blocks);
  for (uint32_t b = 0; b < blocks; ++b) {
    uint32_t mx = 0, orv = 0, inc = 0;
    int32_t mn = INT32_MAX;
    for (uint32_t t = 0; t < bs; ++t) {
      mx = std::max(mx, (t * 37u + b) % 251u);
      mn = std::min(mn, int32_t((t * 53u + b) % 241u) - 120);
      orv |= 1u << ((t + b) % 32);
      inc = (inc >= 15u) ? 0 : inc + 1;
    }
    float fsum = float(bs * (bs - 1) / 2 + bs * b);
    uint32_t fbits;
    std::memcpy(&fbits, &fsum, 4);
    const uint32_t* o = &got[8 * b];
    INFO("block " << b);
    CHECK(o[0] == bs);
    CHECK(o[1] == fbits);
    CHECK(o[2] == mx);
    CHECK(int32_t(o[3]) == mn);
    CHECK(o[4] == 2 * bs);
    CHECK(o[5] == 0u);
    CHECK(o[6] == orv);
    CHECK(o[7] == inc);
  }
}

// ====================================================================== warp ops

namespace {
// PTX shfl.sync with CUDA's c operand for a given width (PTX ISA shfl.sync pseudocode).
enum class Shfl { Idx, Up, Down, Bfly };
int32_t shfl_ref(const int32_t* warp_vals, uint32_t lane, Shfl mode, uint32_t b, uint32_t width) {
  uint32_t segmask = 32 - width;
  uint32_t cval = mode == Shfl::Up ? 0u : 0x1fu;
  uint32_t min_lane = lane & segmask;
  uint32_t max_lane = min_lane | (cval & ~segmask);
  int64_t j = lane;
  bool ok = false;
  switch (mode) {
    case Shfl::Idx: j = min_lane | (b & ~segmask & 31u); ok = j <= max_lane; break;
    case Shfl::Up: j = int64_t(lane) - b; ok = j >= int64_t(max_lane); break;
    case Shfl::Down: j = int64_t(lane) + b; ok = j <= max_lane; break;
    case Shfl::Bfly: j = lane ^ b; ok = j <= max_lane; break;
  }
  return warp_vals[ok ? j : lane];
}
}  // namespace

TEST_CASE("shuffles: shfl.sync idx/up/down/bfly at width 32 and 8, butterfly reduction", "[isa][warp]") {
  IsaFixture fx;
  fx.load_kernel("warp_ops");
  const int n = 64;
  std::mt19937 g(71);
  std::vector<int32_t> in(n);
  for (auto& v : in) v = int32_t(g() % 10000);
  auto& d = *fx.dev;
  DevPtr pin = d.upload(in), po = d.upload(zeros<int32_t>(11 * n));
  d.launch("shuffles", Dim3(1), Dim3(n), {arg(pin), arg(po), arg(int32_t(n))});
  auto got = d.download<int32_t>(po, 11 * n);
  std::vector<int32_t> want(11 * n);
  for (int i = 0; i < n; ++i) {
    uint32_t lane = i & 31;
    const int32_t* w = &in[i - lane];
    want[0 * n + i] = shfl_ref(w, lane, Shfl::Idx, (lane * 3 + 1) & 31, 32);
    want[1 * n + i] = shfl_ref(w, lane, Shfl::Up, 3, 32);
    want[2 * n + i] = shfl_ref(w, lane, Shfl::Down, 5, 32);
    want[3 * n + i] = shfl_ref(w, lane, Shfl::Bfly, 6, 32);
    want[4 * n + i] = shfl_ref(w, lane, Shfl::Idx, lane + 2, 8);
    want[5 * n + i] = shfl_ref(w, lane, Shfl::Up, 2, 8);
    want[6 * n + i] = shfl_ref(w, lane, Shfl::Down, 3, 8);
    want[7 * n + i] = shfl_ref(w, lane, Shfl::Bfly, 5, 8);
    want[8 * n + i] = std::accumulate(w, w + 32, 0);
    want[9 * n + i] = w[in[i] & 31] * 7;
    float f = float(shfl_ref(w, lane, Shfl::Down, 1, 32)) * 0.5f;
    std::memcpy(&want[10 * n + i], &f, 4);
  }
  // Spot checks of the CUDA semantics the reference encodes.
  CHECK(want[1 * n + 0] == in[0]);       // up: lanes below delta keep their value
  CHECK(want[2 * n + 31] == in[31]);     // down: lanes past the end keep their value
  CHECK(want[4 * n + 7] == in[1]);       // width 8: lane 7 asks lane 9 -> lane 1 of its segment
  check_soa_exact(got, want, n,
                  {"idx", "up 3", "down 5", "bfly 6", "idx w8", "up 2 w8", "down 3 w8", "bfly 5 w8", "bfly reduce",
                   "idx data-dependent", "down f32"});
}

TEST_CASE("votes: all/any/ballot, uniformity, activemask and ballot under divergence", "[isa][warp]") {
  IsaFixture fx;
  fx.load_kernel("warp_ops");
  const int n = 96;
  std::mt19937 g(72);
  std::vector<int32_t> in(n);
  for (int i = 0; i < 32; ++i) in[i] = 0x200 + int32_t(g() % 256);       // warp 0: positive, uniform bits 15..8
  for (int i = 32; i < 64; ++i) in[i] = int32_t(g() % 1001) - 300;       // warp 1: some negative
  for (int i = 64; i < 96; ++i) in[i] = int32_t(g() % 3001);             // warp 2: some > 1000
  in[70] = 2000;
  in[40] = -5;
  auto& d = *fx.dev;
  DevPtr pin = d.upload(in), po = d.upload(zeros<int32_t>(6 * n));
  d.launch("votes", Dim3(1), Dim3(n), {arg(pin), arg(po), arg(int32_t(n))});
  auto got = d.download<int32_t>(po, 6 * n);
  std::vector<int32_t> want(6 * n);
  for (int w = 0; w < n / 32; ++w) {
    const int32_t* v = &in[32 * w];
    bool all_pos = true, any_big = false, uniform = true;
    uint32_t odd = 0, neg = 0, third = 0, odd_rest = 0, two_in_odd_rest = 0;
    for (int l = 0; l < 32; ++l) {
      all_pos &= v[l] > 0;
      any_big |= v[l] > 1000;
      uniform &= (v[l] & 0xff00) == (v[0] & 0xff00);
      if (v[l] & 1) odd |= 1u << l;
      if (v[l] < 0) neg |= 1u << l;
      if (l % 3 == 0) third |= 1u << l;
      else if (v[l] & 1) {
        odd_rest |= 1u << l;
        if (v[l] & 2) two_in_odd_rest |= 1u << l;
      }
    }
    for (int l = 0; l < 32; ++l) {
      int i = 32 * w + l;
      want[0 * n + i] = all_pos;
      want[1 * n + i] = any_big;
      want[2 * n + i] = int32_t(odd);
      want[3 * n + i] = uniform;
      want[4 * n + i] = l % 3 == 0 ? int32_t(third) : (v[l] & 1) ? int32_t(two_in_odd_rest) : 0;
      want[5 * n + i] = __builtin_popcount(neg);
    }
    (void)odd_rest;
  }
  // __all_sync/__any_sync return non-zero for true; normalise to 0/1.
  for (int i = 0; i < 2 * n; ++i) got[i] = got[i] != 0;
  for (int i = 3 * n; i < 4 * n; ++i) got[i] = got[i] != 0;
  check_soa_exact(got, want, n, {"vote.all", "vote.any", "vote.ballot", "uniformity (all of shfl)", "activemask/ballot in branch",
                                 "popc(ballot)"});
}

TEST_CASE("votes_partial: the second warp of a 48-thread block has 16 active lanes", "[isa][warp]") {
  IsaFixture fx;
  fx.load_kernel("warp_ops");
  const int n = 48;
  std::mt19937 g(73);
  std::vector<int32_t> in(n);
  for (auto& v : in) v = int32_t(g());
  auto& d = *fx.dev;
  DevPtr pin = d.upload(in), po = d.upload(zeros<int32_t>(2 * n));
  d.launch("votes_partial", Dim3(1), Dim3(n), {arg(pin), arg(po)});
  auto got = d.download<int32_t>(po, 2 * n);
  std::vector<int32_t> want(2 * n);
  for (int i = 0; i < n; ++i) {
    int w = i / 32, count = std::min(32, n - 32 * w);
    uint32_t ballot = 0;
    for (int l = 0; l < count; ++l)
      if (in[32 * w + l] & 1) ballot |= 1u << l;
    want[2 * i] = int32_t(lanes_mask(count));
    want[2 * i + 1] = int32_t(ballot);
  }
  check_soa_exact(got, want, 2 * n, {"activemask, ballot (interleaved)"});
}

// ====================================================================== divergence

namespace {
int divergence_ref(int x, int lane) {
  int acc = 0;
  if (lane & 1) {
    if (lane & 2) acc += x * 3;
    else acc -= x;
  } else {
    if (x & 4) acc ^= 0x55;
    acc += 7;
  }
  for (int k = 0; k < (x & 15); ++k) {
    if ((k ^ x) & 1) continue;
    if (acc > 300) break;
    acc += k * (x & 7) + 1;
  }
  int y = x & 0xff;
  while (y > 1) {
    if (y & 1) y = 3 * y + 1;
    else y >>= 1;
    acc += 1;
    if (acc > 2000) break;
  }
  if (lane > 20) return acc * 2;
  if ((x >> 8) & 1) acc = -acc;
  return acc;
}
}  // namespace

TEST_CASE("divergence: nested ifs, data-dependent loops with break/continue, early returns", "[isa][control]") {
  IsaFixture fx;
  fx.load_kernel("divergence");
  const int n = 200, bs = 64, grid = 4;
  const int32_t sentinel = 0x7f7f7f7f;
  std::mt19937 g(81);
  std::vector<int32_t> in(n);
  for (auto& v : in) v = int32_t(g() % 4096);
  in[0] = 0; in[1] = 255; in[2] = 27; in[3] = 4095;
  auto& d = *fx.dev;
  DevPtr pin = d.upload(in), po = d.upload(std::vector<int32_t>(grid * bs, sentinel));
  d.launch("divergence", Dim3(grid), Dim3(bs), {arg(pin), arg(po), arg(int32_t(n))});
  auto got = d.download<int32_t>(po, grid * bs);
  std::vector<int32_t> want(grid * bs, sentinel);
  for (int i = 0; i < n; ++i) want[i] = divergence_ref(in[i], (i % bs) & 31);
  check_soa_exact(got, want, grid * bs, {"divergent control flow (past n: untouched)"});
}

TEST_CASE("reconverge: a full-warp ballot after a divergent loop sees every lane", "[isa][control]") {
  IsaFixture fx;
  fx.load_kernel("divergence");
  const int bs = 64, grid = 2, n = bs * grid;
  std::mt19937 g(82);
  std::vector<int32_t> in(n);
  for (auto& v : in) v = int32_t(g() % 1024);
  auto& d = *fx.dev;
  DevPtr pin = d.upload(in), po = d.upload(zeros<int32_t>(2 * n));
  d.launch("reconverge", Dim3(grid), Dim3(bs), {arg(pin), arg(po)});
  auto got = d.download<int32_t>(po, 2 * n);
  std::vector<int32_t> acc(n), want(2 * n);
  for (int i = 0; i < n; ++i) {
    int x = in[i], a = 0;
    for (int k = 0; k < (x & 31); ++k) {
      if (k == ((x >> 5) & 31)) break;
      a += k;
    }
    acc[i] = a;
  }
  for (int i = 0; i < n; ++i) {
    uint32_t b = 0;
    int base = i & ~31;
    for (int l = 0; l < 32; ++l)
      if (acc[base + l] & 1) b |= 1u << l;
    want[2 * i] = acc[i];
    want[2 * i + 1] = int32_t(b);
  }
  check_soa_exact(got, want, 2 * n, {"acc, ballot (interleaved)"});
}

// ====================================================================== barriers

TEST_CASE("barrier_loop: __syncthreads in a loop exchanges data between 8 warps", "[isa][barrier]") {
  IsaFixture fx;
  fx.load_kernel("barriers");
  const int bs = 256, grid = 2, rounds = 5;
  std::mt19937 g(91);
  std::vector<int32_t> in(bs * grid);
  for (auto& v : in) v = int32_t(g() % 100000);
  auto& d = *fx.dev;
  DevPtr pin = d.upload(in), po = d.upload(zeros<int32_t>(bs * grid));
  d.launch("barrier_loop", Dim3(grid), Dim3(bs), {arg(pin), arg(po), arg(int32_t(rounds))});
  auto got = d.download<int32_t>(po, bs * grid);
  std::vector<int32_t> want(bs * grid);
  for (int b = 0; b < grid; ++b) {
    std::vector<int32_t> v(in.begin() + b * bs, in.begin() + (b + 1) * bs), s(bs);
    for (int r = 0; r < rounds; ++r) {
      s = v;
      for (int t = 0; t < bs; ++t) v[t] = s[(t + 37 * r + 1) & 255] + r;
    }
    std::copy(v.begin(), v.end(), want.begin() + b * bs);
  }
  check_soa_exact(got, want, bs * grid, {"exchange through shared memory"});
}

TEST_CASE("barrier_reduce: shared-memory tree reduction per block", "[isa][barrier]") {
  IsaFixture fx;
  fx.load_kernel("barriers");
  const int bs = 256, grid = 3;
  std::mt19937 g(92);
  std::vector<int32_t> in(bs * grid);
  for (auto& v : in) v = int32_t(g() % 20001) - 10000;
  auto& d = *fx.dev;
  DevPtr pin = d.upload(in), po = d.upload(zeros<int32_t>(grid));
  d.launch("barrier_reduce", Dim3(grid), Dim3(bs), {arg(pin), arg(po)});
  auto got = d.download<int32_t>(po, grid);
  std::vector<int32_t> want(grid);
  for (int b = 0; b < grid; ++b) want[b] = std::accumulate(in.begin() + b * bs, in.begin() + (b + 1) * bs, 0);
  check_soa_exact(got, want, grid, {"block sum"});
}

TEST_CASE("barrier_count: bar.red.popc/and/or (__syncthreads_count/_and/_or)", "[isa][barrier]") {
  IsaFixture fx;
  fx.load_kernel("barriers");
  const int bs = 256, grid = 2;
  std::mt19937 g(93);
  std::vector<int32_t> in(bs * grid);
  for (int i = 0; i < bs; ++i) in[i] = int32_t(g() % 201) - 100;             // block 0: and false, or true
  for (int i = bs; i < 2 * bs; ++i) in[i] = int32_t(g() % 130) - 40;         // block 1: and true, or false
  in[5] = 95;
  in[6] = -99;
  auto& d = *fx.dev;
  DevPtr pin = d.upload(in), po = d.upload(zeros<int32_t>(3 * grid));
  d.launch("barrier_count", Dim3(grid), Dim3(bs), {arg(pin), arg(po)});
  auto got = d.download<int32_t>(po, 3 * grid);
  for (int b = 0; b < grid; ++b) {
    int cnt = 0;
    bool all = true, any = false;
    for (int t = 0; t < bs; ++t) {
      int v = in[b * bs + t];
      cnt += v > 0;
      all &= v > -50;
      any |= v > 90;
    }
    INFO("block " << b);
    CHECK(got[3 * b + 0] == cnt);
    CHECK((got[3 * b + 1] != 0) == all);
    CHECK((got[3 * b + 2] != 0) == any);
  }
  CHECK((got[1] != 0) == false);
  CHECK((got[4] != 0) == true);
}

// ====================================================================== special registers

TEST_CASE("sregs: laneid, warpid/nwarpid, smid/nsmid, clocks, lanemasks, tid/ntid", "[isa][sreg]") {
  IsaFixture fx(IsaFixture::Settings{{"gpu.num_sms", "4"}});
  fx.load_kernel("special_regs");
  const int bs = 96, grid = 2, n = bs * grid;
  auto& d = *fx.dev;
  DevPtr po = d.upload(std::vector<int32_t>(14 * n, -7));
  d.launch("sregs", Dim3(grid), Dim3(bs), {arg(po), arg(int32_t(n)), arg(int32_t(50))});
  auto o = d.download<int32_t>(po, 14 * n);
  auto at = [&](int k, int i) { return o[k * n + i]; };
  // Each property counted over all threads; one CHECK per property.
  const char* names[] = {"laneid == tid % 32", "warpid < nwarpid", "warpid uniform in a warp", "smid < nsmid",
                         "smid < gpu.num_sms (4)", "clock64 non-decreasing", "clock delta >= 0", "lanemask_eq",
                         "lanemask_lt", "lanemask_le", "lanemask_gt", "lanemask_ge", "tid.x", "ntid.x"};
  const int props = 14;
  std::vector<int> bad(props, 0), first(props, -1);
  for (int i = 0; i < n; ++i) {
    int t = i % bs;
    uint32_t lane = uint32_t(t % 32);
    bool ok[props] = {
        at(0, i) == int32_t(lane),
        uint32_t(at(1, i)) < uint32_t(at(2, i)),
        at(1, i) == at(1, i - int(lane)),
        uint32_t(at(3, i)) < uint32_t(at(4, i)),
        uint32_t(at(3, i)) < 4u,
        at(5, i) == 1,
        at(6, i) >= 0,
        uint32_t(at(7, i)) == (1u << lane),
        uint32_t(at(8, i)) == (1u << lane) - 1u,
        uint32_t(at(9, i)) == lanes_mask(int(lane) + 1),
        uint32_t(at(10, i)) == ~lanes_mask(int(lane) + 1),
        uint32_t(at(11, i)) == ~((1u << lane) - 1u),
        at(12, i) == t,
        at(13, i) == bs,
    };
    for (int k = 0; k < props; ++k)
      if (!ok[k] && bad[k]++ == 0) first[k] = i;
  }
  for (int k = 0; k < props; ++k) {
    INFO(names[k] << ": " << bad[k] << " of " << n << " threads wrong; first thread " << first[k]);
    CHECK(bad[k] == 0);
  }
}

// ====================================================================== calls

TEST_CASE("calls: non-inlined device functions, nested, with pointer and float arguments", "[isa][call]") {
  IsaFixture fx;
  fx.load_kernel("calls");
  const std::string ptx = kernel_ptx("calls");
  REQUIRE(ptx.find(".func") != std::string::npos);
  REQUIRE(ptx.find("call") != std::string::npos);
  const int n = 100, bs = 64, grid = 2;
  std::mt19937 g(101);
  std::vector<int32_t> in(n);
  for (auto& v : in) v = int32_t(g() % 2001) - 1000;
  auto& d = *fx.dev;
  DevPtr pin = d.upload(in), po = d.upload(zeros<int32_t>(n)), ps = d.upload(zeros<int32_t>(n)),
         pf = d.upload(zeros<float>(n));
  d.launch("calls", Dim3(grid), Dim3(bs), {arg(pin), arg(po), arg(ps), arg(pf), arg(int32_t(n))});
  auto got = d.download<int32_t>(po, n), side = d.download<int32_t>(ps, n);
  auto fout = d.download<float>(pf, n);
  auto leaf_mad = [](int a, int b) { return a * b + 3; };
  auto middle = [&](int x) { return leaf_mad(x, x + 1) - leaf_mad(x - 1, 2); };
  std::vector<int32_t> wr(n), ws(n);
  std::vector<float> wf(n);
  for (int i = 0; i < n; ++i) {
    int x = in[i];
    if (x & 1) {
      wr[i] = middle(x) + middle(x >> 1);
      ws[i] = wr[i] ^ 0x1234;
    } else {
      wr[i] = middle(x) * 2;
      ws[i] = -1;
    }
    wf[i] = std::fma(float(x), float((i % bs) & 7), 0.5f);
  }
  check_soa_exact(got, wr, n, {"return value"});
  check_soa_exact(side, ws, n, {"store through pointer argument"});
  check_soa_exact(fout, wf, n, {"float argument and return"});
}

// ====================================================================== dynamic shared, 3-D

TEST_CASE("dyn_smem: extern __shared__ sized at launch, next to a static shared array", "[isa][mem]") {
  IsaFixture fx;
  fx.load_kernel("dyn_smem");
  const int bs = 128, grid = 2, n = bs * grid;
  std::mt19937 g(111);
  std::vector<int32_t> in(n);
  for (auto& v : in) v = int32_t(g() % 100001) - 50000;
  auto& d = *fx.dev;
  DevPtr pin = d.upload(in), po = d.upload(zeros<int32_t>(n)), pf = d.upload(zeros<float>(n));
  d.launch("dyn_smem", Dim3(grid), Dim3(bs), {arg(pin), arg(po), arg(pf)}, 2 * bs * sizeof(int32_t));
  auto got = d.download<int32_t>(po, n);
  auto fgot = d.download<float>(pf, n);
  std::vector<int32_t> want(n);
  std::vector<float> fwant(n);
  for (int i = 0; i < n; ++i) {
    int t = i % bs, base = i - t;
    want[i] = in[base + bs - 1 - t] + 1 + (t & 31) * 100;
    fwant[i] = float(in[base + (t + 1) % bs]) * 0.25f;
  }
  check_soa_exact(got, want, n, {"dynamic ints + static"});
  check_soa_exact(fgot, fwant, n, {"dynamic floats"});
}

TEST_CASE("grid3d: %tid/%ntid/%ctaid/%nctaid in x, y and z", "[isa][sreg]") {
  IsaFixture fx;
  fx.load_kernel("grid3d");
  const Dim3 grid(3, 2, 2), block(4, 3, 2);
  const uint64_t total = grid.count() * block.count();
  auto& d = *fx.dev;
  DevPtr po = d.upload(std::vector<uint32_t>(12 * total, 0xffffffffu));
  d.launch("grid3d", grid, block, {arg(po)});
  auto got = d.download<uint32_t>(po, 12 * total);
  std::vector<uint32_t> want(12 * total);
  for (uint32_t bz = 0; bz < grid.z; ++bz)
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx)
        for (uint32_t tz = 0; tz < block.z; ++tz)
          for (uint32_t ty = 0; ty < block.y; ++ty)
            for (uint32_t tx = 0; tx < block.x; ++tx) {
              uint64_t bl = (bz * grid.y + by) * grid.x + bx, tl = (tz * block.y + ty) * block.x + tx;
              uint32_t* w = &want[12 * (bl * block.count() + tl)];
              uint32_t vals[12] = {tx, ty, tz, block.x, block.y, block.z, bx, by, bz, grid.x, grid.y, grid.z};
              std::copy(vals, vals + 12, w);
            }
  check_soa_exact(got, want, 12 * total, {"index registers"});
}

// ====================================================================== hand-written PTX

namespace {

// A minimal valid module: c[i] += 1 for i < n.
const char* kAddOne = R"PTX(.version 9.0
.target sm_75
.address_size 64

.visible .entry add_one(
	.param .u64 add_one_param_0,
	.param .u32 add_one_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [add_one_param_0];
	ld.param.u32 	%r2, [add_one_param_1];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.u32 	%r6, [%rd4];
	add.s32 	%r7, %r6, 1;
	st.global.u32 	[%rd4], %r7;
$L__BB0_2:
	ret;
}
)PTX";

// probe(in, out, off): every thread reads the word at `in`, except block 2's
// thread 37, which reads at `in + off` (bytes); out[global tid] = the value.
const char* kProbe = R"PTX(.version 9.0
.target sm_75
.address_size 64

.visible .entry probe(
	.param .u64 probe_param_0,
	.param .u64 probe_param_1,
	.param .u64 probe_param_2
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<12>;

	ld.param.u64 	%rd1, [probe_param_0];
	ld.param.u64 	%rd2, [probe_param_1];
	ld.param.u64 	%rd3, [probe_param_2];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %tid.x;
	setp.eq.u32 	%p1, %r1, 2;
	setp.eq.u32 	%p2, %r2, 37;
	and.pred 	%p3, %p1, %p2;
	selp.b64 	%rd4, %rd3, 0, %p3;
	cvta.to.global.u64 	%rd5, %rd1;
	add.s64 	%rd6, %rd5, %rd4;
	ld.global.u32 	%r3, [%rd6];
	mov.u32 	%r4, %ntid.x;
	mad.lo.s32 	%r5, %r1, %r4, %r2;
	cvta.to.global.u64 	%rd7, %rd2;
	mul.wide.u32 	%rd8, %r5, 4;
	add.s64 	%rd9, %rd7, %rd8;
	st.global.u32 	[%rd9], %r3;
	ret;
}
)PTX";

// smem_probe(out, off): 64 bytes of static shared memory; thread t stores t at
// word t, then reads the word at byte 4t + off.
const char* kSmemProbe = R"PTX(.version 9.0
.target sm_75
.address_size 64

.visible .entry smem_probe(
	.param .u64 smem_probe_param_0,
	.param .u32 smem_probe_param_1
)
{
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<5>;
	.shared .align 4 .b8 sbuf[64];

	ld.param.u64 	%rd1, [smem_probe_param_0];
	ld.param.u32 	%r1, [smem_probe_param_1];
	mov.u32 	%r2, %tid.x;
	shl.b32 	%r3, %r2, 2;
	mov.u32 	%r4, sbuf;
	add.s32 	%r5, %r4, %r3;
	st.shared.u32 	[%r5], %r2;
	bar.sync 	0;
	add.s32 	%r6, %r5, %r1;
	ld.shared.u32 	%r7, [%r6];
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r7;
	ret;
}
)PTX";

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  size_t pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  text.replace(pos, from.size(), to);
  return text;
}

// Load `text` as `origin`, expect InputError naming origin:line (or one of
// `lines`), and return the message.
std::string expect_ptx_error(const std::string& text, const std::string& origin, std::vector<int> lines) {
  IsaFixture fx;
  std::string msg = input_error_of([&] { fx.dev->load_ptx(text, origin); });
  INFO("message: " << msg);
  bool named = false;
  for (int l : lines) named = named || names_file_line(msg, origin, l);
  CHECK(named);
  return msg;
}

}  // namespace

TEST_CASE("hand-written PTX: a valid module runs, twice, and launches are counted", "[isa][ptx]") {
  IsaFixture fx;
  fx.dev->load_ptx(kAddOne, "add_one.ptx");
  REQUIRE(fx.gpu->find_kernel("add_one") != nullptr);
  const int n = 100;
  std::vector<int32_t> v(128);
  std::iota(v.begin(), v.end(), -50);
  auto& d = *fx.dev;
  DevPtr p = d.upload(v);
  d.launch("add_one", Dim3(2), Dim3(64), {arg(p), arg(int32_t(n))});
  d.launch("add_one", Dim3(2), Dim3(64), {arg(p), arg(int32_t(n))});
  auto got = d.download<int32_t>(p, 128);
  for (int i = 0; i < 128; ++i) {
    INFO("i=" << i);
    CHECK(got[i] == v[i] + (i < n ? 2 : 0));
  }
  const auto& l = fx.gpu->launches();
  REQUIRE(l.size() == 2);
  CHECK(l[0].kernel.find("add_one") != std::string::npos);
  CHECK(l[0].thread_instructions > 0);
  CHECK(l[0].warp_instructions > 0);
  CHECK(l[0].thread_instructions <= 32 * l[0].warp_instructions);
  CHECK(l[0].thread_instructions == l[1].thread_instructions);  // deterministic
}

TEST_CASE("hand-written PTX: a mangled entry is launched by its unmangled base name", "[isa][ptx]") {
  IsaFixture fx;
  std::string text = kAddOne;
  for (size_t pos; (pos = text.find("add_one")) != std::string::npos;) text.replace(pos, 7, "_Z7add_twoPii");
  fx.dev->load_ptx(text, "mangled.ptx");
  std::vector<int32_t> v(64, 5);
  DevPtr p = fx.dev->upload(v);
  fx.dev->launch("add_two", Dim3(1), Dim3(64), {arg(p), arg(int32_t(64))});
  auto got = fx.dev->download<int32_t>(p, 64);
  CHECK(std::all_of(got.begin(), got.end(), [](int32_t x) { return x == 6; }));
}

TEST_CASE("hand-written PTX: ld.global.nc is marked non-coherent and a plain load is not", "[isa][ptx]") {
  // The L1 keeps .nc loads where global loads bypass it (l1d.global_loads: bypass, GPGPU-Sim's CACHE_L1).
  IsaFixture fx;
  std::string text = replace_once(kAddOne, "ld.global.u32 \t%r6, [%rd4];", "ld.global.nc.u32 \t%r6, [%rd4];\n\tld.global.u32 \t%r0, [%rd4];");
  text = replace_once(text, ".reg .b32 \t%r<8>;", ".reg .b32 \t%r<9>;");
  fx.dev->load_ptx(text, "nc.ptx");
  const KernelInfo* k = fx.gpu->find_kernel("add_one");
  REQUIRE(k != nullptr);
  int nc = 0, plain = 0;
  for (const Instr& in : k->prog)
    if (in.op == Op::Ld && in.space == Space::Global) ((in.flags & F_NC) ? nc : plain)++;
  CHECK(nc == 1);
  CHECK(plain == 1);
  std::vector<int32_t> v(64, 5);  // and it still runs
  DevPtr p = fx.dev->upload(v);
  fx.dev->launch("add_one", Dim3(1), Dim3(64), {arg(p), arg(int32_t(64))});
  auto got = fx.dev->download<int32_t>(p, 64);
  CHECK(std::all_of(got.begin(), got.end(), [](int32_t x) { return x == 6; }));
}

TEST_CASE("malformed PTX: missing semicolon names the file and line", "[isa][ptx][error]") {
  std::string text = replace_once(kAddOne, "add.s32 \t%r7, %r6, 1;", "add.s32 \t%r7, %r6, 1");
  int line = line_of(text, "add.s32 \t%r7, %r6, 1");
  REQUIRE(line > 0);
  // The statement's own line, or the next one where the parser meets the next token.
  expect_ptx_error(text, "semi.ptx", {line, line + 1});
}

TEST_CASE("malformed PTX: unknown directive names the file and line", "[isa][ptx][error]") {
  std::string text = replace_once(kAddOne, ".address_size 64\n", ".address_size 64\n.frobnicate 12;\n");
  int line = line_of(text, ".frobnicate");
  std::string msg = expect_ptx_error(text, "directive.ptx", {line});
  CHECK(msg.find("frobnicate") != std::string::npos);
}

TEST_CASE("malformed PTX: garbage in a body names the file and line", "[isa][ptx][error]") {
  std::string text = replace_once(kAddOne, "\tret;\n", "\t@@ ?? garbage !!\n\tret;\n");
  expect_ptx_error(text, "garbage.ptx", {line_of(text, "@@ ??")});
}

TEST_CASE("malformed PTX: unknown opcode names the line and the opcode", "[isa][ptx][error]") {
  std::string text = replace_once(kAddOne, "\tadd.s32 \t%r7", "\tfrob.u32 \t%r7, %r6;\n\tadd.s32 \t%r7");
  std::string msg = expect_ptx_error(text, "frob.ptx", {line_of(text, "frob.u32")});
  CHECK(msg.find("frob") != std::string::npos);
}

TEST_CASE("unsupported PTX: tex.2d names the line and the opcode", "[isa][ptx][error]") {
  std::string text = replace_once(kAddOne, "\t.reg .b64 \t%rd<5>;\n",
                                  "\t.reg .b64 \t%rd<5>;\n\t.reg .f32 \t%f<8>;\n");
  text = replace_once(text, "\tret;\n", "\ttex.2d.v4.f32.f32 \t{%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];\n\tret;\n");
  std::string msg = expect_ptx_error(text, "tex.ptx", {line_of(text, "tex.2d")});
  CHECK(msg.find("tex") != std::string::npos);
}

TEST_CASE("unsupported PTX: mma.sync names the line and the opcode", "[isa][ptx][error]") {
  std::string text = replace_once(kAddOne, "\t.reg .b64 \t%rd<5>;\n",
                                  "\t.reg .b64 \t%rd<5>;\n\t.reg .f32 \t%f<8>;\n");
  text = replace_once(text, "\tret;\n",
                      "\tmma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 \t{%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3}, "
                      "{%f1, %f2, %f3, %f4};\n\tret;\n");
  std::string msg = expect_ptx_error(text, "mma.ptx", {line_of(text, "mma.sync")});
  CHECK(msg.find("mma") != std::string::npos);
}

TEST_CASE("malformed PTX: branch to an undefined label", "[isa][ptx][error]") {
  std::string text = replace_once(kAddOne, "@%p1 bra \t$L__BB0_2;", "@%p1 bra \t$L__nowhere;");
  std::string msg = expect_ptx_error(text, "label.ptx", {line_of(text, "$L__nowhere")});
  CHECK(msg.find("L__nowhere") != std::string::npos);
}

TEST_CASE("fault: global read past the end of a 16-element allocation", "[isa][fault]") {
  IsaFixture fx;
  fx.dev->load_ptx(kProbe, "probe.ptx");
  std::vector<int32_t> in(16);
  std::iota(in.begin(), in.end(), 100);
  auto& d = *fx.dev;
  DevPtr pin = d.upload(in), po = d.upload(zeros<int32_t>(3 * 64));
  // In bounds first: the last element.
  d.launch("probe", Dim3(3), Dim3(64), {arg(pin), arg(po), arg(uint64_t(15 * 4))});
  auto got = d.download<int32_t>(po, 3 * 64);
  CHECK(got[2 * 64 + 37] == 115);
  CHECK(got[0] == 100);
  // One past the end.
  std::string msg = run_error_of([&] { d.launch("probe", Dim3(3), Dim3(64), {arg(pin), arg(po), arg(uint64_t(16 * 4))}); });
  INFO("message: " << msg);
  CHECK(lower(msg).find("kernel") != std::string::npos);
  CHECK(msg.find("probe") != std::string::npos);
  CHECK(names_block_thread(msg, 2, 0, 0, 37, 0, 0));
  CHECK(lower(msg).find("pc") != std::string::npos);
  CHECK(names_file_line(msg, "probe.ptx", line_of(kProbe, "ld.global.u32")));
  CHECK(mentions_address(msg, pin + 64));
}

TEST_CASE("fault: global read from an unmapped address (0x10)", "[isa][fault]") {
  IsaFixture fx;
  fx.dev->load_ptx(kProbe, "probe.ptx");
  auto& d = *fx.dev;
  DevPtr po = d.upload(zeros<int32_t>(64));
  std::string msg = run_error_of([&] { d.launch("probe", Dim3(1), Dim3(1), {arg(uint64_t(0x10)), arg(po), arg(uint64_t(0))}); });
  INFO("message: " << msg);
  CHECK(lower(msg).find("kernel") != std::string::npos);
  CHECK(names_block_thread(msg, 0, 0, 0, 0, 0, 0));
  CHECK(lower(msg).find("pc") != std::string::npos);
  CHECK(names_file_line(msg, "probe.ptx", line_of(kProbe, "ld.global.u32")));
  CHECK(mentions_address(msg, 0x10));
}

TEST_CASE("fault: misaligned 4-byte global load (address + 2)", "[isa][fault]") {
  IsaFixture fx;
  fx.dev->load_ptx(kProbe, "probe.ptx");
  auto& d = *fx.dev;
  DevPtr pin = d.upload(std::vector<int32_t>(16, 1)), po = d.upload(zeros<int32_t>(3 * 64));
  std::string msg = run_error_of([&] { d.launch("probe", Dim3(3), Dim3(64), {arg(pin), arg(po), arg(uint64_t(2))}); });
  INFO("message: " << msg);
  CHECK(lower(msg).find("kernel") != std::string::npos);
  CHECK(names_block_thread(msg, 2, 0, 0, 37, 0, 0));
  CHECK(lower(msg).find("pc") != std::string::npos);
  CHECK(names_file_line(msg, "probe.ptx", line_of(kProbe, "ld.global.u32")));
  CHECK(mentions_address(msg, pin + 2));
}

TEST_CASE("fault: shared-memory read past the static shared size", "[isa][fault]") {
  IsaFixture fx;
  fx.dev->load_ptx(kSmemProbe, "smem.ptx");
  auto& d = *fx.dev;
  DevPtr po = d.upload(zeros<int32_t>(16));
  d.launch("smem_probe", Dim3(1), Dim3(16), {arg(po), arg(uint32_t(0))});  // in bounds
  auto got = d.download<int32_t>(po, 16);
  for (int t = 0; t < 16; ++t) CHECK(got[t] == t);
  // off = 4: thread 15 reads bytes 64..67 of a 64-byte array.
  std::string msg = run_error_of([&] { d.launch("smem_probe", Dim3(1), Dim3(16), {arg(po), arg(uint32_t(4))}); });
  INFO("message: " << msg);
  CHECK(lower(msg).find("kernel") != std::string::npos);
  CHECK(names_block_thread(msg, 0, 0, 0, 15, 0, 0));
  CHECK(lower(msg).find("pc") != std::string::npos);
  CHECK(names_file_line(msg, "smem.ptx", line_of(kSmemProbe, "ld.shared.u32")));
  CHECK(lower(msg).find("0x") != std::string::npos);
}

TEST_CASE("launch errors: wrong argument count, wrong argument size, unknown kernel", "[isa][error]") {
  IsaFixture fx;
  fx.dev->load_ptx(kProbe, "probe.ptx");
  auto& d = *fx.dev;
  DevPtr pin = d.upload(std::vector<int32_t>(16, 1)), po = d.upload(zeros<int32_t>(64));
  std::string few = input_error_of([&] { d.launch("probe", Dim3(1), Dim3(1), {arg(pin), arg(po)}); });
  CHECK(few.find("probe") != std::string::npos);
  std::string size = input_error_of([&] { d.launch("probe", Dim3(1), Dim3(1), {arg(pin), arg(po), arg(uint32_t(0))}); });
  CHECK(size.find("probe") != std::string::npos);
  std::string many = input_error_of(
      [&] { d.launch("probe", Dim3(1), Dim3(1), {arg(pin), arg(po), arg(uint64_t(0)), arg(uint64_t(0))}); });
  CHECK(!many.empty());
  std::string unknown = input_error_of([&] { d.launch("no_such_kernel", Dim3(1), Dim3(1), {}); });
  CHECK(unknown.find("no_such_kernel") != std::string::npos);
  // The device is still usable after rejected launches.
  d.launch("probe", Dim3(1), Dim3(1), {arg(pin), arg(po), arg(uint64_t(0))});
  CHECK(d.download<int32_t>(po, 1)[0] == 1);
}
