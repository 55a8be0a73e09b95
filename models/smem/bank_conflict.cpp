#include "smem/bank_conflict.hpp"

#include <algorithm>

namespace warptlm {

namespace {

constexpr unsigned kMaxBanks = 64;
// A lane touches at most 32 bytes (PTX's widest vector access) over 4-byte
// words, plus one word when it is misaligned.
constexpr unsigned kMaxWordsPerLane = 9;

inline unsigned log2u(uint32_t v) { return unsigned(__builtin_ctz(v)); }

inline uint32_t bank_of_word(uint64_t word, const SharedMemoryParams& p) {
  if (p.mapping == SmemMapping::Xor) {
    // row r's words are permuted by r: bank = column XOR (row mod banks)
    const uint64_t mask = p.banks - 1;
    return uint32_t((word ^ (word >> log2u(p.banks))) & mask);
  }
  return uint32_t(word % p.banks);
}

// The words one part asks for, grouped by bank: each bank keeps a short chain
// of the distinct words it must deliver and how many lane accesses want each.
struct BankRequests {
  struct Word { uint64_t word; uint32_t lanes; int32_t next; };
  Word words[32 * kMaxWordsPerLane];
  int32_t head[kMaxBanks];
  uint32_t distinct[kMaxBanks];   // distinct words per bank
  uint32_t accesses[kMaxBanks];   // lane accesses per bank (no broadcast)
  uint32_t n = 0;
  uint32_t multicast = 0;         // words wanted by more than one lane access

  explicit BankRequests(uint32_t banks) {
    for (uint32_t b = 0; b < banks; ++b) { head[b] = -1; distinct[b] = 0; accesses[b] = 0; }
  }
  void add(uint64_t word, uint32_t bank) {
    ++accesses[bank];
    for (int32_t i = head[bank]; i >= 0; i = words[i].next)
      if (words[i].word == word) {
        if (++words[i].lanes == 2) ++multicast;
        return;
      }
    words[n] = Word{word, 1, head[bank]};
    head[bank] = int32_t(n++);
    ++distinct[bank];
  }
  // Cycles the banks need to deliver every word under the broadcast rule.
  uint32_t degree(const SharedMemoryParams& p) const {
    uint32_t d = 0;
    for (uint32_t b = 0; b < p.banks; ++b)
      d = std::max(d, p.broadcast == SmemBroadcast::None ? accesses[b] : distinct[b]);
    // Limited broadcast: one multicast word per cycle. Giving each multicast
    // word its own cycle and filling every bank's other words into the
    // remaining cycles meets both bounds, so the degree is the larger one.
    if (p.broadcast == SmemBroadcast::Limited) d = std::max(d, multicast);
    return std::max(d, 1u);
  }
};

void add_lane(BankRequests& r, uint64_t addr, unsigned bytes, const SharedMemoryParams& p) {
  const unsigned shift = log2u(p.bank_width);
  const uint64_t first = addr >> shift;
  uint64_t last = (addr + bytes - 1) >> shift;
  if (last - first >= kMaxWordsPerLane) last = first + kMaxWordsPerLane - 1;
  for (uint64_t w = first; w <= last; ++w) r.add(w, bank_of_word(w, p));
}

}  // namespace

uint32_t smem_bank_of(uint64_t addr, const SharedMemoryParams& p) {
  return bank_of_word(addr >> log2u(p.bank_width), p);
}

// The common case, one word per lane on power-of-two banks with linear
// mapping: per bank, the lanes seen so far; a lane adds a distinct word unless
// a lane before it in the same bank asked for the same word.
static uint32_t simple_degree(const uint64_t* lane_addr, uint32_t mask, unsigned shift, const SharedMemoryParams& p) {
  uint32_t lanes_in_bank[kMaxBanks] = {};
  uint32_t count[kMaxBanks] = {};
  uint64_t word[32];
  const uint32_t bank_mask = p.banks - 1;
  const bool each_lane = p.broadcast == SmemBroadcast::None;
  uint32_t d = 1;
  for (uint32_t m = mask; m; m &= m - 1) {
    const unsigned l = unsigned(__builtin_ctz(m));
    const uint64_t w = lane_addr[l] >> shift;
    const uint32_t b = uint32_t(w) & bank_mask;
    word[l] = w;
    bool repeat = false;
    if (!each_lane && lanes_in_bank[b]) {
      // the last lane in this bank asked for the same word (broadcast), or any earlier one did
      repeat = word[31 - __builtin_clz(lanes_in_bank[b])] == w;
      for (uint32_t o = lanes_in_bank[b]; o && !repeat; o &= o - 1) repeat = word[__builtin_ctz(o)] == w;
    }
    lanes_in_bank[b] |= 1u << l;
    if (!repeat) d = std::max(d, ++count[b]);
  }
  return d;
}

// Every lane of `mask` stays within one bank word.
static bool lanes_within_words(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, unsigned shift) {
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint64_t a = lane_addr[__builtin_ctz(m)];
    if ((a >> shift) != ((a + bytes - 1) >> shift)) return false;
  }
  return true;
}

// The usual access, checked before any counting: one word per lane on power-of-two banks with linear mapping
// and full broadcast, where no bank is asked for two different words (every lane its own bank, or lanes that
// share a bank share its word): degree 1. Else a bank asked for two words, or a lane across words.
enum class OneWordLanes { ConflictFree, Conflict, AcrossWords };
static OneWordLanes conflict_free(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, unsigned shift,
                                  const SharedMemoryParams& p) {
  uint64_t first_word[kMaxBanks];  // a bank's word, valid once its bit in `seen` is set
  uint64_t seen = 0;
  const uint32_t bank_mask = p.banks - 1;
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint64_t a = lane_addr[__builtin_ctz(m)];
    const uint64_t w = a >> shift;
    if (((a + bytes - 1) >> shift) != w) return OneWordLanes::AcrossWords;
    const uint32_t b = uint32_t(w) & bank_mask;
    if (!(seen >> b & 1)) {
      seen |= uint64_t(1) << b;
      first_word[b] = w;
    } else if (first_word[b] != w) {
      // a conflict: the degree needs counting, once every lane is known to stay within its word
      return lanes_within_words(lane_addr, m & (m - 1), bytes, shift) ? OneWordLanes::Conflict
                                                                      : OneWordLanes::AcrossWords;
    }
  }
  return OneWordLanes::ConflictFree;
}

uint32_t conflict_degree(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, const SharedMemoryParams& p) {
  if (bytes == 0) bytes = 4;
  const unsigned shift = log2u(p.bank_width);
  if (bytes <= p.bank_width && p.mapping == SmemMapping::Linear && (p.banks & (p.banks - 1)) == 0 &&
      p.broadcast != SmemBroadcast::Limited) {
    if (p.broadcast == SmemBroadcast::Full) {
      const OneWordLanes k = conflict_free(lane_addr, mask, bytes, shift, p);
      if (k == OneWordLanes::ConflictFree) return 1;
      if (k == OneWordLanes::Conflict) return simple_degree(lane_addr, mask, shift, p);
    }
    // a lane within one word (aligned accesses of at most bank_width bytes)
    if (lanes_within_words(lane_addr, mask, bytes, shift)) return simple_degree(lane_addr, mask, shift, p);
  }
  BankRequests r(p.banks);
  for (uint32_t m = mask; m; m &= m - 1) add_lane(r, lane_addr[__builtin_ctz(m)], bytes, p);
  return r.degree(p);
}

uint32_t service_cycles(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, const SharedMemoryParams& p,
                        uint32_t* part_degrees) {
  const uint32_t lanes = p.lanes_per_part();
  const uint32_t part_mask = lanes >= 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1);
  uint32_t total = 0;
  for (uint32_t part = 0; part < p.warp_parts; ++part) {
    const uint32_t d = conflict_degree(lane_addr, mask & (part_mask << (part * lanes)), bytes, p);
    if (part_degrees) part_degrees[part] = d;
    total += d;
  }
  return total;
}

uint32_t block_degree(uint64_t addr, uint32_t bytes, const SharedMemoryParams& p) {
  if (bytes == 0) return 1;
  const unsigned shift = log2u(p.bank_width);
  const uint64_t first = addr >> shift, last = (addr + bytes - 1) >> shift;
  uint32_t per_bank[kMaxBanks] = {};
  uint32_t d = 1;
  for (uint64_t w = first; w <= last; ++w) d = std::max(d, ++per_bank[bank_of_word(w, p)]);
  return d;
}

}  // namespace warptlm
