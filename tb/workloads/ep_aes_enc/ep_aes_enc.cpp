// Host driver for ep_aes_enc: seeded plaintext blocks and key, the T-tables and
// S-box built here from GF(2^8) (FIPS-197 sec. 5.1.1), the key expanded here
// (sec. 5.2), and a CPU reference of the same rounds, itself checked against
// FIPS-197 appendix C.1 before it judges the GPU's result. Exact check.
#include <array>
#include <cstdint>
#include <random>

#include "workloads/aes.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class EpAesEnc : public Workload {
 public:
  const char* name() const override { return "ep_aes_enc"; }
  const char* description() const override {
    return "AES-128 encryption, a block per thread, T-tables and S-box in shared memory (seed 001's AES_encrypt: "
           "data-dependent, irregular bank conflicts)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const wl::Aes aes;
    {  // the reference against FIPS-197 appendix C.1 first
      uint8_t key[16], pt[16], ct[16];
      for (int i = 0; i < 16; ++i) key[i] = uint8_t(i), pt[i] = uint8_t(i * 0x11);
      aes.encrypt(aes.expand(key), pt, ct);
      static const uint8_t want[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                       0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
      for (int i = 0; i < 16; ++i)
        if (ct[i] != want[i]) return WorkloadResult{false, "the CPU reference fails FIPS-197 appendix C.1"};
    }
    wl::AesRun r = wl::aes_seeded_input(size, seed);  // plaintext
    const std::array<uint32_t, 44> rk = aes.expand(r.key);
    wl::run_aes_kernel(dev, "ep_aes_enc", r, {&aes.t0, &aes.t1, &aes.t2, &aes.t3, &aes.sbox}, rk);
    std::vector<uint8_t> ref(r.in.size());
    for (uint32_t i = 0; i < r.n; ++i) aes.encrypt(rk, &r.in[size_t(i) * 16], &ref[size_t(i) * 16]);
    return wl::check_exact("ciphertext", r.out, ref);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ep_aes_enc() { return std::make_unique<EpAesEnc>(); }

}  // namespace warptlm
