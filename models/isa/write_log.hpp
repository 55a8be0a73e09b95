// The global-memory writes an SM issued in one core edge, held until the edge
// ends. Within an edge every SM's loads see global memory as it stood at the
// edge's start; the stores, atomics and reductions of the edge take effect at
// its end, SM by SM in SM index order and, within an SM, in issue order, an
// atomic returning the value it finds at its turn (docs/determinism.md). So the
// SMs of one edge share nothing while they run, and the answer is the same
// whether one thread or many run them.
//
// With sim.quantum > 1 the log holds a quantum of edges, and the SM's global
// loads wait in it too (defers_loads): each reads its bytes into its lane's
// register when the log takes effect, in issue order with the stores and
// atomics around it, so a thread's load still sees its own earlier store while
// the other SMs see neither until the quantum's end.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

namespace warptlm {

class GlobalWriteLog {
 public:
  // One lane's write: a store of `bytes` bytes, or an atomic (`apply` set).
  struct Entry {
    uint8_t* at;                     // the bytes in global memory
    void (*apply)(const Entry&);     // an atomic: reads `at`, writes it and the lane's register; null: a store
    uint64_t* dest;                  // an atomic's destination register lane (null: a reduction)
    uint64_t value[4];               // store data (a lane writes at most 32 bytes), or an atomic's operand and compare value
    uint32_t op;                     // an atomic's operation (SubOp)
    uint8_t bytes;
  };

  bool empty() const { return n_ == 0; }
  // sim.quantum > 1: global loads wait in the log as well.
  void set_defer_loads(bool on) { defer_loads_ = on; }
  bool defers_loads() const { return defer_loads_; }
  // Times the log took effect; the global loads it has held; and the held entries that write a register
  // (loads and atomics returning a value): such an entry's register holds its value once commits() passed
  // the count at its issue.
  uint64_t commits() const { return commits_; }
  uint64_t loads_logged() const { return loads_; }
  uint64_t register_writes_logged() const { return register_writes_; }
  // Test-only (WARPTLM_TEST_FAULT=engine_run_ahead): writes take effect as they
  // issue, ahead of the edge's end, as if the SM's thread ran ahead of the edge.
  void set_ahead(bool on) { ahead_ = on; }
  size_t size() const { return n_; }
  void store(uint8_t* at, const void* data, unsigned bytes) {
    if (ahead_) {
      std::memcpy(at, data, bytes);
      return;
    }
    Entry& e = next();
    e.at = at;
    e.apply = nullptr;
    e.dest = nullptr;
    std::memcpy(e.value, data, bytes);
    e.bytes = uint8_t(bytes);
  }
  void atomic(uint8_t* at, void (*apply)(const Entry&), uint64_t* dest, uint64_t b, uint64_t cmp, uint32_t op,
              unsigned bytes) {
    Entry& e = next();
    e.at = at;
    e.apply = apply;
    e.dest = dest;
    e.value[0] = b;
    e.value[1] = cmp;
    e.op = op;
    e.bytes = uint8_t(bytes);
    if (ahead_) {
      apply(e);
      --n_;
    } else if (dest) {
      ++register_writes_;
    }
  }
  // A lane's global load: `apply` reads the bytes at `at` into the register lane `dest`.
  void load(uint8_t* at, void (*apply)(const Entry&), uint64_t* dest) {
    Entry& e = next();
    e.at = at;
    e.apply = apply;
    e.dest = dest;
    if (ahead_) {
      apply(e);
      --n_;
    } else {
      ++loads_;
      ++register_writes_;
    }
  }
  // The edge (or quantum) ends: every write and held load takes effect, in the order issued.
  void commit() {
    ++commits_;
    for (size_t i = 0; i < n_; ++i) {
      const Entry& e = entries_[i];
      if (e.apply) e.apply(e);
      else std::memcpy(e.at, e.value, e.bytes);
    }
    n_ = 0;
  }

 private:
  Entry& next() {
    if (n_ == entries_.size()) entries_.resize(entries_.empty() ? 256 : entries_.size() * 2);
    return entries_[n_++];
  }
  std::vector<Entry> entries_;  // reused from edge to edge: no allocation per access
  size_t n_ = 0;
  bool ahead_ = false;
  bool defer_loads_ = false;
  uint64_t commits_ = 0, loads_ = 0, register_writes_ = 0;
};

}  // namespace warptlm
