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
    wl::AesRun r = wl::aes_seeded_input(size, seed);  // ciphertext
    const std::array<uint32_t, 44> dk = aes.inverse_keys(aes.expand(r.key));
    wl::run_aes_kernel(dev, "ep_aes_dec", r, {&aes.d0, &aes.d1, &aes.d2, &aes.d3, &aes.isbox}, dk);
    std::vector<uint8_t> ref(r.in.size());
    for (uint32_t i = 0; i < r.n; ++i) aes.decrypt(dk, &r.in[size_t(i) * 16], &ref[size_t(i) * 16]);
    return wl::check_exact("plaintext", r.out, ref);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ep_aes_dec() { return std::make_unique<EpAesDec>(); }

}  // namespace warptlm
