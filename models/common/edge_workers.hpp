// The worker threads of the parallel engine (sim.threads). A clock domain hands
// them the own parts of one edge's members (ClockedBlock::edge_own_work: work
// that touches nothing outside its block); they take members one at a time
// from a shared counter, the calling thread with them, and run() returns only
// when every member's part is done and every worker has left the edge. SystemC
// stays single-threaded: the workers run only inside run(), inside one clock
// domain's SystemC process, and never call the kernel.
//
// Between edges a worker spins briefly (an edge follows the last within
// microseconds while the SMs are busy), then sleeps until the next edge.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace warptlm {

class EdgeWorkers {
 public:
  // `threads` in all, the calling thread included (threads - 1 workers).
  explicit EdgeWorkers(unsigned threads);
  ~EdgeWorkers();
  EdgeWorkers(const EdgeWorkers&) = delete;
  EdgeWorkers& operator=(const EdgeWorkers&) = delete;

  unsigned threads() const { return unsigned(workers_.size()) + 1; }
  // Run part(ctx, k) for k in [0, n), on every thread; an exception thrown by
  // a part is rethrown here, the lowest k's first. `owner` names the thread
  // that takes part k first (0: the calling thread), so a
  // block's state stays in one core's caches from edge to edge; a thread done
  // with its own parts takes others' still waiting, and the calling thread
  // does them all if no worker comes (more threads than free cores).
  void run(size_t n, const uint32_t* owner, void (*part)(void* ctx, size_t k), void* ctx) {
    start(n, owner, part, ctx);
    finish();
  }
  // run() in two halves, so that the calling thread can do other work while the workers begin: start()
  // hands the parts out and returns at once; finish() takes the parts no worker took yet, waits for the
  // rest and rethrows as run() does. Every start() is followed by its finish() before the next start().
  void start(size_t n, const uint32_t* owner, void (*part)(void* ctx, size_t k), void* ctx);
  void finish();

  // The machine's cores (at least 1).
  static unsigned cores();
  // Whether the calling thread is one of the workers (not the SystemC thread).
  static bool on_worker();

 private:
  void work(unsigned thread);
  void worker_loop(unsigned thread);

  // The edge's job, written while no worker is inside (state_ closed, none in).
  size_t n_ = 0;
  void (*part_)(void*, size_t) = nullptr;
  void* ctx_ = nullptr;
  struct alignas(64) Chunk {
    std::atomic<size_t> next{0};
    size_t end = 0;
  };
  std::vector<Chunk> chunks_;  // per thread: its parts, order_[next .. end)
  std::vector<uint32_t> order_;  // the parts grouped by thread
  // generation << 32 | closed (bit 31) | workers inside the job (bits 0-30): a
  // worker enters an open job by compare-and-swap, so once the calling thread
  // closes it no worker can enter late and read the next edge's job.
  static constexpr uint64_t kClosed = 1ull << 31;
  static constexpr uint64_t kInside = kClosed - 1;
  alignas(64) std::atomic<uint64_t> state_{kClosed};
  alignas(64) std::atomic<size_t> done_{0};  // parts finished
  // (a line apart: every thread counts into done_ at every part, and the next edge's start reads sleepers_)
  alignas(64) std::vector<std::thread> workers_;
  bool spin_;  // spin between edges (no more threads than cores)
  // Test-only (WARPTLM_TEST_FAULT=engine_no_join): run() returns without waiting for the workers, so the
  // edge's shared parts race with their own parts; ThreadSanitizer must report it (scripts/tsan).
  bool no_join_fault_ = false;
  std::atomic<int> sleepers_{0};
  std::atomic<bool> stop_{false};
  std::mutex m_;
  std::condition_variable cv_;
  std::mutex error_m_;
  std::exception_ptr error_;
  size_t error_k_ = SIZE_MAX;
};

}  // namespace warptlm
