// The Stencil Processing Unit's instructions and unit registers (seed 003 sec.
// 2.9), emitted into the PTX through inline asm: nvcc -ptx passes them through
// as written, and only a mesh platform's PTX front end accepts them (warptlm
// run --platform spu). The CB helpers take a byte offset inside the CB.
#pragma once

namespace spu {

// Directions as the run-time writes %regiudir.
enum Dir : unsigned { kNorth = 0, kSouth = 1, kWest = 2, kEast = 3 };

#define SPU_REG(fn, name)                                   \
  __device__ __forceinline__ unsigned fn() {                \
    unsigned v;                                             \
    asm volatile("mov.u32 %0, %%" name ";" : "=r"(v));      \
    return v;                                               \
  }
SPU_REG(is_iu, "regiu")            // an interface unit (real or virtual)
SPU_REG(is_viu, "regviriu")        // a virtual IU: spills (south, east) or restores (north, west) its CB
SPU_REG(iu_dir, "regiudir")        // the IU's side (Dir)
SPU_REG(iu_id, "regiuid")          // the IU's id: its column (north, south) or row (west, east) in the whole grid
SPU_REG(cpass_x, "regcpassx")      // this pass's column
SPU_REG(passes_x, "regpassx")      // passes per row
SPU_REG(cpass_y, "regcpassy")      // this pass's row
SPU_REG(spill_nb, "regspillnb")    // block synchronisations per pass (known after pass 0; 0 in it)
SPU_REG(cspill_nb, "regcspillnb")  // block synchronisations so far in this pass
SPU_REG(restart, "restart")        // the parked virtual IUs were unleashed
SPU_REG(last, "reglast")           // every block of the pass is done: virtual IUs leave their loops
#undef SPU_REG

// Block synchronisation: the block's barrier, then the mesh-wide one (a time step ends).
__device__ __forceinline__ void block_sync() { asm volatile("bar.blocksync 0;" ::: "memory"); }
// Release the parked virtual IUs (the report's restart optimisation, sec. 3.3).
__device__ __forceinline__ void unleash_vius() { asm volatile("bar.unleashvius 0;" ::: "memory"); }

// Loads read the north (cbv) or west (cbh) CB, stores write the south or east CB.
#define SPU_CB_LOAD(fn, T, space, ptx_type, cons)                                           \
  __device__ __forceinline__ T fn(unsigned off) {                                           \
    T v;                                                                                    \
    asm volatile("ld." space "." ptx_type " %0, [%1];" : "=" cons(v) : "r"(off) : "memory"); \
    return v;                                                                               \
  }
#define SPU_CB_STORE(fn, T, space, ptx_type, cons)                                    \
  __device__ __forceinline__ void fn(unsigned off, T v) {                             \
    asm volatile("st." space "." ptx_type " [%0], %1;" ::"r"(off), cons(v) : "memory"); \
  }
SPU_CB_LOAD(load_north, float, "cbv", "f32", "f")
SPU_CB_LOAD(load_west, float, "cbh", "f32", "f")
SPU_CB_STORE(store_south, float, "cbv", "f32", "f")
SPU_CB_STORE(store_east, float, "cbh", "f32", "f")
SPU_CB_LOAD(load_north_u32, unsigned, "cbv", "u32", "r")
SPU_CB_LOAD(load_west_u32, unsigned, "cbh", "u32", "r")
SPU_CB_STORE(store_south_u32, unsigned, "cbv", "u32", "r")
SPU_CB_STORE(store_east_u32, unsigned, "cbh", "u32", "r")
#undef SPU_CB_LOAD
#undef SPU_CB_STORE

// The virtual IUs' code (system-generated in the report, sec. 2.7, Algorithms 1
// and 2), for a CB of `cb_words` 32-bit words: a south (east) VIU spills the CB
// it faces after each synchronisation, the words written in the step before it,
// into slot cspillnb - 1 of its pass; a north (west) VIU restores, before each
// synchronisation, slot cspillnb of the pass above (to the left) into the CB it
// writes. The layout (models/cbmesh/spill_layout.hpp): pass p = CPassx + CPassy
// Passx owns spillnb slots of (mesh_cols + mesh_rows) CBs, the south CBs first;
// an IU uses its position on its side (its id modulo the side's length).
// Each thread moves words [t * tile, (t + 1) * tile), tile = cb_words / threads.
// `slots`: the slots of a pass; 0 takes regspillnb (pass 0's count, as in the
// report). A kernel whose units leave a pass early (spu.skip_trailing_syncs)
// declares its schedule's length instead: its passes' counts differ, and pass
// 0's may be the shortest (the report's "ask for a thread blocks schedule to
// the programmer", sec. 5).
__device__ __forceinline__ void run_virtual_iu(unsigned* g_cb, unsigned cb_words, unsigned mesh_rows,
                                               unsigned mesh_cols, unsigned slots = 0) {
  const unsigned threads = blockDim.x * blockDim.y;
  const unsigned tile = cb_words / threads;
  const unsigned h = (threadIdx.y * blockDim.x + threadIdx.x) * tile;
  const unsigned dir = iu_dir();
  const bool vertical = dir == kNorth || dir == kSouth;
  const unsigned position = vertical ? iu_id() % mesh_cols : iu_id() % mesh_rows;
  const unsigned within = (vertical ? 0u : mesh_cols * cb_words) + position * cb_words;
  const unsigned slot_words = (mesh_cols + mesh_rows) * cb_words;
  const unsigned per_pass = slots ? slots : spill_nb();
  if (dir == kSouth || dir == kEast) {
    const unsigned pass = cpass_x() + cpass_y() * passes_x();
    for (;;) {
      block_sync();
      if (last()) break;
      // Unleashed from its first synchronisation before anyone passed it: nothing was written yet.
      if (cspill_nb() == 0) continue;
      unsigned* out = g_cb + (size_t(pass) * per_pass + (cspill_nb() - 1)) * slot_words + within + h;
      for (unsigned i = 0; i < tile; ++i) out[i] = vertical ? load_north_u32(4 * (h + i)) : load_west_u32(4 * (h + i));
    }
  } else {
    const unsigned from = dir == kNorth ? cpass_x() + (cpass_y() - 1) * passes_x() : cpass_x() - 1 + cpass_y() * passes_x();
    // The restored CB is the one the previous pass spilled on the opposite side.
    const unsigned src_within = (dir == kNorth ? 0u : mesh_cols * cb_words) + position * cb_words;
    for (;;) {
      const unsigned s = cspill_nb();
      if (s < per_pass) {
        const unsigned* in = g_cb + (size_t(from) * per_pass + s) * slot_words + src_within + h;
        for (unsigned i = 0; i < tile; ++i) {
          if (vertical) store_south_u32(4 * (h + i), in[i]);
          else store_east_u32(4 * (h + i), in[i]);
        }
      }
      block_sync();
      if (last()) break;
    }
  }
}

}  // namespace spu
