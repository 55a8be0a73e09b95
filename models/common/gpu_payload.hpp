// TLM-2.0 plumbing shared by every block: the GPU extension carried by each
// generic payload, and a payload pool (no allocation per access).
#pragma once
#include <cstdint>
#include <vector>

#include <tlm>

namespace warptlm {

enum class MemKind : uint8_t { Load, Store, Atomic, InstFetch, ConstLoad,
                               LockAcquire, LockRelease, LockOwnerDone };  // scratchpad-sharing lock requests

// GPU facts that ride with a transaction: who asked, for what, from where.
struct GpuExtension : tlm::tlm_extension<GpuExtension> {
  uint16_t sm = 0;
  uint16_t warp = 0;      // hardware warp slot in the SM
  uint32_t block = 0;     // linear block id
  uint32_t pc = 0;
  uint32_t lane_mask = 0;
  MemKind kind = MemKind::Load;
  uint8_t space = 0;      // isa Space
  uint64_t tag = 0;       // requester's cookie, returned untouched
  uint64_t issue_cycle = 0;
  uint32_t sector_mask = 0;          // 32-byte sectors of the line the request needs (bit i = sector i; see cache_sectors_of)
  uint8_t access_bytes = 0;          // bytes per lane (shared-memory requests)
  const uint64_t* lane_addr = nullptr;  // per-lane addresses (shared-memory requests: 32 entries, lane_mask says which)
  bool l1_no_allocate = false;       // a load the L1 serves on a hit but passes below on a miss, allocating nothing
  bool l1_redirect = false;          // a global access the L1 hands to its side store (l1/l1_side_store.hpp)
  bool nc_load = false;              // ld.global.nc: cached in the L1 even where global loads bypass it (l1d.global_loads)

  // Blocks that fan in (crossbar, multi-port targets) push the port a request
  // came through and pop it to send the response back the same way.
  void push_route(int16_t port) { route_stack[route_depth++] = port; }
  int16_t pop_route() { return route_stack[--route_depth]; }
  uint8_t route_depth = 0;
  int16_t route_stack[6] = {0, 0, 0, 0, 0, 0};

  tlm::tlm_extension_base* clone() const override { return new GpuExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override { *this = static_cast<const GpuExtension&>(e); }
};

// A request's sector mask counts 32-byte sectors of the line that holds its
// address (bit i: bytes 32 i to 32 i + 31 of the line; the LD/ST unit and the
// caches share one line size, sm.mem_line = l1d.line = l2.line); a cache keeps
// valid bits per sector of its own size (at most 32 per line). These convert
// between the two for a cache of `sector`-byte sectors whose line's sectors
// are `line_sectors` (its mask of every sector).
constexpr uint32_t kRequestSectorBytes = 32;
// The cache's sectors that a request's mask covers.
inline uint32_t cache_sectors_of(uint32_t mask, uint32_t sector, uint32_t line_sectors) {
  if (sector == kRequestSectorBytes) return mask & line_sectors;
  uint32_t m = 0;
  for (; mask; mask &= mask - 1) {
    const uint32_t first = kRequestSectorBytes * unsigned(__builtin_ctz(mask));
    for (uint32_t k = first / sector; k <= (first + kRequestSectorBytes - 1) / sector && k < 32; ++k) m |= 1u << k;
  }
  return m & line_sectors;
}
// The request mask that a cache's sectors cover.
inline uint32_t request_sectors_of(uint32_t cache_mask, uint32_t sector) {
  if (sector == kRequestSectorBytes) return cache_mask;
  uint32_t m = 0;
  for (; cache_mask; cache_mask &= cache_mask - 1) {
    const uint64_t first = uint64_t(sector) * unsigned(__builtin_ctz(cache_mask)), last = first + sector - 1;
    for (uint64_t k = first / kRequestSectorBytes; k <= last / kRequestSectorBytes && k < 32; ++k) m |= 1u << k;
  }
  return m;
}

// A payload of the pool keeps its extension's address beside the generic
// payload, so that the blocks find it without a call into the TLM library on
// every access; the extension stays attached as well, for any TLM block.
struct PooledPayload : tlm::tlm_generic_payload {
  explicit PooledPayload(tlm::tlm_mm_interface* mm) : tlm::tlm_generic_payload(mm), ext(new GpuExtension) { set_extension(ext); }
  GpuExtension* ext;
};

// The request's GPU extension. PayloadPool is the only memory manager in the
// model, and a block that initiates GPU requests takes its payloads from one
// (docs/mechanisms.md), so a payload with a memory manager is a PooledPayload;
// one without carries its extension in the TLM way. (UBSan's vptr check, in
// the sanitizer build, would report a payload of another manager here.)
inline GpuExtension& gpu_ext(tlm::tlm_generic_payload& p) {
  if (p.has_mm()) return *static_cast<PooledPayload&>(p).ext;
  GpuExtension* e = nullptr;
  p.get_extension(e);
  return *e;
}

// The extension if the payload has one (nullptr otherwise).
inline const GpuExtension* find_gpu_ext(const tlm::tlm_generic_payload& p) {
  if (p.has_mm()) return static_cast<const PooledPayload&>(p).ext;
  return p.get_extension<GpuExtension>();
}

// Payloads are recycled: acquire() hands one out with its extension attached
// and a reference taken; the last release() returns it here.
class PayloadPool : public tlm::tlm_mm_interface {
 public:
  ~PayloadPool() override {
    for (auto* p : all_) delete p;
  }
  tlm::tlm_generic_payload* acquire() {
    tlm::tlm_generic_payload* p;
    if (free_.empty()) {
      p = new PooledPayload(this);
      all_.push_back(p);
    } else {
      p = free_.back();
      free_.pop_back();
    }
    p->acquire();
    gpu_ext(*p) = GpuExtension{};
    p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    p->set_data_ptr(nullptr);
    p->set_byte_enable_ptr(nullptr);
    p->set_streaming_width(0);
    return p;
  }
  void free(tlm::tlm_generic_payload* p) override { free_.push_back(p); }
  size_t outstanding() const { return all_.size() - free_.size(); }

 private:
  std::vector<tlm::tlm_generic_payload*> all_, free_;
};

}  // namespace warptlm
