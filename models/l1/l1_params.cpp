#include "l1/l1_params.hpp"

#include <algorithm>

namespace warptlm {

namespace {

const char* const kWriteNames[] = {"write_through_no_allocate", "write_through_allocate", "write_back_allocate",
                                   "write_back_no_allocate", "write_evict"};

bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

L1WritePolicy write_policy_of(const std::string& s) {
  for (size_t i = 0; i < 5; ++i)
    if (s == kWriteNames[i]) return L1WritePolicy(i);
  return L1WritePolicy::WriteThroughNoAllocate;  // unreachable: Config checked the enum
}

}  // namespace

uint32_t log2_of(uint64_t v) { return v ? uint32_t(63 - __builtin_clzll(v)) : 0; }

const char* l1_write_policy_name(L1WritePolicy w) { return kWriteNames[size_t(w)]; }

void L1Params::declare(ParamTable& t) {
  const std::vector<std::string> writes(std::begin(kWriteNames), std::end(kWriteNames));
  t.bool_param("l1d.enabled", true, "L1 data cache present; false = every request goes straight downstream, nothing is allocated");
  t.int_param("l1d.sets", 32, 1, 65536, "L1D sets (GTX480: 16 KB / 128 B lines / 4 ways = 32)");
  t.int_param("l1d.ways", 4, 1, 1024, "L1D associativity (with l1d.unified_size: the ways with no shared-memory carve-out)");
  t.int_param("l1d.line", 128, 16, 4096, "L1D line bytes (power of two; the LD/ST unit sends one request per line)");
  t.int_param("l1d.sector", 32, 4, 4096,
              "L1D sector bytes (power of two, at most 32 per line): valid/dirty bits per sector, a miss fetches only the missing sectors");
  t.bool_param("l1d.flush_at_launch", false,
               "every L1D is invalidated (nothing written back) when a launch starts: GPGPU-Sim's -gpgpu_flush_l1_cache, "
               "which invalidates an SM's L1D once it holds no thread");
  t.enum_param("l1d.replacement", "lru", {"lru", "fifo"}, "L1D victim choice: least recently used or oldest fill");
  t.enum_param("l1d.recency", "fill", {"fill", "access"},
               "what makes a line the most recently used for lru: hits and fills (fill), or hits, merges and the "
               "miss that allocates it, not its fill (access: GPGPU-Sim's tag array stamps a line's last access "
               "at the allocating miss, hits and pending hits)");
  t.enum_param("l1d.allocate", "on_fill", {"on_fill", "on_miss"},
               "when a missing line takes its way: at the fill, or at the miss (the victim leaves at once and the way "
               "is reserved until the fill; a miss finding every way of its set reserved is refused)");
  t.enum_param("l1d.hash", "xor", {"linear", "xor"},
               "L1D set index: line number modulo sets, or Fermi's XOR hash (Nugteren et al. HPCA 2014)");
  t.int_param("l1d.hit_latency", 1, 1, 10000, "cycles from accepting a hit to its response (also fill to response of a miss)");
  t.int_param("l1d.mshr_entries", 32, 1, 4096, "L1D miss status holding registers: lines with a fill outstanding");
  t.int_param("l1d.mshr_merges", 8, 1, 1024, "requests one MSHR entry holds (the allocating one included)");
  t.int_param("l1d.miss_queue", 8, 1, 4096, "L1D requests waiting to go downstream (fills, write-throughs, write-backs, bypasses)");
  t.enum_param("l1d.global_write", "write_through_no_allocate", writes,
               "L1D policy for global stores (write_evict: the store goes below and a hit invalidates what it wrote, "
               "GPGPU-Sim's global write-evict)");
  t.enum_param("l1d.local_write", "write_back_allocate", writes, "L1D policy for local (spill/stack) stores");
  t.int_param("l1d.unified_size", 0, 0, 1 << 24,
              "bytes of one array the L1D and the shared memory share (GPGPU-Sim's -gpgpu_unified_l1d_size, with "
              "-gpgpu_adaptive_cache_config 1; l1d.ways are the L1D's ways with no carve-out): each launch the "
              "shared memory takes the smallest of l1d.carveouts that holds its blocks' shared memory on one SM and "
              "the L1D keeps l1d.ways x (1 - carve-out / this) ways, to the nearest (0 = the L1D keeps all its ways)");
  t.string_param("l1d.carveouts", "",
                 "with l1d.unified_size: the shared-memory carve-outs a launch chooses from, in KB, comma-separated "
                 "(GPGPU-Sim's -gpgpu_shmem_option, e.g. 0,8,16,32,64,96)");
  t.enum_param("l1d.global_loads", "cache", {"cache", "bypass"},
               "L1D policy for global loads: cache them, or pass every one below untouched, hit or not, as a load "
               "marked .cg is on Fermi (GPGPU-Sim's -gpgpu_gmem_skip_L1D); local loads are cached either way");
}

L1Params L1Params::from(const Config& c) {
  L1Params p;
  p.enabled = c.get_bool("l1d.enabled");
  p.flush_at_launch = c.get_bool("l1d.flush_at_launch");
  p.sets = uint32_t(c.get_int("l1d.sets"));
  p.ways = uint32_t(c.get_int("l1d.ways"));
  p.line = uint32_t(c.get_int("l1d.line"));
  p.sector = uint32_t(c.get_int("l1d.sector"));
  p.replacement = c.get_string("l1d.replacement") == "fifo" ? L1Replacement::Fifo : L1Replacement::Lru;
  p.hash = c.get_string("l1d.hash") == "xor" ? L1Hash::Xor : L1Hash::Linear;
  p.allocate = c.get_string("l1d.allocate") == "on_miss" ? L1Allocate::OnMiss : L1Allocate::OnFill;
  p.fill_is_use = c.get_string("l1d.recency") == "fill";
  p.hit_latency = uint32_t(c.get_int("l1d.hit_latency"));
  p.mshr_entries = uint32_t(c.get_int("l1d.mshr_entries"));
  p.mshr_merges = uint32_t(c.get_int("l1d.mshr_merges"));
  p.miss_queue = uint32_t(c.get_int("l1d.miss_queue"));
  p.global_write = write_policy_of(c.get_string("l1d.global_write"));
  p.local_write = write_policy_of(c.get_string("l1d.local_write"));
  p.global_loads_bypass = c.get_string("l1d.global_loads") == "bypass";
  p.unified_size = uint32_t(c.get_int("l1d.unified_size"));
  const std::string list = c.get_string("l1d.carveouts");
  for (size_t at = 0; at < list.size();) {
    size_t end = list.find(',', at);
    if (end == std::string::npos) end = list.size();
    const std::string item = list.substr(at, end - at);
    size_t used = 0;
    unsigned long kb = 0;
    try {
      kb = std::stoul(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || kb > (1u << 14))
      throw InputError(Place{"", 0, "l1d.carveouts"}, "'" + item + "' is not a carve-out in KB (set at " +
                                                          c.origin("l1d.carveouts") + "; expected e.g. 0,8,16,32,64,96)");
    p.carveouts.push_back(uint32_t(kb) * 1024);
    at = end + 1;
  }
  std::sort(p.carveouts.begin(), p.carveouts.end());
  p.check();
  return p;
}

void L1Params::check() const {
  auto fail = [](const char* key, const std::string& why) { throw InputError(Place{"", 0, key}, why); };
  if (!is_pow2(line)) fail("l1d.line", "the L1D line (" + std::to_string(line) + " B) must be a power of two");
  if (!is_pow2(sector)) fail("l1d.sector", "the L1D sector (" + std::to_string(sector) + " B) must be a power of two");
  if (sector > line)
    fail("l1d.sector", "the L1D sector (" + std::to_string(sector) + " B) is larger than the line (" + std::to_string(line) + " B)");
  if (line / sector > 32)
    fail("l1d.sector", "an L1D line holds at most 32 sectors; " + std::to_string(line) + " / " + std::to_string(sector) +
                           " = " + std::to_string(line / sector));
  if (sets == 0 || ways == 0) fail("l1d.sets", "the L1D needs at least one set and one way");
  if (unified_size) {
    if (carveouts.empty()) fail("l1d.carveouts", "l1d.unified_size needs the carve-outs a launch chooses from");
    if (carveouts.back() > unified_size)
      fail("l1d.carveouts", "a carve-out of " + std::to_string(carveouts.back() / 1024) + " KB is larger than l1d.unified_size (" +
                                std::to_string(unified_size) + " B)");
  }
}

uint32_t l1_set_index(const L1Params& p, uint64_t addr) {
  const uint32_t line_bits = log2_of(p.line);
  const uint64_t line = addr >> line_bits;
  if (p.hash == L1Hash::Linear) return uint32_t(line % p.sets);
  if ((p.sets == 32 || p.sets == 64) && p.line == 128) {
    // Fermi L1D: address bits 7..11 XOR address bits {19,17,15,14,13};
    // the 64-set (48 KB) L1D adds address bit 12 as index bit 5.
    const uint32_t low = uint32_t(line & 0x1F);
    const uint32_t high = uint32_t(((addr >> 13) & 0x7) | (((addr >> 17) & 1) << 3) | (((addr >> 19) & 1) << 4));
    uint32_t set = low ^ high;
    if (p.sets == 64) set |= uint32_t((addr >> 12) & 1) << 5;
    return set;
  }
  if (is_pow2(p.sets)) {
    const uint32_t k = log2_of(p.sets);
    return uint32_t((line ^ (line >> k)) & (p.sets - 1));
  }
  return uint32_t((line ^ (line / p.sets)) % p.sets);
}

}  // namespace warptlm
