#include "l2/l2_params.hpp"

#include "common/clock.hpp"
#include "common/errors.hpp"

namespace warptlm {

void L2Params::declare(ParamTable& t) {
  t.int_param("l2.slice_size", 131072, 128, 1 << 30,
              "bytes of L2 in each memory partition (total L2 = slice_size x partitions)");
  t.int_param("l2.ways", 8, 1, 64, "L2 associativity");
  t.int_param("l2.line", 128, 32, 4096, "L2 line bytes (one tag)");
  t.int_param("l2.sector", 32, 4, 4096, "L2 sector bytes: valid/dirty bits and DRAM fetches are per sector");
  t.int_param("l2.latency", 120, 1, 100000, "L2 cycles from the end of the tag lookup to a hit's response");
  t.int_param("l2.rop_latency", 0, 0, 100000,
              "L2 cycles every request spends in the ROP stage between the crossbar and the tag array, hit or miss "
              "(GPGPU-Sim's rop_latency); 0 = no such stage, requests go from the input buffer to the tag array");
  t.enum_param("l2.rop_clock", "l2", {"l2", "core"},
               "the clock whose cycles l2.rop_latency counts: l2 (the slice's own) or core (GPGPU-Sim counts its "
               "rop_latency in core cycles, so a faster core clock shortens the stage)");
  t.int_param("l2.input_queue", 64, 1, 4096,
              "with l2.rop_latency: sectors of requests past the ROP stage that may wait for the tag array; the slice "
              "takes a request from the crossbar only while a whole line's sectors still fit (GPGPU-Sim's icnt-to-L2 queue)");
  t.int_param("l2.data_port", 0, 0, 4096,
              "bytes the L2 tag and data arrays serve per L2 cycle: a request holds them ceil(sectors x l2.sector / "
              "data_port) cycles (GPGPU-Sim's sectored L2 serves one 32 B sector a cycle); 0 = one request a cycle");
  t.int_param("l2.mshr_entries", 32, 1, 4096, "L2 MSHR entries per slice (lines being fetched)");
  t.int_param("l2.mshr_merges", 4, 1, 1024, "requests one L2 MSHR entry holds, the first included");
  t.int_param("l2.miss_queue", 4, 1, 4096, "L2 requests (fetches, write-backs) waiting for the DRAM channel");
  t.float_param("l2.clock_mhz", 700, 1, 100000, "L2 clock in MHz");
  t.enum_param("l2.replacement", "lru", {"lru", "fifo"}, "L2 victim choice: least recently used or oldest filled");
  t.enum_param("l2.index", "linear", {"linear", "xor"},
               "L2 set index from the partition-local line number: linear (mod sets) or xor (folds the tag bits in)");
  t.enum_param("l2.dram_fetch", "line", {"line", "sector"},
               "DRAM reads of an L2 miss: line (one read carrying every missing sector) or sector (one read per "
               "missing sector, each moving at least one DRAM burst)");
  t.bool_param("l2.preload_copies", false,
               "host-to-device copies leave the copied sectors valid and clean in L2 (a replaced line's write-back is dropped), "
               "so a kernel finds its inputs in L2 as after a real copy through it");
}

void L2Params::check() const {
  auto bad = [](const char* key, const std::string& why) { throw InputError(Place{"", 0, key}, why); };
  if (latency == 0) bad("l2.latency", "an L2 hit takes at least one cycle");  // its answer leaves at a later edge
  if (line % sector != 0) bad("l2.sector", "l2.line " + std::to_string(line) + " is not a multiple of l2.sector " + std::to_string(sector));
  if (line / sector > 32) bad("l2.sector", "an L2 line may have at most 32 sectors");
  if (rop_latency && input_queue < sectors_per_line())
    bad("l2.input_queue", "l2.input_queue " + std::to_string(input_queue) + " holds fewer sectors than one line's " +
                              std::to_string(sectors_per_line()) + ": no request could ever pass the ROP stage");
  if (slice_size % (line * ways) != 0 || sets() == 0)
    bad("l2.slice_size", "l2.slice_size " + std::to_string(slice_size) + " is not a whole number of sets of " +
                             std::to_string(ways) + " ways x " + std::to_string(line) + " bytes");
}

void L2Params::count_in_l2_cycles(double core_mhz) { count_in_own_cycles(rop_latency, rop_in_core_cycles, core_mhz, clock_mhz); }

L2Params L2Params::from(const Config& c) {
  L2Params p;
  p.slice_size = uint32_t(c.get_int("l2.slice_size"));
  p.ways = uint32_t(c.get_int("l2.ways"));
  p.line = uint32_t(c.get_int("l2.line"));
  p.sector = uint32_t(c.get_int("l2.sector"));
  p.latency = uint32_t(c.get_int("l2.latency"));
  p.rop_latency = uint32_t(c.get_int("l2.rop_latency"));
  p.rop_in_core_cycles = c.get_string("l2.rop_clock") == "core";
  p.input_queue = uint32_t(c.get_int("l2.input_queue"));
  p.data_port = uint32_t(c.get_int("l2.data_port"));
  p.mshr_entries = uint32_t(c.get_int("l2.mshr_entries"));
  p.mshr_merges = uint32_t(c.get_int("l2.mshr_merges"));
  p.miss_queue = uint32_t(c.get_int("l2.miss_queue"));
  p.clock_mhz = c.get_float("l2.clock_mhz");
  p.replacement = c.get_string("l2.replacement") == "fifo" ? L2Replacement::Fifo : L2Replacement::Lru;
  p.index = c.get_string("l2.index") == "xor" ? L2Index::Xor : L2Index::Linear;
  p.fetch_per_sector = c.get_string("l2.dram_fetch") == "sector";
  p.preload_copies = c.get_bool("l2.preload_copies");
  p.check();
  return p;
}

}  // namespace warptlm
