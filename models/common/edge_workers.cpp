#include "common/edge_workers.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define WARPTLM_PAUSE() _mm_pause()
#else
#define WARPTLM_PAUSE() std::this_thread::yield()
#endif

namespace warptlm {

namespace {
// How long a worker spins for the next edge before it sleeps. A busy GPU's core
// edges follow each other within microseconds; a domain asleep (waiting on
// memory) may not wake for much longer.
// With more threads than cores a spinning worker only takes a core from the
// thread that has the work: it sleeps at once.
constexpr auto kSpin = std::chrono::microseconds(200);
thread_local bool on_worker_thread = false;
}  // namespace

bool EdgeWorkers::on_worker() { return on_worker_thread; }

unsigned EdgeWorkers::cores() {
  const unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

EdgeWorkers::EdgeWorkers(unsigned threads) : chunks_(threads ? threads : 1), spin_(threads <= cores()) {
  const char* f = std::getenv("WARPTLM_TEST_FAULT");
  no_join_fault_ = f && std::strcmp(f, "engine_no_join") == 0;
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

EdgeWorkers::~EdgeWorkers() {
  {
    std::lock_guard<std::mutex> l(m_);
    stop_.store(true);
    state_.store(((state_.load() >> 32) + 1) << 32 | kClosed);
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();

}

// The thread's own parts first, then any other thread's still waiting.
void EdgeWorkers::work(unsigned thread) {
  const size_t t = chunks_.size();
  for (size_t i = 0; i < t; ++i) {
    Chunk& c = chunks_[(thread + i) % t];
    for (size_t j; (j = c.next.fetch_add(1, std::memory_order_relaxed)) < c.end;) {
      const size_t k = order_[j];
      try {
        part_(ctx_, k);
      } catch (...) {
        std::lock_guard<std::mutex> l(error_m_);
        if (k < error_k_) error_k_ = k, error_ = std::current_exception();
      }
      done_.fetch_add(1, std::memory_order_release);
    }
  }
}

void EdgeWorkers::worker_loop(unsigned thread) {
  on_worker_thread = true;
  uint64_t seen = 0;  // the last generation this worker looked at
  for (;;) {
    // Wait for the next edge: spin, then sleep.
    uint64_t s = state_.load(std::memory_order_acquire);
    if ((s >> 32) == seen && spin_) {
      const auto until = std::chrono::steady_clock::now() + kSpin;
      for (unsigned i = 0; ((s = state_.load(std::memory_order_acquire)) >> 32) == seen; ++i) {
        WARPTLM_PAUSE();
        if ((i & 255) == 255 && std::chrono::steady_clock::now() > until) break;
      }
    }
    if ((s >> 32) == seen) {
      std::unique_lock<std::mutex> l(m_);
      sleepers_.fetch_add(1);
      cv_.wait(l, [&] { return ((s = state_.load()) >> 32) != seen; });
      sleepers_.fetch_sub(1);
    }
    seen = s >> 32;
    if (stop_.load()) return;
    // Enter the job unless it closed already (every part done without this worker).
    bool inside = false;
    while (!(s & kClosed) && !inside)
      inside = state_.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel, std::memory_order_acquire);
    if (!inside) continue;
    work(thread);
    state_.fetch_sub(1, std::memory_order_release);
  }
}

void EdgeWorkers::start(size_t n, const uint32_t* owner, void (*part)(void*, size_t), void* ctx) {
  n_ = n;
  part_ = part;
  ctx_ = ctx;
  const size_t t = chunks_.size();
  order_.resize(n);
  size_t j = 0;
  for (size_t c = 0; c < t; ++c) {
    chunks_[c].next.store(j, std::memory_order_relaxed);
    for (size_t k = 0; k < n; ++k)
      if (owner[k] % t == c) order_[j++] = uint32_t(k);
    chunks_[c].end = j;
  }
  done_.store(0, std::memory_order_relaxed);
  state_.store(((state_.load(std::memory_order_relaxed) >> 32) + 1) << 32, std::memory_order_seq_cst);  // open
  if (sleepers_.load() > 0) {
    std::lock_guard<std::mutex> l(m_);
    cv_.notify_all();
  }
}

void EdgeWorkers::finish() {
  const size_t n = n_;
  work(0);
  if (no_join_fault_) return;  // WARPTLM_TEST_FAULT=engine_no_join: the edge goes on while workers still run
  for (unsigned i = 0; done_.load(std::memory_order_acquire) != n; ++i) {
    if (i < 4096) WARPTLM_PAUSE();
    else std::this_thread::yield();
  }
  // Close the job and wait for the workers still inside it to leave.
  state_.fetch_or(kClosed, std::memory_order_acq_rel);
  for (unsigned i = 0; state_.load(std::memory_order_acquire) & kInside; ++i) {
    if (i < 4096) WARPTLM_PAUSE();
    else std::this_thread::yield();
  }
  if (error_) {
    std::exception_ptr e = error_;
    error_ = nullptr;
    error_k_ = SIZE_MAX;
    std::rethrow_exception(e);
  }
}

}  // namespace warptlm
