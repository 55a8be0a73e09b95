// Host driver for ep_aes_dec: seeded ciphertext blocks and key, the inverse
// T-tables and S-box built from GF(2^8) and the decryption key schedule
// (FIPS-197 sec. 5.3.5; workloads/aes.hpp), and a CPU reference of the same
// rounds, itself checked against FIPS-197 appendix C.1 (and against the
// encryption it undoes) before it judges the GPU's result. Exact check.
#include <array>
#include <cstdint>
#include <random>

#include "workloads/aes.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class EpAesDec : public Workload {
 public:
  const char* name() const override { return "ep_aes_dec"; }
  const char* description() const override {
    return "AES-128 decryption, a block per thread, inverse T-tables and S-box in shared memory (seed 001's AES_decrypt: "
           "data-dependent, irregular bank conflicts)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const wl::Aes aes;
    {  // the reference against FIPS-197 appendix C.1 first, and against the cipher it inverts
      uint8_t key[16], pt[16], ct[16], back[16];
      for (int i = 0; i < 16; ++i) key[i] = uint8_t(i), pt[i] = uint8_t(i * 0x11);
      static const uint8_t ct_c1[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                        0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
      aes.decrypt(aes.inverse_keys(aes.expand(key)), ct_c1, back);
      for (int i = 0; i < 16; ++i)
        if (back[i] != pt[i]) return WorkloadResult{false, "the CPU reference fails FIPS-197 appendix C.1"};
      for (int i = 0; i < 16; ++i) key[i] = uint8_t(37 * i + 5), pt[i] = uint8_t(91 * i + 3);
      aes.encrypt(aes.expand(key), pt, ct);
      aes.decrypt(aes.inverse_keys(aes.expand(key)), ct, back);
      for (int i = 0; i < 16; ++i)
        if (back[i] != pt[i]) return WorkloadResult{false, "the CPU reference does not invert the encryption"};
    }
    // blocks of 256 threads: tiny 4, small 16, medium 257 (Table 5), large 1024; the last one partly filled
    const uint32_t n = uint32_t(wl::by_size(size, 4, 16, 257, 1024)) * 256 - 77;
    std::mt19937_64 rng(seed);
    uint8_t key[16];
    for (auto& k : key) k = uint8_t(rng());
    std::vector<uint8_t> ct(size_t(n) * 16);
    for (auto& b : ct) b = uint8_t(rng());
    const std::array<uint32_t, 44> dk = aes.inverse_keys(aes.expand(key));
    std::vector<uint32_t> tables;
    for (const auto* t : {&aes.d0, &aes.d1, &aes.d2, &aes.d3, &aes.isbox}) tables.insert(tables.end(), t->begin(), t->end());

    load_workload_ptx(dev, "ep_aes_dec");
    DevPtr din = dev.upload(ct), dtab = dev.upload(tables), dkey = dev.upload(std::vector<uint32_t>(dk.begin(), dk.end()));
    DevPtr dout = dev.malloc(uint64_t(n) * 16);
    dev.launch("ep_aes_dec", Dim3(wl::ceil_div(n, 256)), Dim3(256), {arg(dout), arg(din), arg(dtab), arg(dkey), arg(n)});
    std::vector<uint8_t> pt = dev.download<uint8_t>(dout, size_t(n) * 16);
    for (DevPtr p : {din, dtab, dkey, dout}) dev.free(p);

    std::vector<uint8_t> ref(size_t(n) * 16);
    for (uint32_t i = 0; i < n; ++i) aes.decrypt(dk, &ct[size_t(i) * 16], &ref[size_t(i) * 16]);
    return wl::check_exact("plaintext", pt, ref);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ep_aes_dec() { return std::make_unique<EpAesDec>(); }

}  // namespace warptlm
