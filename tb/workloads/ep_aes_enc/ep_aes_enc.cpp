// Host driver for ep_aes_enc: seeded plaintext blocks and key, the T-tables and
// S-box built here from GF(2^8) (FIPS-197 sec. 5.1.1), the key expanded here
// (sec. 5.2), and a CPU reference of the same rounds, itself checked against
// FIPS-197 appendix C.1 before it judges the GPU's result. Exact check.
#include <array>
#include <cstdint>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

struct Aes {
  std::array<uint32_t, 256> sbox{}, t0{}, t1{}, t2{}, t3{};

  static uint8_t xtime(uint8_t a) { return uint8_t((a << 1) ^ ((a & 0x80) ? 0x1b : 0)); }
  static uint8_t mul(uint8_t a, uint8_t b) {
    uint8_t p = 0;
    for (; b; b >>= 1, a = xtime(a))
      if (b & 1) p ^= a;
    return p;
  }
  static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

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

class EpAesEnc : public Workload {
 public:
  const char* name() const override { return "ep_aes_enc"; }
  const char* description() const override {
    return "AES-128 encryption, a block per thread, T-tables and S-box in shared memory (seed 001's AES_encrypt: "
           "data-dependent, irregular bank conflicts)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const Aes aes;
    {  // the reference against FIPS-197 appendix C.1 first
      uint8_t key[16], pt[16], ct[16];
      for (int i = 0; i < 16; ++i) key[i] = uint8_t(i), pt[i] = uint8_t(i * 0x11);
      aes.encrypt(aes.expand(key), pt, ct);
      static const uint8_t want[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                       0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
      for (int i = 0; i < 16; ++i)
        if (ct[i] != want[i]) return WorkloadResult{false, "the CPU reference fails FIPS-197 appendix C.1"};
    }
    // blocks of 256 threads: tiny 4, small 16, medium 257 (Table 5), large 1024; the last one partly filled
    const uint32_t n = uint32_t(wl::by_size(size, 4, 16, 257, 1024)) * 256 - 77;
    std::mt19937_64 rng(seed);
    uint8_t key[16];
    for (auto& k : key) k = uint8_t(rng());
    std::vector<uint8_t> pt(size_t(n) * 16);
    for (auto& b : pt) b = uint8_t(rng());
    const std::array<uint32_t, 44> rk = aes.expand(key);
    std::vector<uint32_t> tables;
    for (const auto* t : {&aes.t0, &aes.t1, &aes.t2, &aes.t3, &aes.sbox}) tables.insert(tables.end(), t->begin(), t->end());

    load_workload_ptx(dev, "ep_aes_enc");
    DevPtr din = dev.upload(pt), dtab = dev.upload(tables), dkey = dev.upload(std::vector<uint32_t>(rk.begin(), rk.end()));
    DevPtr dout = dev.malloc(uint64_t(n) * 16);
    dev.launch("ep_aes_enc", Dim3(wl::ceil_div(n, 256)), Dim3(256), {arg(dout), arg(din), arg(dtab), arg(dkey), arg(n)});
    std::vector<uint8_t> ct = dev.download<uint8_t>(dout, size_t(n) * 16);
    for (DevPtr p : {din, dtab, dkey, dout}) dev.free(p);

    std::vector<uint8_t> ref(size_t(n) * 16);
    for (uint32_t i = 0; i < n; ++i) aes.encrypt(rk, &pt[size_t(i) * 16], &ref[size_t(i) * 16]);
    return wl::check_exact("ciphertext", ct, ref);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ep_aes_enc() { return std::make_unique<EpAesEnc>(); }

}  // namespace warptlm
