// Host side of the Mars-style MapReduce runtime the mr_* workloads share
// (device side: mars_runtime.cuh). An application names its kernels
// PREFIX_prefix_sum, PREFIX_bitonic_step, PREFIX_group_marks and
// PREFIX_group_starts; these helpers launch them the way the runtime does.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace mars {

constexpr uint32_t kBlock = 256;  // threads per block of every runtime kernel

// Entries the group phase sorts: the next power of two, at least one block.
inline int padded(int n) {
  int p = int(kBlock);
  while (p < n) p *= 2;
  return p;
}

// Exclusive prefix sum of in[0, n) into out (one block); returns the total,
// read back as the runtime's host does to size the next buffers.
inline int scan(Device& dev, const std::string& prefix, DevPtr in, DevPtr out, int n) {
  dev.launch(prefix + "_prefix_sum", Dim3(1), Dim3(kBlock), {arg(in), arg(out), arg(int32_t(n))});
  int32_t last_in = 0, last_out = 0;
  const uint64_t at = uint64_t(n - 1) * sizeof(int32_t);
  dev.memcpy_d2h(&last_in, in + at, sizeof(int32_t));
  dev.memcpy_d2h(&last_out, out + at, sizeof(int32_t));
  return last_in + last_out;
}

// The bitonic network over `npad` entries (a power of two), one launch per step.
inline void sort(Device& dev, const std::string& prefix, DevPtr keys, DevPtr entries, int npad) {
  for (int k = 2; k <= npad; k *= 2)
    for (int j = k / 2; j > 0; j /= 2)
      dev.launch(prefix + "_bitonic_step", Dim3(uint32_t(npad) / kBlock), Dim3(kBlock),
                 {arg(keys), arg(entries), arg(int32_t(k)), arg(int32_t(j))});
}

// An index entry {key offset, key size, value offset, value size}, as the GPU's int4.
struct Entry {
  int32_t x, y, z, w;
};

// The input side of a pass: the records uploaded with their index, and each
// record's map-count output and scanned write offsets (a thread per record).
struct MapInput {
  int records = 0;
  DevPtr keys = 0, vals = 0, index = 0;
  DevPtr key_bytes = 0, val_bytes = 0, pairs = 0;  // map count, per record
  DevPtr key_off = 0, val_off = 0, pair_off = 0;   // their exclusive prefix sums
  int key_total = 0, val_total = 0, pair_total = 0;
  Dim3 grid() const { return Dim3(wl::ceil_div(uint64_t(records), kBlock)); }
  void free(Device& dev) const {
    for (DevPtr p : {keys, vals, index, key_bytes, val_bytes, pairs, key_off, val_off, pair_off}) dev.free(p);
  }
};

// Takes ownership of `records` records already on the device (uploaded, or
// the output of an earlier pass) and allocates their map-count outputs.
inline MapInput records_on_device(Device& dev, DevPtr keys, DevPtr vals, DevPtr index, int records) {
  MapInput m;
  m.records = records;
  m.keys = keys;
  m.vals = vals;
  m.index = index;
  const uint64_t per = uint64_t(std::max(m.records, 1)) * sizeof(int32_t);
  for (DevPtr* p : {&m.key_bytes, &m.val_bytes, &m.pairs, &m.key_off, &m.val_off, &m.pair_off}) *p = dev.malloc(per);
  return m;
}

// Uploads the key and value records (fixed sizes) and their index.
template <class Key, class Val>
MapInput upload_records(Device& dev, const std::vector<Key>& keys, const std::vector<Val>& vals) {
  std::vector<Entry> index(keys.size());
  for (size_t i = 0; i < index.size(); ++i)
    index[i] = Entry{int32_t(i * sizeof(Key)), int32_t(sizeof(Key)), int32_t(i * sizeof(Val)), int32_t(sizeof(Val))};
  const DevPtr dkeys = dev.upload(keys);  // in this order: the allocations' addresses are part of the run
  const DevPtr dvals = dev.upload(vals);
  const DevPtr dindex = dev.upload(index);
  return records_on_device(dev, dkeys, dvals, dindex, int(keys.size()));
}

// Runs PREFIX_map_count(index, keys, vals, key_bytes, val_bytes, pairs,
// records) and the three prefix sums; the totals come back to the host. An
// application with several passes over the same records runs it once a pass.
inline void count(Device& dev, const std::string& prefix, MapInput& m) {
  dev.launch(prefix + "_map_count", m.grid(), Dim3(kBlock),
             {arg(m.index), arg(m.keys), arg(m.vals), arg(m.key_bytes), arg(m.val_bytes), arg(m.pairs),
              arg(int32_t(m.records))});
  m.key_total = scan(dev, prefix, m.key_bytes, m.key_off, m.records);
  m.val_total = scan(dev, prefix, m.val_bytes, m.val_off, m.records);
  m.pair_total = scan(dev, prefix, m.pairs, m.pair_off, m.records);
}

// Records already on the device, then map count.
inline MapInput map_count_records(Device& dev, const std::string& prefix, DevPtr keys, DevPtr vals, DevPtr index,
                                  int records) {
  MapInput m = records_on_device(dev, keys, vals, index, records);
  count(dev, prefix, m);
  return m;
}

// Uploaded records, then map count.
template <class Key, class Val>
MapInput map_count(Device& dev, const std::string& prefix, const std::vector<Key>& keys, const std::vector<Val>& vals) {
  MapInput m = upload_records(dev, keys, vals);
  count(dev, prefix, m);
  return m;
}

// PREFIX_map(index, keys, vals, key_off, val_off, pair_off, out_keys, out_vals, out_index, records).
inline void map(Device& dev, const std::string& prefix, const MapInput& m, DevPtr out_keys, DevPtr out_vals,
                DevPtr out_index) {
  dev.launch(prefix + "_map", m.grid(), Dim3(kBlock),
             {arg(m.index), arg(m.keys), arg(m.vals), arg(m.key_off), arg(m.val_off), arg(m.pair_off), arg(out_keys),
              arg(out_vals), arg(out_index), arg(int32_t(m.records))});
}

// Groups of equal keys among the n sorted entries after `first` padding ones:
// marks, their scan into slots, the group starts; returns the group count.
inline int group(Device& dev, const std::string& prefix, DevPtr keys, DevPtr entries, int first, int n, DevPtr marks,
                 DevPtr slot, DevPtr starts) {
  const Dim3 grid(wl::ceil_div(uint64_t(n), kBlock));
  dev.launch(prefix + "_group_marks", grid, Dim3(kBlock),
             {arg(keys), arg(entries), arg(int32_t(first)), arg(int32_t(n)), arg(marks)});
  const int groups = scan(dev, prefix, marks, slot, n);
  dev.launch(prefix + "_group_starts", grid, Dim3(kBlock), {arg(marks), arg(slot), arg(int32_t(n)), arg(starts)});
  return groups;
}

// A pass's map and group phases after map count: the intermediate buffers,
// PREFIX_map into them, the sort, the groups.
struct Grouped {
  DevPtr keys = 0, vals = 0, entries = 0, marks = 0, slot = 0, starts = 0;
  int pairs = 0, npad = 0, first = 0, groups = 0;
  void free(Device& dev) const {
    for (DevPtr p : {keys, vals, entries, marks, slot, starts}) dev.free(p);
  }
};

inline Grouped map_and_group(Device& dev, const std::string& prefix, const MapInput& m) {
  Grouped g;
  g.pairs = m.pair_total;
  g.npad = padded(g.pairs);
  g.first = g.npad - g.pairs;
  g.keys = dev.malloc(std::max(m.key_total, 16));
  g.vals = dev.malloc(std::max(m.val_total, 8));
  g.entries = dev.malloc(uint64_t(g.npad) * sizeof(Entry));
  dev.memset(g.entries, 0xff, uint64_t(g.npad) * sizeof(Entry));
  map(dev, prefix, m, g.keys, g.vals, g.entries);
  const uint64_t per = uint64_t(std::max(g.pairs, 1)) * sizeof(int32_t);
  g.marks = dev.malloc(per);
  g.slot = dev.malloc(per);
  g.starts = dev.malloc(per);
  sort(dev, prefix, g.keys, g.entries, g.npad);
  g.groups = g.pairs ? group(dev, prefix, g.keys, g.entries, g.first, g.pairs, g.marks, g.slot, g.starts) : 0;
  return g;
}

}  // namespace mars
}  // namespace warptlm
