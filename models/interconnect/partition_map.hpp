// Address interleaving over memory partitions, shared by the crossbar (which
// partition a request goes to) and the L2 slices (which set inside a slice).
//
// The global address space is cut into chunks of `interleave` bytes; chunk k
// lives in partition k mod P ("linear", GPGPU-Sim's dramid@8 for the GTX480:
// 256-byte chunks over 6 channels; the HAWS thesis's Multi2Sim model uses
// ADDR DIV 128 MOD 6, spec 004 section 9). Rows of P consecutive chunks are
// spread over all partitions, so a partition's own chunks are numbered by
// their row, chunk / P; the partition-local address drops the partition
// choice: local = (chunk / P) * interleave + addr % interleave.
//
// Sub-partitions (GPGPU-Sim's 2 per channel on the GTX480): a partition may
// have S L2 slices sharing its DRAM channel; its own chunks alternate between
// them (sub = (chunk / P) mod S: GPGPU-Sim takes the lowest DRAM bank bit,
// which sits just above the 256 B chunk in a channel's address), and a slice
// indexes with its own chunks packed together, the slice-local address
// (chunk / P / S) * interleave + addr % interleave. Slice q*S + s is sub-
// partition s of partition q; with S = 1 slices and partitions are the same.
//
// "hash" rotates each row by an XOR fold of its row number, (k + fold(k / P))
// mod P, so that strides that are a multiple of P chunks do not all land in
// one partition (the camping that XOR mappings avoid, in the spirit of
// Nugteren et al. cited by CIAO, spec 002 section 1.1). The rotation is a
// permutation inside each row, so the local address stays the same formula.
#pragma once
#include <cstdint>

namespace warptlm {

struct PartitionMap {
  uint64_t interleave = 256;  // bytes per chunk
  uint32_t partitions = 1;
  bool hashed = false;
  uint32_t subpartitions = 1;  // L2 slices per partition

  uint32_t partition_of(uint64_t addr) const {
    const uint64_t chunk = addr / interleave;
    uint64_t col = chunk % partitions;
    if (hashed) col = (col + fold(chunk / partitions)) % partitions;
    return uint32_t(col);
  }
  uint32_t slices() const { return partitions * subpartitions; }
  // The L2 slice (crossbar output port) that holds addr.
  uint32_t slice_of(uint64_t addr) const {
    return partition_of(addr) * subpartitions + uint32_t(addr / interleave / partitions % subpartitions);
  }
  // The address as the slice sees its own memory: its chunks packed together.
  uint64_t slice_address(uint64_t addr) const {
    return (addr / interleave / partitions / subpartitions) * interleave + addr % interleave;
  }
  // The address as the partition (its DRAM channel) sees its own memory: its chunks packed together.
  uint64_t local_address(uint64_t addr) const {
    return (addr / interleave / partitions) * interleave + addr % interleave;
  }
  // XOR of the row number's bytes.
  static uint64_t fold(uint64_t row) {
    row ^= row >> 32;
    row ^= row >> 16;
    row ^= row >> 8;
    return row & 0xFF;
  }
};

}  // namespace warptlm
