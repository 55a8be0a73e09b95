// Shared by the ISA tests (test_isa.cpp, test_ptx_opcodes.cpp): bit views of
// floats, reference semantics of PTX operations both files check, and the
// structure-of-arrays comparison that reports one CHECK per PTX operation.
#pragma once
#include <catch2/catch.hpp>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace warptlm_test {

inline uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bitsf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint64_t dbits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
inline double bitsd(uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

// A value as a failure message shows it: decimal and its bits in hex.
template <class T>
std::string show(const T& v) {
  std::ostringstream s;
  if constexpr (std::is_floating_point<T>::value) {
    s << std::setprecision(17) << v << " [0x" << std::hex;
    if constexpr (sizeof(T) == 4) s << fbits(v);
    else s << dbits(v);
    s << "]";
  } else {
    s << +v << " (0x" << std::hex << uint64_t(std::make_unsigned_t<T>(v)) << ")";
  }
  return s.str();
}

// Bit-exact equality, with any NaN equal to any NaN.
template <class T>
bool same(const T& a, const T& b) {
  if constexpr (std::is_floating_point<T>::value) {
    if (std::isnan(a) && std::isnan(b)) return true;
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  } else {
    return a == b;
  }
}

// Structure-of-arrays results: op k of element i at [k * n + i]. One CHECK per
// op, naming the PTX operation and its first wrong elements.
template <class T, class Eq>
void check_soa(const std::vector<T>& got, const std::vector<T>& want, size_t n, const std::vector<std::string>& ops,
               Eq eq) {
  REQUIRE(want.size() == n * ops.size());
  REQUIRE(got.size() == want.size());
  for (size_t k = 0; k < ops.size(); ++k) {
    size_t bad = 0;
    std::string first;
    for (size_t i = 0; i < n; ++i) {
      if (!eq(got[k * n + i], want[k * n + i], k, i)) {
        if (bad < 3)
          first += "\n  i=" + std::to_string(i) + ": got " + show(got[k * n + i]) + ", want " + show(want[k * n + i]);
        ++bad;
      }
    }
    INFO("PTX `" << ops[k] << "`: " << bad << " of " << n << " wrong" << first);
    CHECK(bad == 0);
  }
}

template <class T>
void check_soa_exact(const std::vector<T>& got, const std::vector<T>& want, size_t n,
                     const std::vector<std::string>& ops) {
  check_soa(got, want, n, ops, [](const T& a, const T& b, size_t, size_t) { return same(a, b); });
}

// PTX float-to-integer conversion of an already rounded value: saturating;
// NaN gives 0 for 32-bit destinations.
inline int32_t sat_s32(double r) {
  if (std::isnan(r)) return 0;
  if (r >= 2147483648.0) return INT32_MAX;
  if (r < -2147483648.0) return INT32_MIN;
  return int32_t(r);
}

// prmt default mode: bytes {b, a} numbered 0..7 (a's low byte is 0); selector
// nibble i of c[15:0] picks byte (n & 7) for result byte i; if n & 8 the byte's
// sign bit is replicated over the whole result byte instead.
inline uint32_t prmt_ref(uint32_t a, uint32_t b, uint32_t c) {
  uint64_t src = (uint64_t(b) << 32) | a;
  uint32_t d = 0;
  for (int i = 0; i < 4; ++i) {
    uint32_t n = (c >> (4 * i)) & 0xf;
    uint32_t byte = uint32_t(src >> (8 * (n & 7))) & 0xff;
    if (n & 8) byte = (byte & 0x80) ? 0xff : 0x00;
    d |= byte << (8 * i);
  }
  return d;
}

}  // namespace warptlm_test
