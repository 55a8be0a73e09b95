// A direct-mapped cache of 128-byte global lines built in the unused part of
// an SM's shared memory (CIAO, seed 002 sec. IV-B; spec 002 sec. 4.2-4.4): the
// data of a line fills one bank-group row (16 banks x 8 bytes), its tag
// {line, warp id} sits in the other bank group, so one shared-memory access
// reads both without a bank conflict.
//
// The array seen here: 32 banks of 8-byte rows, split into two groups of 16;
// a full row is 256 bytes. A region of unused rows [base row, base row + rows)
// holds P data rows (a power of two, P <= 256, the 8-bit row mask P - 1) and
// ceil(P / 32) tag rows after them; the cache has 2P blocks. For a global
// address A (spec 002 sec. 4.4):
//   data: group G = A[7], row R' = A[15:8] & (P - 1) + data base (the data
//         block offset register), banks G*16 .. G*16 + 15, byte A[6:0]
//   tag:  group !G, bank !G*16 + R'[4:1], half R'[0], row (R' >> 5) + tag base
// and the tag keeps the whole line address (the 16 high bits and the 9-bit
// block index of the paper: masked-off index bits still compare).
#pragma once
#include <cstdint>
#include <vector>

namespace warptlm {

class SharedMemoryCache {
 public:
  static constexpr uint32_t kLine = 128, kRowBytes = 256, kBankBytes = 8, kGroupBanks = 16, kTagsPerRow = 32;
  static constexpr uint32_t kMaxDataRows = 256;  // the 8-bit row mask

  // Data rows (P) a region of `bytes` holds: the largest power of two with P + ceil(P / 32) rows fitting.
  static uint32_t data_rows_for(uint32_t bytes);

  // The region [base, base + bytes) of the shared memory (base rounded up to a row): sizes the cache and
  // empties it. A region too small for one data row and its tag row leaves the cache without blocks.
  void configure(uint32_t base, uint32_t bytes);
  bool usable() const { return rows_ > 0; }
  uint32_t blocks() const { return 2 * rows_; }
  uint32_t data_rows() const { return rows_; }
  uint32_t row_mask() const { return rows_ ? rows_ - 1 : 0; }
  uint32_t data_base_row() const { return data_base_; }
  uint32_t tag_base_row() const { return data_base_ + rows_; }
  uint32_t region_end() const { return (tag_base_row() + tag_rows()) * kRowBytes; }  // bytes the cache uses end here
  uint32_t tag_rows() const { return (rows_ + kTagsPerRow - 1) / kTagsPerRow; }

  // The address translation unit.
  struct Place {
    uint32_t group, data_row, data_offset;       // byte offset of the line's first byte in shared memory
    uint32_t tag_bank, tag_half, tag_row, tag_offset;
    uint32_t index;                              // the direct-mapped block {G, R'}
  };
  Place translate(uint64_t addr) const;

  // Direct-mapped lookup of a line (byte address >> 7).
  bool holds(uint64_t line) const;
  int owner_of(uint64_t line) const;  // the warp that brought it in, or -1
  // Install `line` for `warp`; a different valid line in its block is evicted and returned.
  struct Victim {
    bool valid = false;
    uint64_t line = 0;
    uint16_t owner = 0;
  };
  Victim fill(uint64_t line, uint16_t warp);
  bool invalidate(uint64_t line);
  void clear();

 private:
  struct Block {
    bool valid = false;
    uint64_t line = 0;
    uint16_t owner = 0;
  };
  uint32_t rows_ = 0, data_base_ = 0;
  std::vector<Block> blocks_;
};

}  // namespace warptlm
