// AES-128 (FIPS-197) on the CPU for the AES workloads: the S-box and its
// inverse built from GF(2^8) (sec. 5.1.1), the encryption T-tables and the
// equivalent inverse cipher's tables (sec. 5.3.5), the key expansion (sec.
// 5.2) and both ciphers' rounds, the same rounds as the kernels run; and the
// seeded input and the launch both AES drivers share.
#pragma once
#include <array>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <vector>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm::wl {

struct Aes {
  std::array<uint32_t, 256> sbox{}, t0{}, t1{}, t2{}, t3{};   // the cipher's
  std::array<uint32_t, 256> isbox{}, d0{}, d1{}, d2{}, d3{};  // the equivalent inverse cipher's (sec. 5.3.5)

  static uint8_t xtime(uint8_t a) { return uint8_t((a << 1) ^ ((a & 0x80) ? 0x1b : 0)); }
  static uint8_t mul(uint8_t a, uint8_t b) {
    uint8_t p = 0;
    for (; b; b >>= 1, a = xtime(a))
      if (b & 1) p ^= a;
    return p;
  }
  static uint32_t rotr(uint32_t x, int n) { return n ? (x >> n) | (x << (32 - n)) : x; }

  Aes() {
    for (int x = 0; x < 256; ++x) {
      uint8_t inv = 0;  // multiplicative inverse (0 for 0)
      for (int y = 1; y < 256 && x; ++y)
        if (mul(uint8_t(x), uint8_t(y)) == 1) inv = uint8_t(y);
      uint8_t s = inv;
      for (int k = 1; k < 5; ++k) s ^= uint8_t((inv << k) | (inv >> (8 - k)));
      sbox[x] = uint8_t(s ^ 0x63);
    }
    for (int x = 0; x < 256; ++x) {
      const uint8_t s = uint8_t(sbox[x]);
      t0[x] = uint32_t(mul(s, 2)) << 24 | uint32_t(s) << 16 | uint32_t(s) << 8 | mul(s, 3);
      t1[x] = rotr(t0[x], 8);
      t2[x] = rotr(t0[x], 16);
      t3[x] = rotr(t0[x], 24);
    }
    for (int x = 0; x < 256; ++x) isbox[sbox[x]] = uint32_t(x);
    for (int x = 0; x < 256; ++x) {
      d0[x] = inv_mix(isbox[x]);
      d1[x] = rotr(d0[x], 8);
      d2[x] = rotr(d0[x], 16);
      d3[x] = rotr(d0[x], 24);
    }
  }

  // InvMixColumns of one column holding byte b in its top row only (a Td0 entry), or of a whole word.
  static uint32_t inv_mix(uint32_t b) {
    return uint32_t(mul(uint8_t(b), 0x0e)) << 24 | uint32_t(mul(uint8_t(b), 0x09)) << 16 |
           uint32_t(mul(uint8_t(b), 0x0d)) << 8 | mul(uint8_t(b), 0x0b);
  }
  static uint32_t inv_mix_word(uint32_t w) {
    uint32_t r = 0;
    for (int k = 0; k < 4; ++k) r ^= rotr(inv_mix((w >> (24 - 8 * k)) & 255), 8 * k);
    return r;
  }

  // The decryption key schedule of the equivalent inverse cipher (sec. 5.3.5):
  // the round keys in reverse order, InvMixColumns applied to rounds 1 .. 9.
  std::array<uint32_t, 44> inverse_keys(const std::array<uint32_t, 44>& rk) const {
    std::array<uint32_t, 44> dk{};
    for (int r = 0; r <= 10; ++r)
      for (int k = 0; k < 4; ++k) {
        const uint32_t w = rk[4 * (10 - r) + k];
        dk[4 * r + k] = (r == 0 || r == 10) ? w : inv_mix_word(w);
      }
    return dk;
  }

  // The decryption kernel's rounds on one block, with the inverse key schedule.
  void decrypt(const std::array<uint32_t, 44>& dk, const uint8_t in[16], uint8_t out[16]) const {
    uint32_t s[4], t[4];
    for (int k = 0; k < 4; ++k)
      s[k] = (uint32_t(in[4 * k]) << 24 | uint32_t(in[4 * k + 1]) << 16 | uint32_t(in[4 * k + 2]) << 8 | in[4 * k + 3]) ^ dk[k];
    for (int r = 1; r < 10; ++r) {
      for (int k = 0; k < 4; ++k)
        t[k] = d0[s[k] >> 24] ^ d1[(s[(k + 3) % 4] >> 16) & 255] ^ d2[(s[(k + 2) % 4] >> 8) & 255] ^ d3[s[(k + 1) % 4] & 255] ^
               dk[4 * r + k];
      for (int k = 0; k < 4; ++k) s[k] = t[k];
    }
    for (int k = 0; k < 4; ++k) {
      const uint32_t w = isbox[s[k] >> 24] << 24 ^ isbox[(s[(k + 3) % 4] >> 16) & 255] << 16 ^
                         isbox[(s[(k + 2) % 4] >> 8) & 255] << 8 ^ isbox[s[(k + 1) % 4] & 255] ^ dk[40 + k];
      for (int b = 0; b < 4; ++b) out[4 * k + b] = uint8_t(w >> (24 - 8 * b));
    }
  }

  std::array<uint32_t, 44> expand(const uint8_t key[16]) const {
    std::array<uint32_t, 44> rk{};
    for (int i = 0; i < 4; ++i)
      rk[i] = uint32_t(key[4 * i]) << 24 | uint32_t(key[4 * i + 1]) << 16 | uint32_t(key[4 * i + 2]) << 8 | key[4 * i + 3];
    uint8_t rcon = 1;
    for (int i = 4; i < 44; ++i) {
      uint32_t t = rk[i - 1];
      if (i % 4 == 0) {
        t = (t << 8) | (t >> 24);
        t = sbox[t >> 24] << 24 | sbox[(t >> 16) & 255] << 16 | sbox[(t >> 8) & 255] << 8 | sbox[t & 255];
        t ^= uint32_t(rcon) << 24;
        rcon = xtime(rcon);
      }
      rk[i] = rk[i - 4] ^ t;
    }
    return rk;
  }

  // The kernel's rounds on one block.
  void encrypt(const std::array<uint32_t, 44>& rk, const uint8_t in[16], uint8_t out[16]) const {
    uint32_t s[4], t[4];
    for (int k = 0; k < 4; ++k)
      s[k] = (uint32_t(in[4 * k]) << 24 | uint32_t(in[4 * k + 1]) << 16 | uint32_t(in[4 * k + 2]) << 8 | in[4 * k + 3]) ^ rk[k];
    for (int r = 1; r < 10; ++r) {
      for (int k = 0; k < 4; ++k)
        t[k] = t0[s[k] >> 24] ^ t1[(s[(k + 1) % 4] >> 16) & 255] ^ t2[(s[(k + 2) % 4] >> 8) & 255] ^ t3[s[(k + 3) % 4] & 255] ^
               rk[4 * r + k];
      for (int k = 0; k < 4; ++k) s[k] = t[k];
    }
    for (int k = 0; k < 4; ++k) {
      const uint32_t w = sbox[s[k] >> 24] << 24 ^ sbox[(s[(k + 1) % 4] >> 16) & 255] << 16 ^
                         sbox[(s[(k + 2) % 4] >> 8) & 255] << 8 ^ sbox[s[(k + 3) % 4] & 255] ^ rk[40 + k];
      for (int b = 0; b < 4; ++b) out[4 * k + b] = uint8_t(w >> (24 - 8 * b));
    }
  }
};


// One run of an AES kernel (ep_aes_enc, ep_aes_dec): seeded key and 16-byte
// blocks, one per thread in blocks of 256 threads (tiny 4, small 16, medium
// 257 as Table 5, large 1024; the last one partly filled); the kernel gets
// (out, in, the five 256-word tables, the 44-word key schedule, n).
struct AesRun {
  uint8_t key[16];
  uint32_t n;
  std::vector<uint8_t> in, out;
};

inline AesRun aes_seeded_input(Size size, uint64_t seed) {
  AesRun r;
  r.n = uint32_t(by_size(size, 4, 16, 257, 1024)) * 256 - 77;
  std::mt19937_64 rng(seed);
  for (auto& k : r.key) k = uint8_t(rng());
  r.in.resize(size_t(r.n) * 16);
  for (auto& b : r.in) b = uint8_t(rng());
  return r;
}

inline void run_aes_kernel(Device& dev, const char* kernel, AesRun& r,
                           std::initializer_list<const std::array<uint32_t, 256>*> tables,
                           const std::array<uint32_t, 44>& keys) {
  std::vector<uint32_t> words;
  for (const auto* t : tables) words.insert(words.end(), t->begin(), t->end());
  load_workload_ptx(dev, kernel);
  DevPtr din = dev.upload(r.in), dtab = dev.upload(words), dkey = dev.upload(std::vector<uint32_t>(keys.begin(), keys.end()));
  DevPtr dout = dev.malloc(uint64_t(r.n) * 16);
  dev.launch(kernel, Dim3(ceil_div(r.n, 256)), Dim3(256), {arg(dout), arg(din), arg(dtab), arg(dkey), arg(r.n)});
  r.out = dev.download<uint8_t>(dout, size_t(r.n) * 16);
  for (DevPtr p : {din, dtab, dkey, dout}) dev.free(p);
}

}  // namespace warptlm::wl
